package dev.quarry.api.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StrictJsonTest {
  final StrictJson json = new StrictJson();

  QuarryException refused(String body) {
    return assertThrows(
        QuarryException.class, () -> json.parseObject(body.getBytes(StandardCharsets.UTF_8)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        " ",
        "{",
        "{} {}",
        "{} x",
        "[]",
        "1",
        "null",
        "\"s\"",
        "{'a': 1}",
        "{\"a\": 1,}",
        "{\"a\": NaN}",
        "{\"a\": 01}",
        "{\"a\": 1, \"a\": 2}",
        "/* c */ {}"
      })
  void notASingleStrictObject_isInvalidNamingTheBody(String body) {
    QuarryException e = refused(body);
    assertEquals(ErrorCode.INVALID_REQUEST, e.code());
    assertEquals(StrictJson.BODY_FIELD, e.field());
  }

  @Test
  void deepNesting_isRefusedByTheParser() {
    String deep =
        "{\"a\":"
            + "[".repeat(StrictJson.MAX_NESTING_DEPTH + 5)
            + "]".repeat(StrictJson.MAX_NESTING_DEPTH + 5)
            + "}";
    assertEquals(StrictJson.BODY_FIELD, refused(deep).field());
    assertEquals("the request body nests deeper than 32 levels", refused(deep).getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"{} {}", "{} x", "{}]", "{} 1", "{\"a\": 1} /* c */"})
  void dataAfterTheObject_isNamedAsSuch(String body) {
    assertTrue(
        refused(body)
            .getMessage()
            .startsWith("the request body has data after its JSON value at line 1, "),
        () -> refused(body).getMessage());
  }

  @Test
  void parseErrors_areInWordsForClients_withWhereTheyAre() {
    assertEquals(
        "the request body repeats a key at line 2, column 5; send each key once",
        refused("{\"a\": 1,\n \"a\": 2}").getMessage());
    assertEquals(
        "the request body ends before its JSON value is complete",
        refused("{\"a\": [1").getMessage());
    assertEquals(
        "the request body is not valid JSON at line 1, column 2", refused("{'a': 1}").getMessage());
    assertEquals(
        "the request body holds a number longer than 1000 digits",
        refused("{\"a\": " + "9".repeat(1001) + "}").getMessage());
  }

  static byte[] withRaw(String before, byte[] raw, String after) {
    byte[] a = before.getBytes(StandardCharsets.UTF_8);
    byte[] c = after.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[a.length + raw.length + c.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(raw, 0, out, a.length, raw.length);
    System.arraycopy(c, 0, out, a.length + raw.length, c.length);
    return out;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "C0AF",
        "E080AF",
        "C0AEC0AE",
        "F08080AF",
        "EDA080",
        "EDBFBF",
        "F4908080",
        "F5808080",
        "FF",
        "80",
        "E2",
        "C2"
      })
  void nonStrictUtf8_inAString_isInvalidNamingTheBody(String hex) {
    byte[] raw = java.util.HexFormat.of().parseHex(hex);
    QuarryException e =
        assertThrows(
            QuarryException.class,
            () -> json.parseObject(withRaw("{\"source\": \"u", raw, "x\"}")));
    assertEquals(ErrorCode.INVALID_REQUEST, e.code());
    assertEquals(StrictJson.BODY_FIELD, e.field());
  }

  @Test
  void utf16Body_isInvalid() {
    String body = "{\"corpus\": \"a\"}";
    for (java.nio.charset.Charset cs :
        java.util.List.of(
            StandardCharsets.UTF_16, StandardCharsets.UTF_16LE, StandardCharsets.UTF_16BE)) {
      QuarryException e =
          assertThrows(QuarryException.class, () -> json.parseObject(body.getBytes(cs)), cs::name);
      assertEquals(StrictJson.BODY_FIELD, e.field());
    }
  }

  @Test
  void loneEscapedSurrogate_isInvalidNamingItsField() {
    assertEquals("title", refused("{\"title\": \"a\\ud800b\"}").field());
    assertEquals(
        "operations[1].index.text",
        refused("{\"operations\": [{}, {\"index\": {\"text\": \"x\\udc00\"}}]}").field());
    assertEquals("metadata.\uFFFD", refused("{\"metadata\": {\"\\ud83d\": 1}}").field());
  }

  @Test
  void pairedSurrogates_multibyteText_andALeadingBom_areAccepted() {
    assertEquals(
        "\uD83D\uDE00",
        json.parseObject("{\"a\": \"\\ud83d\\ude00\"}".getBytes(StandardCharsets.UTF_8))
            .get("a")
            .textValue());
    assertEquals(
        "Grüße 😀 日本",
        json.parseObject("{\"a\": \"Grüße 😀 日本\"}".getBytes(StandardCharsets.UTF_8))
            .get("a")
            .textValue());
    assertEquals(
        1,
        json.parseObject(
                withRaw("", new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, "{\"a\": 1}"))
            .get("a")
            .intValue());
  }

  @Test
  void invalidUtf8_isInvalid() {
    byte[] body = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
    assertThrows(QuarryException.class, () -> json.parseObject(body));
  }

  WireObject read(String body) {
    return WireObject.root(json.parseObject(body.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void stringForANumber_isNotCoerced() {
    assertEquals(
        "topK",
        assertThrows(
                QuarryException.class, () -> read("{\"topK\": \"10\"}").optionalInt("topK", 1, 100))
            .field());
  }

  @Test
  void fractionForAnInteger_isRefused() {
    assertThrows(QuarryException.class, () -> read("{\"topK\": 2.5}").optionalInt("topK", 1, 100));
    assertThrows(QuarryException.class, () -> read("{\"topK\": 1e1}").optionalInt("topK", 1, 100));
  }

  @Test
  void integerBeyondLong_isOutOfRange() {
    assertThrows(
        QuarryException.class,
        () ->
            read("{\"after\": 99999999999999999999999}").optionalLong("after", 0, Long.MAX_VALUE));
  }

  @Test
  void nullValue_isRefusedNamingTheField() {
    QuarryException e =
        assertThrows(
            QuarryException.class, () -> read("{\"query\": null}").allowOnly(Set.of("query")));
    assertEquals("query", e.field());
  }

  @Test
  void unknownField_isNamed() {
    QuarryException e =
        assertThrows(
            QuarryException.class, () -> read("{\"qeury\": \"x\"}").allowOnly(Set.of("query")));
    assertEquals("qeury", e.field());
  }
}
