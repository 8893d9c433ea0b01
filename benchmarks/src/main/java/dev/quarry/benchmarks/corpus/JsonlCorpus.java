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
 * Real text from a JSONL file, one {@code {"id", "title", "text"}} object per line ({@code _id} is
 * accepted for {@code id}, as BEIR corpora spell it; {@code title} is optional).
 *
 * <p>The corpus is endless like every {@link Corpus}: past the end of the file it starts again,
 * with {@code #2}, {@code #3}... appended to the ids. Repeated text keeps the vocabulary of the
 * file, so term statistics of a corpus much larger than the file are not realistic; reports say how
 * many times the file was repeated. Immutable and thread-safe.
 */
public final class JsonlCorpus implements Corpus {
  private final String name;
  private final List<SourceDocument> documents;

  private JsonlCorpus(String name, List<SourceDocument> documents) {
    this.name = name;
    this.documents = List.copyOf(documents);
  }

  /**
   * Reads every line of {@code file}; blank lines are skipped.
   *
   * @throws IllegalArgumentException naming the line when it lacks an id or a text, or is not JSON
   */
  public static JsonlCorpus load(Path file) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<SourceDocument> documents = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      int lineNumber = 0;
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lineNumber++;
        if (!line.isBlank()) {
          documents.add(parse(json, line, file, lineNumber));
        }
      }
    }
    if (documents.isEmpty()) {
      throw new IllegalArgumentException(file + " holds no documents");
    }
    return new JsonlCorpus(file.getFileName().toString(), documents);
  }

  private static SourceDocument parse(ObjectMapper json, String line, Path file, int lineNumber) {
    JsonNode node;
    try {
      node = json.readTree(line);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          file + " line " + lineNumber + " is not JSON: " + e.getMessage(), e);
    }
    JsonNode id = node.hasNonNull("id") ? node.get("id") : node.get("_id");
    JsonNode text = node.get("text");
    if (id == null || id.isNull() || text == null || !text.isTextual()) {
      throw new IllegalArgumentException(
          file + " line " + lineNumber + " needs an id (or _id) and a text");
    }
    JsonNode title = node.get("title");
    String titleText =
        title == null || !title.isTextual() || title.asText().isBlank() ? null : title.asText();
    return new SourceDocument(id.asText(), titleText, text.asText());
  }

  /** The number of distinct documents in the file. */
  public int size() {
    return documents.size();
  }

  @Override
  public SourceDocument document(long ordinal) {
    if (ordinal < 0) {
      throw new IllegalArgumentException("ordinal must be 0 or more; got " + ordinal);
    }
    SourceDocument document = documents.get((int) (ordinal % documents.size()));
    long round = ordinal / documents.size();
    return round == 0 ? document : document.withId(document.id() + "#" + (round + 1));
  }

  @Override
  public String describe() {
    return "jsonl-" + name.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + documents.size();
  }
}
