package dev.quarry.app.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a question-answering file in SQuAD v1.1's JSON layout (as XQuAD publishes one per language)
 * as a retrieval collection: each paragraph is a document, each question a query, and a question's
 * one relevant document (grade 1) is the paragraph it was asked about.
 *
 * <p>A paragraph's id is {@code ARTICLE-PARAGRAPH} (zero-based positions in the file), so the same
 * paragraph has the same id in every translation of a parallel set. Documents have no title: XQuAD
 * keeps the English Wikipedia page name as the title of every translation, which would match
 * English words in the queries of another language. The collection is named after the file, without
 * {@code .json}.
 */
public final class SquadReader {
  private final ObjectMapper json = new ObjectMapper();

  /**
   * Reads the collection in {@code file}.
   *
   * @throws IllegalArgumentException naming the file and the JSON path of what is missing or
   *     malformed
   */
  public BeirCollection read(Path file) throws IOException {
    JsonNode root;
    try (InputStream in = Files.newInputStream(file)) {
      root = json.readTree(in);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(file + ": not JSON: " + e.getOriginalMessage());
    }
    JsonNode articles = root == null ? null : root.get("data");
    if (articles == null || !articles.isArray()) {
      throw new IllegalArgumentException(file + ": missing \"data\" (an array of articles)");
    }
    List<BeirDocument> documents = new ArrayList<>();
    List<BeirQuery> queries = new ArrayList<>();
    Map<String, Map<String, Integer>> judgments = new LinkedHashMap<>();
    for (int a = 0; a < articles.size(); a++) {
      JsonNode paragraphs = articles.get(a).get("paragraphs");
      if (paragraphs == null || !paragraphs.isArray()) {
        throw new IllegalArgumentException(
            file + ": missing data[" + a + "].paragraphs (an array)");
      }
      for (int p = 0; p < paragraphs.size(); p++) {
        String where = "data[" + a + "].paragraphs[" + p + "]";
        JsonNode paragraph = paragraphs.get(p);
        String docId = a + "-" + p;
        documents.add(new BeirDocument(docId, "", text(file, paragraph, "context", where)));
        JsonNode questions = paragraph.get("qas");
        if (questions == null || !questions.isArray()) {
          throw new IllegalArgumentException(file + ": missing " + where + ".qas (an array)");
        }
        for (int q = 0; q < questions.size(); q++) {
          String qWhere = where + ".qas[" + q + "]";
          JsonNode question = questions.get(q);
          String queryId = text(file, question, "id", qWhere);
          if (judgments.containsKey(queryId)) {
            throw new IllegalArgumentException(
                file + ": " + qWhere + ".id '" + queryId + "' is not unique");
          }
          queries.add(new BeirQuery(queryId, text(file, question, "question", qWhere)));
          judgments.put(queryId, Map.of(docId, 1));
        }
      }
    }
    String name = file.getFileName().toString();
    if (name.endsWith(".json")) {
      name = name.substring(0, name.length() - ".json".length());
    }
    return new BeirCollection(name, documents, queries, new Judgments(judgments));
  }

  private static String text(Path file, JsonNode node, String field, String where) {
    JsonNode value = node == null ? null : node.get(field);
    if (value == null || !value.isTextual()) {
      throw new IllegalArgumentException(file + ": missing " + where + "." + field + " (a string)");
    }
    return value.asText();
  }
}
