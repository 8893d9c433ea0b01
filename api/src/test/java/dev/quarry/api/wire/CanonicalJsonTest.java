package dev.quarry.api.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CanonicalJsonTest {
  final StrictJson json = new StrictJson();

  String fingerprint(String endpoint, String body) {
    return CanonicalJson.fingerprint(
        json.mapper(), endpoint, json.parseObject(body.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void keyOrderAndSpacing_doNotChangeTheFingerprint() {
    assertEquals(
        fingerprint("sources/index", "{\"a\": 1, \"b\": {\"y\": [1, 2], \"x\": \"s\"}}"),
        fingerprint("sources/index", "{\"b\":{\"x\":\"s\",\"y\":[1,2]},\"a\":1}"));
  }

  @Test
  void canonicalForm_sortsKeysRecursivelyWithoutSpaces() {
    assertEquals(
        "{\"a\":[{\"c\":1,\"d\":2}],\"b\":true}",
        CanonicalJson.canonical(
            json.mapper(),
            json.parseObject(
                "{ \"b\" : true, \"a\": [ {\"d\": 2, \"c\": 1} ] }"
                    .getBytes(StandardCharsets.UTF_8))));
  }

  @Test
  void arrayOrder_changesTheFingerprint() {
    assertNotEquals(
        fingerprint("sources/batch", "{\"a\": [1, 2]}"),
        fingerprint("sources/batch", "{\"a\": [2, 1]}"));
  }

  @Test
  void endpoint_isPartOfTheFingerprint() {
    assertNotEquals(
        fingerprint("sources/index", "{\"a\": 1}"), fingerprint("sources/delete", "{\"a\": 1}"));
  }
}
