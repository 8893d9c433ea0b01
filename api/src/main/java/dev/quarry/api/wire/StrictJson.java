package dev.quarry.api.wire;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.QuarryException;
import java.io.IOException;

/**
 * Parses request bodies as the contract demands: one JSON object, strict UTF-8 ({@link StrictUtf8}:
 * no overlong forms, surrogates or other encodings, and no lone surrogate spelled as an escape),
 * nothing after it, no duplicate keys, no comments or other JSON extensions. Anything else is
 * {@code INVALID_REQUEST} with the field {@link #BODY_FIELD}.
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
    this.mapper =
        JsonMapper.builder()
            // Trailing data is found by parseObject itself, so its answer is in our words.
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .disable(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS)
            .build();
    mapper
        .getFactory()
        .setStreamReadConstraints(
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
    try (JsonParser parser = mapper.createParser(text)) {
      node = mapper.readTree(parser);
      if (node != null && !atEnd(parser)) {
        throw trailingData(parser.currentLocation());
      }
    } catch (StreamConstraintsException e) {
      throw QuarryException.invalid(BODY_FIELD, boundPassed(e));
    } catch (JsonProcessingException e) {
      // Jackson's text names its own classes and settings: the client reads where, in our words.
      String jackson = String.valueOf(e.getOriginalMessage());
      throw QuarryException.invalid(
          BODY_FIELD,
          jackson.startsWith("Duplicate field")
              ? "the request body repeats a key" + at(e.getLocation()) + "; send each key once"
              : e instanceof JsonEOFException
                  ? "the request body ends before its JSON value is complete"
                  : "the request body is not valid JSON" + at(e.getLocation()));
    } catch (IOException e) {
      throw QuarryException.invalid(BODY_FIELD, "the request body could not be read as JSON");
    }
    if (node == null || node.isMissingNode()) {
      throw QuarryException.invalid(BODY_FIELD, "the request body is empty; send a JSON object");
    }
    if (!(node instanceof ObjectNode object)) {
      throw QuarryException.invalid(
          BODY_FIELD, "the request body must be a JSON object; got " + WireObject.describe(node));
    }
    StrictUtf8.checkText(object, "");
    return object;
  }

  /**
   * Whether nothing but white space follows the value read; anything else (a token or not) is
   * trailing data.
   */
  private static boolean atEnd(JsonParser parser) throws IOException {
    try {
      return parser.nextToken() == null;
    } catch (JsonProcessingException notAToken) {
      return false;
    }
  }

  private static QuarryException trailingData(JsonLocation where) {
    return QuarryException.invalid(
        BODY_FIELD,
        "the request body has data after its JSON value" + at(where) + "; send one JSON object");
  }

  /** Which of the parser's bounds a body passed, in the client's words. */
  private static String boundPassed(StreamConstraintsException e) {
    String jackson = String.valueOf(e.getOriginalMessage());
    if (jackson.contains("nesting depth")) {
      return "the request body nests deeper than " + MAX_NESTING_DEPTH + " levels";
    }
    if (jackson.contains("Number value length")) {
      return "the request body holds a number longer than "
          + StreamReadConstraints.DEFAULT_MAX_NUM_LEN
          + " digits";
    }
    return "the request body holds a string or key longer than the parser accepts";
  }

  /** " at line L, column C", or nothing when the parser did not say where. */
  private static String at(JsonLocation where) {
    return where == null || where.getLineNr() < 1
        ? ""
        : " at line " + where.getLineNr() + ", column " + where.getColumnNr();
  }

  /** The mapper used to read; also fine for writing responses. */
  public ObjectMapper mapper() {
    return mapper;
  }
}
