package dev.quarry.benchmarks.contender;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Names for what a contender keeps on a server (an OpenSearch index, a Quarry corpus), derived from
 * the benchmark's index folder, so that a prebuilt index opened again in another fork finds the
 * same one.
 */
final class FolderNames {
  private FolderNames() {}

  /** 16 lowercase hex digits of a hash of the folder's absolute path. */
  static String hash(Path dir) {
    byte[] path = dir.toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8);
    long hash = 1125899906842597L;
    for (byte b : path) {
      hash = 31 * hash + b;
    }
    return HexFormat.of().toHexDigits(hash).toLowerCase(Locale.ROOT);
  }
}
