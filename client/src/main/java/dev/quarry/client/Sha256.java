package dev.quarry.client;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 as the wire writes it: lowercase hex. */
final class Sha256 {
  private Sha256() {}

  static MessageDigest digest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(digest().digest(bytes));
  }
}
