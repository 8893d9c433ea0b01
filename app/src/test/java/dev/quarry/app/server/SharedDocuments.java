package dev.quarry.app.server;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The shared test documents ({@code data/docs/good} and {@code bad} under the folder named by the
 * {@code quarry.shared.dir} system property); tests that need them are skipped, saying so, when the
 * folder is absent.
 */
final class SharedDocuments {
  private SharedDocuments() {}

  /** {@code data/docs}; skips the calling test when it is absent. */
  static Path docs() {
    String shared = System.getProperty("quarry.shared.dir");
    Path docs = shared == null ? null : Path.of(shared, "data", "docs");
    assumeTrue(
        docs != null
            && Files.isDirectory(docs.resolve("good"))
            && Files.isDirectory(docs.resolve("bad")),
        "shared test documents not found (quarry.shared.dir="
            + shared
            + " should hold data/docs/good and data/docs/bad); skipping");
    return docs;
  }

  static byte[] good(String file) {
    return read(docs().resolve("good").resolve(file));
  }

  static byte[] bad(String file) {
    return read(docs().resolve("bad").resolve(file));
  }

  static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The rows of {@code folder}'s manifest.tsv, each by column name. */
  static List<Map<String, String>> manifest(String folder) {
    try {
      List<String> lines = Files.readAllLines(docs().resolve(folder).resolve("manifest.tsv"));
      String[] header = lines.get(0).split("\t", -1);
      return lines.stream()
          .skip(1)
          .filter(l -> !l.isBlank())
          .map(
              line -> {
                String[] cells = line.split("\t", -1);
                Map<String, String> row = new HashMap<>();
                for (int i = 0; i < header.length && i < cells.length; i++) {
                  row.put(header[i], cells[i]);
                }
                return Map.copyOf(row);
              })
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
