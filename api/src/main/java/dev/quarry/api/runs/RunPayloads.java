package dev.quarry.api.runs;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.wire.ErrorEnvelope;
import dev.quarry.api.wire.SearchResponses;
import dev.quarry.corpora.run.RetrievalResult;
import dev.quarry.engine.QuarryException;
import java.util.Map;

/** The JSON of what runs report: progress context, a result, an error. */
final class RunPayloads {
  private RunPayloads() {}

  /**
   * {@code {"corpus", "corpusId", "revision", "passages": [...]}}, each passage exactly as a search
   * result is written.
   */
  static ObjectNode result(RetrievalResult result) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("corpus", result.corpus());
    out.put("corpusId", result.corpusId());
    out.put("revision", result.revision());
    ArrayNode passages = out.putArray("passages");
    result.passages().forEach(hit -> passages.add(SearchResponses.hit(hit)));
    return out;
  }

  /** {@code {"code", "message", "retryable", ...}}: the inside of the error envelope. */
  static ObjectNode error(QuarryException e) {
    return (ObjectNode) ErrorEnvelope.of(e).get("error");
  }

  /** A phase's context; its values are names and counts. */
  static ObjectNode context(Map<String, Object> context) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    context.forEach(
        (key, value) -> {
          switch (value) {
            case Long l -> out.put(key, l);
            case Integer i -> out.put(key, i);
            case Boolean b -> out.put(key, b);
            default -> out.put(key, String.valueOf(value));
          }
        });
    return out;
  }
}
