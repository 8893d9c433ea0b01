package dev.quarry.extractors;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The shared test documents ({@code data/docs/good} and {@code data/docs/bad} under the folder
 * named by the {@code quarry.shared.dir} system property). Tests that need them are skipped, with a
 * message saying so, when the folder is absent.
 */
public final class SharedDocs {

  /** Declared media types by file extension, as an upload's name would suggest them. */
  private static final Map<String, String> TYPES_BY_EXTENSION =
      Map.ofEntries(
          Map.entry("pdf", "application/pdf"),
          Map.entry(
              "docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
          Map.entry("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
          Map.entry(
              "pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
          Map.entry("doc", "application/msword"),
          Map.entry("xls", "application/vnd.ms-excel"),
          Map.entry("ppt", "application/vnd.ms-powerpoint"),
          Map.entry("odt", "application/vnd.oasis.opendocument.text"),
          Map.entry("ods", "application/vnd.oasis.opendocument.spreadsheet"),
          Map.entry("odp", "application/vnd.oasis.opendocument.presentation"),
          Map.entry("html", "text/html"),
          Map.entry("rtf", "application/rtf"),
          Map.entry("epub", "application/epub+zip"),
          Map.entry("eml", "message/rfc822"),
          Map.entry("txt", "text/plain"),
          Map.entry("md", "text/markdown"),
          Map.entry("csv", "text/csv"));

  /** One line of a folder's manifest.tsv, by column name. */
  public record Row(String file, Map<String, String> columns) {
    public String column(String name) {
      return columns.getOrDefault(name, "");
    }
  }

  private SharedDocs() {}

  /** {@code data/docs} of the shared folder; skips the calling test when it is absent. */
  public static Path docs() {
    String shared = System.getProperty("quarry.shared.dir");
    Path docs = shared == null ? null : Path.of(shared, "data", "docs");
    assumeTrue(
        docs != null
            && Files.isDirectory(docs.resolve("good"))
            && Files.isDirectory(docs.resolve("bad")),
        "shared test documents not found (system property quarry.shared.dir="
            + shared
            + " should name a folder holding data/docs/good and data/docs/bad); skipping");
    return docs;
  }

  public static Path good(String file) {
    return docs().resolve("good").resolve(file);
  }

  public static Path bad(String file) {
    return docs().resolve("bad").resolve(file);
  }

  /** The rows of {@code folder}'s manifest.tsv ("good" or "bad"). */
  public static List<Row> manifest(String folder) {
    Path manifest = docs().resolve(folder).resolve("manifest.tsv");
    try {
      List<String> lines = Files.readAllLines(manifest);
      String[] header = lines.get(0).split("\t", -1);
      return lines.stream()
          .skip(1)
          .filter(line -> !line.isBlank())
          .map(
              line -> {
                String[] cells = line.split("\t", -1);
                Map<String, String> columns = new java.util.HashMap<>();
                for (int i = 0; i < header.length && i < cells.length; i++) {
                  columns.put(header[i], cells[i]);
                }
                return new Row(cells[0], Map.copyOf(columns));
              })
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The media type a file's extension suggests, or null. */
  public static String declaredType(String file) {
    String extension = file.substring(file.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
    return TYPES_BY_EXTENSION.get(extension);
  }

  /** The manifest's labels column as a list. */
  public static List<String> labels(Row row) {
    String labels = row.column("labels");
    return labels.isBlank() ? List.of() : Arrays.asList(labels.split(","));
  }
}
