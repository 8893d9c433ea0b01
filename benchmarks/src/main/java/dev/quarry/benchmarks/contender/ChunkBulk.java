package dev.quarry.benchmarks.contender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.engine.chunk.ChunkSpan;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;

/**
 * The chunks of a batch of documents as one OpenSearch {@code _bulk} request, the same chunks every
 * contender indexes ({@link Chunks}): one document per chunk, id {@code SOURCE#N}, with its source,
 * number, offsets, title and text.
 */
public final class ChunkBulk {
  private ChunkBulk() {}

  /**
   * Sends {@code documents}' chunks to {@code path} (a {@code _bulk} path with its parameters); any
   * item's error fails it.
   */
  public static void send(JsonHttp http, String path, List<SourceDocument> documents)
      throws IOException {
    JsonNode answer =
        http.send("POST", path, body(http, documents), "application/x-ndjson").ok("_bulk");
    if (answer.path("errors").asBoolean(true)) {
      throw new IOException(path + " reported errors: " + firstError(answer));
    }
  }

  private static byte[] body(JsonHttp http, List<SourceDocument> documents) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (SourceDocument d : documents) {
      List<ChunkSpan> spans = Chunks.of(d);
      for (int i = 0; i < spans.size(); i++) {
        ChunkSpan span = spans.get(i);
        ObjectNode action = http.mapper.createObjectNode();
        action.putObject("index").put("_id", d.id() + "#" + i);
        ObjectNode chunk =
            http.mapper
                .createObjectNode()
                .put("source", d.id())
                .put("chunk", i)
                .put("start", span.start())
                .put("end", span.end())
                .put("title", d.title())
                .put("text", d.text().substring(span.start(), span.end()));
        http.mapper.writeValue(body, action);
        body.write('\n');
        http.mapper.writeValue(body, chunk);
        body.write('\n');
      }
    }
    return body.toByteArray();
  }

  private static String firstError(JsonNode answer) {
    for (JsonNode item : answer.path("items")) {
      JsonNode error = item.path("index").path("error");
      if (!error.isMissingNode()) {
        return error.toString();
      }
    }
    return answer.toString();
  }
}
