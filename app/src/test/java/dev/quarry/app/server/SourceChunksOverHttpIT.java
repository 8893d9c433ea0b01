package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerPerClass;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code sources/chunks} over HTTP: a source's text as it was split, page by page, at the latest
 * and at pinned revisions, across re-indexing, deletion and purge. Grants and field errors are in
 * {@link AuthorizationMatrixIT} and {@link ContractTableIT}.
 */
class SourceChunksOverHttpIT {
  static final String T = TestTokens.ADMIN;

  /** About ten 16-word chunks, each word numbered so a chunk's place in the text shows. */
  static final String TEXT =
      IntStream.range(0, 160)
          .mapToObj(i -> "word" + i + (i % 12 == 11 ? "." : ""))
          .collect(Collectors.joining(" "));

  @RegisterExtension
  static final ServerPerClass server =
      ServerPerClass.withTestTokens()
          .corpus("t", "{\"chunking\": {\"maxWords\": 16, \"overlapWords\": 0}}");

  static ApiClient api;

  @BeforeAll
  static void start() {
    api = server.client();
  }

  static long index(String source, String text) {
    return ok(api.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"t\", \"source\": \""
                + source
                + "\", \"title\": \"T\","
                + " \"mediaType\": \"text/plain\", \"text\": \""
                + text
                + "\", \"metadata\": {\"kind\": \"test\"}}"))
        .get("revision")
        .asLong();
  }

  static JsonNode chunks(String source, String extra) {
    return ok(
        api.retrieval(
            "sources/chunks",
            T,
            "{\"corpus\": \"t\", \"source\": \"" + source + "\"" + extra + "}"));
  }

  /**
   * Every chunk, following nextAfter with pages of {@code limit}; each page must move past the
   * last.
   */
  static List<JsonNode> allChunks(String source, String extra, int limit) {
    List<JsonNode> out = new ArrayList<>();
    String after = "";
    int previous = -1;
    while (true) {
      JsonNode page = chunks(source, extra + ", \"limit\": " + limit + after);
      assertTrue(page.get("chunks").size() <= limit, page::toString);
      page.get("chunks").forEach(out::add);
      if (!page.has("nextAfter")) {
        return out;
      }
      int next = page.get("nextAfter").asInt();
      assertTrue(
          next > previous && !page.get("chunks").isEmpty(),
          () -> "a page that does not move on: " + page);
      previous = next;
      after = ", \"after\": " + next;
    }
  }

  @Test
  void pages_coverEveryChunkInOrder_andTheChunksAreTheSourcesText() {
    long revision = index("paged.md", TEXT);
    JsonNode first = chunks("paged.md", ", \"limit\": 3");
    assertEquals(revision, first.get("revision").asLong());
    assertEquals(revision, first.get("sourceRevision").asLong());
    assertEquals("T", first.get("title").asText());
    assertEquals("text/plain", first.get("mediaType").asText());
    assertEquals(2, first.get("nextAfter").asInt(), first::toString);
    List<JsonNode> all = allChunks("paged.md", "", 3);
    long expected =
        ok(api.retrieval("sources/read", T, "{\"corpus\": \"t\", \"source\": \"paged.md\"}"))
            .get("chunks")
            .asLong();
    assertTrue(expected > 3, "the text spans several pages of chunks");
    assertEquals(expected, all.size());
    int previousEnd = 0;
    for (int i = 0; i < all.size(); i++) {
      JsonNode c = all.get(i);
      assertEquals(i, c.get("chunk").asInt(), c::toString);
      int start = c.at("/offsets/start").asInt();
      int end = c.at("/offsets/end").asInt();
      assertTrue(start >= previousEnd - 1 && end > start, c::toString);
      assertEquals(
          TEXT.substring(start, end),
          c.get("text").asText(),
          "a chunk is its span of the source's text");
      assertEquals("test", c.at("/metadata/kind").asText(), c::toString);
      previousEnd = end;
    }
    assertTrue(all.get(all.size() - 1).get("text").asText().contains("word159"));
    assertEquals(
        List.of(),
        toList(chunks("paged.md", ", \"after\": " + (expected - 1)).get("chunks")),
        "after the last chunk, an empty page");
  }

  @Test
  void aPinnedRevision_showsTheTextAsItWasThen_untilItIsPurged() {
    long v1 = index("pinned.md", "the first version of this source speaks of apples");
    long v2 = index("pinned.md", "the second version speaks of pears");
    assertTrue(chunks("pinned.md", "").at("/chunks/0/text").asText().contains("pears"));
    JsonNode then = chunks("pinned.md", ", \"revision\": " + v1);
    assertEquals(v1, then.get("revision").asLong());
    assertEquals(v1, then.get("sourceRevision").asLong());
    assertTrue(then.at("/chunks/0/text").asText().contains("apples"), then::toString);
    assertFalse(then.has("nextAfter"));

    ok(api.retrieval("sources/delete", T, "{\"corpus\": \"t\", \"source\": \"pinned.md\"}"));
    Answer gone =
        api.retrieval("sources/chunks", T, "{\"corpus\": \"t\", \"source\": \"pinned.md\"}");
    assertEquals(404, gone.status(), gone::toString);
    assertEquals("SOURCE_NOT_FOUND", gone.code());
    assertTrue(
        chunks("pinned.md", ", \"revision\": " + v2)
            .at("/chunks/0/text")
            .asText()
            .contains("pears"),
        "a plain delete keeps past versions for pinned reads");

    ok(
        api.retrieval(
            "sources/delete",
            T,
            "{\"corpus\": \"t\", \"source\": \"pinned.md\", \"purge\": true}"));
    Answer purged =
        api.retrieval(
            "sources/chunks",
            T,
            "{\"corpus\": \"t\", \"source\": \"pinned.md\", \"revision\": " + v1 + "}");
    assertEquals(404, purged.status(), purged::toString);
    assertEquals("SOURCE_NOT_FOUND", purged.code());
  }

  @Test
  void aSourceBeforeItExisted_isNotFound_andAnotherCorpusIdIsAConflict() {
    long before =
        ok(api.retrieval("corpora/read", T, "{\"corpus\": \"t\"}")).get("revision").asLong();
    index("later.md", "indexed after the revision asked for");
    Answer a =
        api.retrieval(
            "sources/chunks",
            T,
            "{\"corpus\": \"t\", \"source\": \"later.md\", \"revision\": " + before + "}");
    assertEquals(404, a.status(), a::toString);
    assertEquals("SOURCE_NOT_FOUND", a.code());
    Answer replaced =
        api.retrieval(
            "sources/chunks",
            T,
            "{\"corpus\": \"t\", \"source\": \"later.md\", \"corpusId\": \"other\"}");
    assertEquals(409, replaced.status(), replaced::toString);
    assertEquals("CORPUS_REPLACED", replaced.code());
    Answer above =
        api.retrieval(
            "sources/chunks",
            T,
            "{\"corpus\": \"t\", \"source\": \"later.md\", \"revision\": 999999}");
    assertEquals(400, above.status(), above::toString);
    assertEquals("revision", above.field(), above::toString);
    Answer noCorpus =
        api.retrieval("sources/chunks", T, "{\"corpus\": \"absent\", \"source\": \"later.md\"}");
    assertEquals(404, noCorpus.status(), noCorpus::toString);
    assertEquals("CORPUS_NOT_FOUND", noCorpus.code());
  }

  static List<JsonNode> toList(JsonNode array) {
    List<JsonNode> out = new ArrayList<>();
    array.forEach(out::add);
    return out;
  }
}
