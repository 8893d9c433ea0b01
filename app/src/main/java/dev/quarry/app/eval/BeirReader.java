package dev.quarry.app.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a collection in BEIR's layout from a folder: {@code corpus.jsonl} (one {@code {"_id",
 * "title", "text"}} object a line), {@code queries.jsonl} ({@code {"_id", "text"}}) and the
 * judgments as a tab-separated {@code query-id corpus-id score} file with a header line, either
 * {@code qrels.tsv} or BEIR's own {@code qrels/test.tsv}. Other JSON fields (BEIR's {@code
 * metadata}) are ignored.
 */
public final class BeirReader {
  public static final String CORPUS_FILE = "corpus.jsonl";
  public static final String QUERIES_FILE = "queries.jsonl";
  public static final String QRELS_FILE = "qrels.tsv";

  /** Where BEIR's own downloads keep the test-split judgments. */
  public static final String BEIR_TEST_QRELS_FILE = "qrels/test.tsv";

  private final ObjectMapper json = new ObjectMapper();

  /**
   * Reads the collection in {@code dir}, named after the folder.
   *
   * @throws IllegalArgumentException naming the file and line when a file is missing or malformed
   */
  public BeirCollection read(Path dir) throws IOException {
    Path qrels = dir.resolve(QRELS_FILE);
    if (!Files.exists(qrels)) {
      qrels = dir.resolve(BEIR_TEST_QRELS_FILE);
    }
    Path folder = dir.toAbsolutePath().normalize().getFileName();
    String name = folder == null ? "collection" : folder.toString();
    return new BeirCollection(
        name,
        readDocuments(require(dir.resolve(CORPUS_FILE))),
        readQueries(require(dir.resolve(QUERIES_FILE))),
        readJudgments(require(qrels)));
  }

  private static Path require(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("not a BEIR collection: " + file + " is missing");
    }
    return file;
  }

  private List<BeirDocument> readDocuments(Path file) throws IOException {
    List<BeirDocument> docs = new ArrayList<>();
    forEachJsonLine(
        file,
        (node, where) ->
            docs.add(
                new BeirDocument(
                    requiredText(node, "_id", where),
                    optionalText(node, "title"),
                    optionalText(node, "text"))));
    return docs;
  }

  private List<BeirQuery> readQueries(Path file) throws IOException {
    List<BeirQuery> queries = new ArrayList<>();
    forEachJsonLine(
        file,
        (node, where) ->
            queries.add(
                new BeirQuery(
                    requiredText(node, "_id", where), requiredText(node, "text", where))));
    return queries;
  }

  private static Judgments readJudgments(Path file) throws IOException {
    Map<String, Map<String, Integer>> byQuery = new LinkedHashMap<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int number = 0;
      while ((line = in.readLine()) != null) {
        number++;
        if (line.isBlank() || (number == 1 && line.startsWith("query-id"))) {
          continue;
        }
        String[] cols = line.split("\t");
        if (cols.length != 3) {
          throw new IllegalArgumentException(
              file
                  + ":"
                  + number
                  + ": expected 3 tab-separated columns (query-id, corpus-id, score); got "
                  + cols.length);
        }
        int grade;
        try {
          grade = Integer.parseInt(cols[2].trim());
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              file + ":" + number + ": score must be an integer; got '" + cols[2] + "'");
        }
        byQuery
            .computeIfAbsent(cols[0].trim(), q -> new LinkedHashMap<>())
            .put(cols[1].trim(), grade);
      }
    }
    return new Judgments(byQuery);
  }

  private interface LineHandler {
    void accept(JsonNode node, String where);
  }

  private void forEachJsonLine(Path file, LineHandler handler) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int number = 0;
      while ((line = in.readLine()) != null) {
        number++;
        if (line.isBlank()) {
          continue;
        }
        String where = file + ":" + number;
        JsonNode node;
        try {
          node = json.readTree(line);
        } catch (JsonProcessingException e) {
          throw new IllegalArgumentException(
              where + ": not a JSON object: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
          throw new IllegalArgumentException(where + ": not a JSON object");
        }
        handler.accept(node, where);
      }
    }
  }

  private static String requiredText(JsonNode node, String field, String where) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull() || value.isContainerNode()) {
      throw new IllegalArgumentException(where + ": missing \"" + field + "\"");
    }
    return value.asText();
  }

  private static String optionalText(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() || value.isContainerNode() ? "" : value.asText();
  }
}
