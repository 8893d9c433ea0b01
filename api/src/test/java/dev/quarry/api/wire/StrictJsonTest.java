package dev.quarry.api.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class StrictJsonTest {
  final StrictJson json = new StrictJson();

  QuarryException refused(String body) {
    return assertThrows(QuarryException.class, () -> json.parseObject(body.getBytes(StandardCharsets.UTF_8)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "{", "{} {}", "{} x", "[]", "1", "null", "\"s\"", "{'a': 1}", "{\"a\": 1,}",
      "{\"a\": NaN}", "{\"a\": 01}", "{\"a\": 1, \"a\": 2}", "/* c */ {}"})
  void notASingleStrictObject_isInvalidNamingTheBody(String body) {
    QuarryException e = refused(body);
    assertEquals(ErrorCode.INVALID_REQUEST, e.code());
    assertEquals(StrictJson.BODY_FIELD, e.field());
  }

  @Test
  void deepNesting_isRefusedByTheParser() {
    String deep = "{\"a\":" + "[".repeat(StrictJson.MAX_NESTING_DEPTH + 5) + "]".repeat(StrictJson.MAX_NESTING_DEPTH + 5) + "}";
    assertEquals(StrictJson.BODY_FIELD, refused(deep).field());
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
    assertEquals("topK", assertThrows(QuarryException.class, () -> read("{\"topK\": \"10\"}").optionalInt("topK", 1, 100)).field());
  }

  @Test
  void fractionForAnInteger_isRefused() {
    assertThrows(QuarryException.class, () -> read("{\"topK\": 2.5}").optionalInt("topK", 1, 100));
    assertThrows(QuarryException.class, () -> read("{\"topK\": 1e1}").optionalInt("topK", 1, 100));
  }

  @Test
  void integerBeyondLong_isOutOfRange() {
    assertThrows(QuarryException.class, () -> read("{\"after\": 99999999999999999999999}").optionalLong("after", 0, Long.MAX_VALUE));
  }

  @Test
  void nullValue_isRefusedNamingTheField() {
    QuarryException e = assertThrows(QuarryException.class, () -> read("{\"query\": null}").allowOnly(Set.of("query")));
    assertEquals("query", e.field());
  }

  @Test
  void unknownField_isNamed() {
    QuarryException e = assertThrows(QuarryException.class, () -> read("{\"qeury\": \"x\"}").allowOnly(Set.of("query")));
    assertEquals("qeury", e.field());
  }
}
