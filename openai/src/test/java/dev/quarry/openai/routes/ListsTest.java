package dev.quarry.openai.routes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.testing.TestSeed;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** OpenAI's cursor pages, followed as the SDKs follow them, forwards and backwards. */
class ListsTest {
  static final ObjectMapper MAPPER = new ObjectMapper();

  static ObjectNode page(List<String> ids, Map<String, String> query) {
    return Lists.page(
        ids,
        id -> id,
        id -> MAPPER.createObjectNode().put("id", id),
        Lists.Cursor.of(query),
        MAPPER);
  }

  static List<String> ids(JsonNode page) {
    List<String> out = new ArrayList<>();
    page.get("data").forEach(n -> out.add(n.get("id").asText()));
    return out;
  }

  @Test
  @ExtendWith(TestSeed.class)
  void followingAfter_visitsEveryItemOnceInOrder_andBeforeWalksBack(Random random) {
    for (int round = 0; round < 200; round++) {
      List<String> ascending = new ArrayList<>();
      int n = random.nextInt(30);
      for (int i = 0; i < n; i++) {
        ascending.add(String.format("id%03d", i));
      }
      int limit = 1 + random.nextInt(7);
      boolean desc = random.nextBoolean();
      List<String> expected = new ArrayList<>(ascending);
      if (desc) {
        Collections.reverse(expected);
      }
      Map<String, String> query =
          new HashMap<>(Map.of("limit", Integer.toString(limit), "order", desc ? "desc" : "asc"));
      List<String> seen = new ArrayList<>();
      List<List<String>> pages = new ArrayList<>();
      while (true) {
        JsonNode page = page(ascending, query);
        List<String> got = ids(page);
        assertEquals(Math.min(limit, expected.size() - seen.size()), got.size());
        if (!got.isEmpty()) {
          assertEquals(got.get(0), page.get("first_id").asText());
          assertEquals(got.get(got.size() - 1), page.get("last_id").asText());
        }
        seen.addAll(got);
        pages.add(got);
        if (!page.get("has_more").asBoolean()) {
          break;
        }
        query.put("after", page.get("last_id").asText());
      }
      assertEquals(expected, seen);
      // Backwards from the last page's first item: the pages before it, as they were.
      for (int p = pages.size() - 1; p > 0; p--) {
        if (pages.get(p).isEmpty()) {
          continue;
        }
        Map<String, String> back =
            new HashMap<>(
                Map.of(
                    "limit",
                    Integer.toString(limit),
                    "order",
                    desc ? "desc" : "asc",
                    "before",
                    pages.get(p).get(0)));
        assertEquals(pages.get(p - 1), ids(page(ascending, back)));
      }
    }
  }

  @Test
  void cursor_naming_nothing_isRefused_withItsParam() {
    OpenAiException e =
        assertThrows(OpenAiException.class, () -> page(List.of("a"), Map.of("after", "zz")));
    assertEquals("after", e.param);
    assertEquals(
        "limit",
        assertThrows(OpenAiException.class, () -> page(List.of(), Map.of("limit", "101"))).param);
    assertEquals(
        "order",
        assertThrows(OpenAiException.class, () -> page(List.of(), Map.of("order", "up"))).param);
    assertFalse(page(List.of(), Map.of()).get("has_more").asBoolean());
  }
}
