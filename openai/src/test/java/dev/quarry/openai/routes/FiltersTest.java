package dev.quarry.openai.routes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.engine.Filter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** OpenAI's attribute filters as Quarry's, and the parameter each refusal names. */
class FiltersTest {
  static final ObjectMapper MAPPER = new ObjectMapper();

  static Filter read(String json) throws Exception {
    return Filters.read(MAPPER.readTree(json), "filters");
  }

  static String refusedParam(String json) {
    return assertThrows(OpenAiException.class, () -> read(json)).param;
  }

  @Test
  void comparisons_mapOntoQuarrysFilters() throws Exception {
    assertEquals(
        new Filter.Equals("kind", "pdf"),
        read("{\"key\": \"kind\", \"type\": \"eq\", \"value\": \"pdf\"}"));
    assertEquals(
        new Filter.Equals("year", 2024L),
        read("{\"key\": \"year\", \"type\": \"eq\", \"value\": 2024}"));
    assertEquals(
        new Filter.Equals("year", 2024L),
        read("{\"key\": \"year\", \"type\": \"eq\", \"value\": 2024.0}"));
    assertEquals(
        new Filter.Not(new Filter.Equals("draft", true)),
        read("{\"key\": \"draft\", \"type\": \"ne\", \"value\": true}"));
    assertEquals(
        new Filter.Range("year", null, 2020.0, null, null),
        read("{\"key\": \"year\", \"type\": \"gte\", \"value\": 2020}"));
    assertEquals(
        new Filter.Range("score", null, null, 0.5, null),
        read("{\"key\": \"score\", \"type\": \"lt\", \"value\": 0.5}"));
    assertEquals(
        new Filter.In("kind", List.of("pdf", 3L)),
        read("{\"key\": \"kind\", \"type\": \"in\", \"value\": [\"pdf\", 3]}"));
    assertEquals(
        new Filter.Not(new Filter.In("kind", List.of("pdf"))),
        read("{\"key\": \"kind\", \"type\": \"nin\", \"value\": [\"pdf\"]}"));
  }

  @Test
  void compounds_nest() throws Exception {
    assertEquals(
        new Filter.AnyOf(
            List.of(
                new Filter.Equals("a", "x"),
                new Filter.AllOf(
                    List.of(
                        new Filter.Equals("b", 1L),
                        new Filter.Range("c", 2.0, null, null, null))))),
        read(
            """
            {"type": "or", "filters": [{"key": "a", "type": "eq", "value": "x"},
              {"type": "and", "filters": [{"key": "b", "type": "eq", "value": 1}, {"key": "c", "type": "gt", "value": 2}]}]}
            """));
  }

  @Test
  void refusals_nameTheParameterPath() {
    assertEquals(
        "filters.colour",
        refusedParam("{\"key\": \"a\", \"type\": \"eq\", \"value\": 1, \"colour\": 1}"));
    assertEquals(
        "filters.value", refusedParam("{\"key\": \"a\", \"type\": \"gt\", \"value\": \"soon\"}"));
    assertEquals(
        "filters.value", refusedParam("{\"key\": \"a\", \"type\": \"in\", \"value\": \"x\"}"));
    assertEquals(
        "filters.value[1]",
        refusedParam("{\"key\": \"a\", \"type\": \"in\", \"value\": [\"x\", true]}"));
    assertEquals(
        "filters.type", refusedParam("{\"key\": \"a\", \"type\": \"like\", \"value\": \"x\"}"));
    assertEquals("filters.value", refusedParam("{\"key\": \"a\", \"type\": \"eq\"}"));
    assertEquals("filters.filters", refusedParam("{\"type\": \"and\", \"filters\": []}"));
    assertEquals(
        "filters.filters[1].key",
        refusedParam(
            "{\"type\": \"and\", \"filters\": [{\"key\": \"a\", \"type\": \"eq\", \"value\": 1}, {\"type\": \"eq\", \"value\": 1}]}"));
  }
}
