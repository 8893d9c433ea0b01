package dev.quarry.app.server;

import dev.quarry.api.Authenticator;
import dev.quarry.corpora.access.Access;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;

/**
 * Authenticates bearer tokens against the SHA-256 hashes of the tokens file. The presented token is
 * hashed and compared with every entry with {@link MessageDigest#isEqual}, without stopping at a
 * match, so the time taken says nothing about which or how many bytes matched.
 *
 * <p>Immutable and thread-safe.
 */
public final class TokenAuthenticator implements Authenticator {
  private final List<Entry> entries;

  TokenAuthenticator(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  /** One token with its access, for a server whose token is minted at start (the demo). */
  public static TokenAuthenticator single(String token, Access access) {
    return new TokenAuthenticator(List.of(new Entry(TokensFile.sha256(token), access)));
  }

  @Override
  public Optional<Access> authenticate(String bearerToken) {
    byte[] presented = TokensFile.sha256(bearerToken);
    Access found = null;
    for (Entry e : entries) {
      if (MessageDigest.isEqual(presented, e.sha256()) && found == null) {
        found = e.access();
      }
    }
    return Optional.ofNullable(found);
  }

  /** How many tokens are configured. */
  public int size() {
    return entries.size();
  }

  /** One configured token: the SHA-256 of its secret and what it grants. */
  record Entry(byte[] sha256, Access access) {}
}
