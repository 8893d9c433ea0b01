package dev.quarry.api.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.QuarryException;
import java.io.IOException;

/**
 * Parses request bodies as the contract demands: one JSON object, strict UTF-8 ({@link StrictUtf8}:
 * no overlong forms, surrogates or other encodings, and no lone surrogate spelled as an escape),
 * nothing after it, no duplicate keys, no comments or other JSON extensions. Anything else is {@code INVALID_REQUEST}
 * with the field {@link #BODY_FIELD}.
 *
 * <p>Thread-safe; share one.
 */
public final class StrictJson {
  /** The {@code field} of an error about the body as a whole (malformed JSON, not an object). */
  public static final String BODY_FIELD = "$";
  /** Deeper than any request shape needs; bounds the parser's recursion on hostile input. */
  public static final int MAX_NESTING_DEPTH = 32;

  private final ObjectMapper mapper;

  public StrictJson() {
    this.mapper = JsonMapper.builder()
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
        .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .disable(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS)
        .build();
    mapper.getFactory().setStreamReadConstraints(
        StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build());
  }

  /** The body as a JSON object, or INVALID_REQUEST naming what is wrong with it. */
  public ObjectNode parseObject(byte[] body) {
    if (body.length == 0) {
      throw QuarryException.invalid(BODY_FIELD, "the request body is empty; send a JSON object");
    }
    // Decoded strictly here, so Jackson never guesses an encoding nor decodes leniently.
    String text = StrictUtf8.decode(body, BODY_FIELD);
    JsonNode node;
    try {
      node = mapper.readTree(text);
    } catch (JsonProcessingException e) {
      throw QuarryException.invalid(BODY_FIELD, "the request body is not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw QuarryException.invalid(BODY_FIELD, "the request body could not be read as JSON");
    }
    if (node == null || node.isMissingNode()) {
      throw QuarryException.invalid(BODY_FIELD, "the request body is empty; send a JSON object");
    }
    if (!(node instanceof ObjectNode object)) {
      throw QuarryException.invalid(BODY_FIELD,
          "the request body must be a JSON object; got " + WireObject.describe(node));
    }
    StrictUtf8.checkText(object, "");
    return object;
  }

  /** The mapper used to read; also fine for writing responses. */
  public ObjectMapper mapper() {
    return mapper;
  }
}
