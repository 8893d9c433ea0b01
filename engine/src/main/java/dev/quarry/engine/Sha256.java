package dev.quarry.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 as Quarry writes it: lowercase hex, of UTF-8 text or of a file's bytes. A source's {@code
 * contentSha256}, idempotency fingerprints and token hashes all come from here.
 *
 * @quarry.internal
 */
public final class Sha256 {
  private Sha256() {}

  /** A fresh digest. */
  public static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every Java runtime has SHA-256", e);
    }
  }

  /** Lowercase hex of what {@code digest} has taken in; the digest is reset. */
  public static String hex(MessageDigest digest) {
    return HexFormat.of().formatHex(digest.digest());
  }

  /** Lowercase hex SHA-256 of {@code bytes}. */
  public static String of(byte[] bytes) {
    return HexFormat.of().formatHex(newDigest().digest(bytes));
  }

  /** Lowercase hex SHA-256 of {@code text}'s UTF-8 bytes. */
  public static String ofUtf8(String text) {
    return of(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Lowercase hex SHA-256 of the file's bytes. */
  public static String ofFile(Path file) throws IOException {
    MessageDigest digest = newDigest();
    try (InputStream in = new DigestInputStream(Files.newInputStream(file), digest)) {
      in.transferTo(OutputStream.nullOutputStream());
    }
    return hex(digest);
  }
}
