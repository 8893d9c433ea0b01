package dev.quarry.api.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.engine.QuarryException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

/**
 * Strict UTF-8 at the wire's boundary, as the contract requires of every JSON body and multipart
 * field: overlong forms ({@code C0 AF} for {@code /}), encoded surrogates, code points above
 * U+10FFFF and stray bytes are {@code 400 INVALID_REQUEST}, never decoded "leniently" into text
 * that a check of the raw bytes would not have seen (an overlong {@code ..} is still {@code ..}
 * once stored). Jackson's own byte decoding is lenient about some of these and detects UTF-16 and
 * UTF-32 on its own, so bodies are decoded here, once, and Jackson parses the resulting text.
 *
 * <p>JSON escapes can still spell a lone surrogate ({@code "\ud800"}), which is not Unicode text
 * either; {@link #checkText} refuses it in every string and key of a parsed body.
 *
 * <p>Stateless.
 */
public final class StrictUtf8 {
  private static final char BYTE_ORDER_MARK = '\uFEFF';

  private StrictUtf8() {}

  /**
   * {@code bytes} as text; INVALID_REQUEST naming {@code field} and the offset of the first byte
   * that is not strict UTF-8. A leading byte order mark is dropped (RFC 8259 lets a parser ignore
   * it).
   */
  public static String decode(byte[] bytes, String field) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isUnderflow()) {
      result = decoder.flush(out);
    }
    if (result.isError()) {
      throw QuarryException.invalid(
          field,
          "the "
              + (field.equals(StrictJson.BODY_FIELD) ? "request body" : field)
              + " is not valid UTF-8 at byte "
              + in.position()
              + ": send UTF-8 without overlong forms, surrogates or "
              + "code points above U+10FFFF (other encodings such as UTF-16 are not accepted)");
    }
    // A UTF-8 decoding never has more chars than bytes, so the buffer cannot overflow.
    assert !result.isOverflow()
        : "decoding " + bytes.length + " bytes overflowed " + bytes.length + " chars";
    out.flip();
    if (out.hasRemaining() && out.get(0) == BYTE_ORDER_MARK) {
      out.position(1);
    }
    return out.toString();
  }

  /**
   * INVALID_REQUEST naming the path of the first string or key under {@code node} (at {@code path};
   * empty for the body's root object) that holds an unpaired surrogate, as a JSON escape can.
   */
  public static void checkText(JsonNode node, String path) {
    if (node.isTextual()) {
      checkString(node.textValue(), path);
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        checkText(node.get(i), path + "[" + i + "]");
      }
    } else if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        String child = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
        checkString(field.getKey(), child);
        checkText(field.getValue(), child);
      }
    }
  }

  private static void checkString(String s, String path) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        String field = toWellFormed(path);
        throw QuarryException.invalid(
            field.isEmpty() ? StrictJson.BODY_FIELD : field,
            (field.isEmpty() ? "a string" : field)
                + " holds an unpaired surrogate (\\u"
                + Integer.toHexString(c)
                + " at character "
                + i
                + "); strings must be Unicode text");
      }
    }
  }

  /**
   * {@code s} with each unpaired surrogate replaced, so an error can name a field whose key holds
   * one.
   */
  private static String toWellFormed(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        out.append(c).append(s.charAt(++i));
      } else {
        out.append(Character.isSurrogate(c) ? '\uFFFD' : c);
      }
    }
    return out.toString();
  }
}
