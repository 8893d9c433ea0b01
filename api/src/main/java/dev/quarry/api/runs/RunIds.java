package dev.quarry.api.runs;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Run ids: {@code run_} and 128 random bits in hex. Unguessable, so a run id is never a capability
 * someone could find by counting. Thread-safe.
 */
final class RunIds {
  static final String PREFIX = "run_";
  private static final int RANDOM_BYTES = 16;

  private final SecureRandom random = new SecureRandom();

  String next() {
    byte[] bytes = new byte[RANDOM_BYTES];
    random.nextBytes(bytes);
    return PREFIX + HexFormat.of().formatHex(bytes);
  }
}
