package dev.quarry.api;

import dev.quarry.corpora.access.Access;
import java.util.Optional;

/**
 * Turns a bearer token into the caller's {@link Access}: its subject and grants. The host supplies
 * one; the standalone server's comes from its tokens file.
 *
 * <p>Called once per request, from many threads at once: implementations must be thread-safe, and
 * should compare tokens in constant time.
 *
 * <p>Fails closed: an authenticator that throws (for example because it built a {@code Grant} with
 * an empty sources list, which {@code Grant} refuses) gets the request answered {@code 500
 * INTERNAL}, never served with more than it meant to grant. To grant nothing in a corpus, leave the
 * grant out.
 *
 * @quarry.stable
 */
@FunctionalInterface
public interface Authenticator {
  /** The access of the token's holder, or empty for an unknown token. */
  Optional<Access> authenticate(String bearerToken);
}
