package dev.quarry.api.routes;

import dev.quarry.api.Authenticator;
import dev.quarry.api.ChecksBeforeBody;
import dev.quarry.corpora.access.Access;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import io.javalin.http.Context;
import java.util.Locale;

/** Reads the caller's bearer token; the one place that answers {@code 401 UNAUTHENTICATED}. */
public final class Authentication {
  private Authentication() {}

  /**
   * The caller's access from {@code Authorization: Bearer <token>}; 401 UNAUTHENTICATED when the
   * header is missing, malformed or names an unknown token.
   */
  public static Access authenticate(Context ctx, Authenticator authenticator) {
    String header = ctx.header("Authorization");
    try {
      return authenticate(header, authenticator);
    } catch (QuarryException e) {
      ctx.header(
          "WWW-Authenticate",
          header == null || header.isBlank() ? "Bearer" : "Bearer error=\"invalid_token\"");
      throw e;
    }
  }

  /**
   * The access of the {@code Authorization} header {@code header} (null: none); 401 UNAUTHENTICATED
   * when it is missing, malformed or names an unknown token. Sets no challenge: for a check made
   * before the request reaches its endpoint ({@link Endpoint#refusesBeforeBody}).
   */
  public static Access authenticate(String header, Authenticator authenticator) {
    if (header == null || header.isBlank()) {
      throw new QuarryException(ErrorCode.UNAUTHENTICATED, "send Authorization: Bearer <token>");
    }
    String token =
        header.length() > 7 && header.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")
            ? header.substring(7).strip()
            : null;
    Access access =
        token == null || token.isEmpty() ? null : authenticator.authenticate(token).orElse(null);
    if (access == null) {
      throw new QuarryException(ErrorCode.UNAUTHENTICATED, "the bearer token is not valid");
    }
    return access;
  }

  /**
   * Whether the {@code Authorization} header {@code header} (null: none) is refused by {@link
   * #authenticate(String, Authenticator)}: the whole check a handler that asks only for a token
   * makes before the body ({@link ChecksBeforeBody}). A fault of the authenticator counts as a
   * refusal, since the handler answers it just as early.
   */
  public static boolean refuses(String header, Authenticator authenticator) {
    try {
      authenticate(header, authenticator);
      return false;
    } catch (RuntimeException refused) {
      return true;
    }
  }
}
