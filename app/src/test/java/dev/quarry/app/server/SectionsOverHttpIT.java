package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerPerClass;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every hit and every chunk read back carries its section (the headings above it), and {@code
 * "$section": {"prefix": [...]}} narrows a search to the passages under some headings; every answer
 * is checked against openapi.yaml.
 */
class SectionsOverHttpIT {
  static final String T = TestTokens.ADMIN;

  @RegisterExtension
  static final ServerPerClass server = ServerPerClass.withTestTokens().corpus("s");

  static ApiClient api;

  @BeforeAll
  static void start() {
    api = server.client();
    ok(
        api.retrieval(
            "sources/batch",
            T,
            """
        {"corpus": "s", "operations": [
          {"index": {"source": "guide.md", "mediaType": "text/markdown",
            "text": "# Handbook\\n\\nThe harbour office handbook.\\n\\n## Leave\\n\\nLeave at the harbour lasts weeks.\\n\\n### Requests\\n\\nHarbour leave requests go to the master.\\n\\n## Pay\\n\\nHarbour pay is monthly."}},
          {"index": {"source": "plain.txt", "text": "A harbour without headings."}}]}"""));
  }

  static Answer search(String rest) {
    return api.retrieval(
        "search", T, "{\"corpus\": \"s\", \"query\": \"harbour\", \"topK\": 20" + rest + "}");
  }

  static List<List<String>> sections(JsonNode answer) {
    List<List<String>> out = new ArrayList<>();
    answer
        .get("results")
        .forEach(
            h -> {
              List<String> section = new ArrayList<>();
              h.get("section").forEach(s -> section.add(s.asText()));
              out.add(section);
            });
    return out.stream()
        .sorted((a, b) -> String.join("/", a).compareTo(String.join("/", b)))
        .toList();
  }

  @Test
  void everyHit_carriesItsSection_emptyWithoutHeadings() {
    assertEquals(
        List.of(
            List.of(),
            List.of("Handbook"),
            List.of("Handbook", "Leave"),
            List.of("Handbook", "Leave", "Requests"),
            List.of("Handbook", "Pay")),
        sections(ok(search(""))));
  }

  @Test
  void sectionPrefix_narrowsToThePassagesUnderThoseHeadings() {
    assertEquals(
        List.of(List.of("Handbook", "Leave"), List.of("Handbook", "Leave", "Requests")),
        sections(
            ok(search(", \"filter\": {\"$section\": {\"prefix\": [\"Handbook\", \"Leave\"]}}"))));
    assertEquals(
        List.of(List.of()),
        sections(
            ok(search(", \"filter\": {\"not\": {\"$section\": {\"prefix\": [\"Handbook\"]}}}"))));
  }

  @Test
  void badSectionFilters_nameTheirPlace() {
    for (String[] bad :
        new String[][] {
          {"{\"$section\": [\"Handbook\"]}", "filter.$section"},
          {"{\"$section\": {\"prefix\": []}}", "filter.$section.prefix"},
          {"{\"$section\": {\"prefix\": [\"\"]}}", "filter.$section.prefix[0]"},
          {"{\"$section\": {\"prefix\": \"Handbook\"}}", "filter.$section.prefix"},
          {"{\"$section\": {\"in\": [\"Handbook\"]}}", "filter.$section.in"}
        }) {
      Answer a = search(", \"filter\": " + bad[0]);
      assertEquals(400, a.status(), a::toString);
      assertEquals("INVALID_REQUEST", a.code(), a::toString);
      assertEquals(bad[1], a.field(), bad[0]);
    }
  }

  @Test
  void chunksReadBack_carryTheirSection() {
    JsonNode chunks =
        ok(api.retrieval("sources/chunks", T, "{\"corpus\": \"s\", \"source\": \"guide.md\"}"));
    List<String> first = new ArrayList<>();
    chunks.get("chunks").get(0).get("section").forEach(s -> first.add(s.asText()));
    assertEquals(List.of("Handbook"), first);
  }
}
