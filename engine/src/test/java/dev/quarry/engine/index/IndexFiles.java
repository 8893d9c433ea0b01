package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** What an index folder holds on disk, byte for byte: the erasure tests' last word. */
final class IndexFiles {
  private IndexFiles() {}

  /** Fails if any file directly in {@code dir} holds {@code text} (UTF-8) anywhere in its bytes. */
  static void assertNoFileHolds(Path dir, String text, String when) throws IOException {
    List<String> holding = filesHolding(dir, text);
    assertTrue(holding.isEmpty(), "'" + text + "' in " + holding + " " + when);
  }

  /** Whether any file directly in {@code dir} holds {@code text} (UTF-8) as it is. */
  static boolean anyFileHolds(Path dir, String text) throws IOException {
    return !filesHolding(dir, text).isEmpty();
  }

  /**
   * The names of the files directly in {@code dir} that hold {@code text} (UTF-8) anywhere in their
   * bytes.
   */
  private static List<String> filesHolding(Path dir, String text) throws IOException {
    byte[] needle = text.getBytes(StandardCharsets.UTF_8);
    List<String> holding = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        if (contains(Files.readAllBytes(f), needle)) {
          holding.add(f.getFileName().toString());
        }
      }
    }
    return holding;
  }

  private static boolean contains(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
