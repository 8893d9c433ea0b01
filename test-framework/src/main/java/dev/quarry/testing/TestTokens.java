package dev.quarry.testing;

import dev.quarry.engine.Sha256;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** The tokens the HTTP tests use, and the tokens file that grants them. */
public final class TestTokens {
  /** Every scope on every corpus. */
  public static final String ADMIN = "admin-token";

  /** search on corpus c1 only. */
  public static final String SEARCH_C1 = "search-c1-token";

  /** search and index on c1's public/* sources only. */
  public static final String PUBLIC_C1 = "public-c1-token";

  /** every scope on corpus c2 only. */
  public static final String C2_ONLY = "c2-only-token";

  /** manage on c1 only. */
  public static final String MANAGE_C1 = "manage-c1-token";

  private TestTokens() {}

  public static final String FILE =
      """
      {"tokens": [
        {"subject": "admin", "token": "admin-token",
         "grants": [{"corpus": "*", "scopes": ["search", "index", "manage"]}]},
        {"subject": "searcher", "token": "search-c1-token",
         "grants": [{"corpus": "c1", "scopes": ["search"]}]},
        {"subject": "public-writer", "token": "public-c1-token",
         "grants": [{"corpus": "c1", "sources": ["public/*"], "scopes": ["search", "index"]}]},
        {"subject": "other", "token": "c2-only-token",
         "grants": [{"corpus": "c2", "scopes": ["search", "index", "manage"]}]},
        {"subject": "manager", "tokenSha256": "%s",
         "grants": [{"corpus": "c1", "scopes": ["manage"]}]}
      ]}"""
          .formatted(sha256Hex("manage-c1-token"));

  /** Writes the tokens file into {@code dir}. */
  public static Path write(Path dir) {
    return write(dir, FILE);
  }

  /**
   * Writes {@code tokensJson} as the tokens file into {@code dir}: for tests whose tokens are their
   * own.
   */
  public static Path write(Path dir, String tokensJson) {
    try {
      Path file = Files.writeString(dir.resolve("tokens.json"), tokensJson);
      try {
        // As a tokens file should be: readable by its owner only (the server warns otherwise).
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException notPosix) {
        // nothing to narrow
      }
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String sha256Hex(String s) {
    return Sha256.ofUtf8(s);
  }
}
