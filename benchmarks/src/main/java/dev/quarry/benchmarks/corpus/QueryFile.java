package dev.quarry.benchmarks.corpus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Real queries from a JSONL file, one {@code {"_id", "text"}} object per line, as BEIR collections
 * ship them ({@code queries.jsonl}; {@code id} is accepted for {@code _id}). Users type claims and
 * questions of a dozen words or more, which cost a search engine differently from the one to three
 * rare words of {@link QueryMix}. Kept in file order, so every run asks the same queries in the
 * same order. Immutable.
 */
public final class QueryFile {
  /** The prefix of a benchmark parameter naming a query file: {@code jsonl:<path>}. */
  public static final String JSONL_PREFIX = "jsonl:";

  /** The benchmark parameter for the generated queries of {@link QueryMix}. */
  public static final String GENERATED = "generated";

  private QueryFile() {}

  /**
   * The text of every query of {@code file}, in file order; blank lines are skipped.
   *
   * @throws IllegalArgumentException naming the line when it is not JSON or lacks a text
   */
  public static List<String> load(Path file) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<String> queries = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      int lineNumber = 0;
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lineNumber++;
        if (line.isBlank()) {
          continue;
        }
        JsonNode node;
        try {
          node = json.readTree(line);
        } catch (IOException e) {
          throw new IllegalArgumentException(
              file + " line " + lineNumber + " is not JSON: " + e.getMessage(), e);
        }
        JsonNode text = node.get("text");
        if (text == null || !text.isTextual() || text.asText().isBlank()) {
          throw new IllegalArgumentException(
              file + " line " + lineNumber + " needs a non-blank text");
        }
        queries.add(text.asText());
      }
    }
    if (queries.isEmpty()) {
      throw new IllegalArgumentException(file + " holds no queries");
    }
    return List.copyOf(queries);
  }

  /** Whether a benchmark parameter names a query file rather than the generated queries. */
  public static boolean isFile(String spec) {
    return spec != null && spec.startsWith(JSONL_PREFIX);
  }

  /** A short name for reports: the file with its folder, e.g. {@code scifact/queries.jsonl}. */
  public static String describe(String spec) {
    Path file = path(spec);
    Path folder = file.toAbsolutePath().normalize().getParent();
    return (folder == null || folder.getFileName() == null ? "" : folder.getFileName() + "/")
        + file.getFileName();
  }

  /** The file a {@code jsonl:<path>} parameter names. */
  public static Path path(String spec) {
    if (!isFile(spec)) {
      throw new IllegalArgumentException(
          "queries must be '"
              + GENERATED
              + "' or '"
              + JSONL_PREFIX
              + "<path>'; got '"
              + spec
              + "'");
    }
    return Path.of(spec.substring(JSONL_PREFIX.length()));
  }
}
