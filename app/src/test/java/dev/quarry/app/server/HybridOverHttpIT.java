package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerPerClass;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An embedding corpus over HTTP with the smallest shipped model: creation and read show the model
 * with its SHA-256, searches default to hybrid and explain each hit, and bad requests are typed
 * 400s naming the field.
 */
class HybridOverHttpIT {
  static final String T = TestTokens.ADMIN;

  @RegisterExtension
  static final ServerPerClass server =
      ServerPerClass.withTestTokens()
          .corpus("h", "{\"embedding\": {\"model\": \"all-minilm-l6-v2\"}}")
          .corpus("lex");

  static ApiClient api;

  @BeforeAll
  static void start() {
    api = server.client();
    ok(
        api.retrieval(
            "sources/batch",
            T,
            """
        {"corpus": "h", "operations": [
          {"index": {"source": "cats.md", "title": "Cats", "text": "The kitten curled up and slept on the warm rug."}},
          {"index": {"source": "rates.md", "title": "Markets", "text": "Shares fell after the central bank raised interest rates."}}]}"""));
  }

  @Test
  void readShowsTheModelWithItsSha256() {
    JsonNode embedding =
        ok(api.retrieval("corpora/read", T, "{\"corpus\": \"h\"}"))
            .path("settings")
            .path("embedding");
    assertEquals("all-minilm-l6-v2", embedding.path("model").asText());
    assertTrue(embedding.path("sha256").asText().matches("[0-9a-f]{64}"), embedding::toString);
    assertEquals(0.5, embedding.path("semanticWeight").asDouble());
    assertEquals(
        "codes",
        embedding.path("index").asText(),
        "a shipped model's corpus gets the coded first pass unless it names an index");
    JsonNode pass = embedding.path("firstPass");
    assertEquals("centred", pass.path("code").asText(), pass::toString);
    assertEquals(2, pass.path("bits").asInt());
    assertEquals(1000, pass.path("candidates").asInt());
    assertEquals(96, pass.path("probes").asInt());
    assertTrue(pass.path("centre").asText().matches("[0-9a-f]{64}"), pass::toString);
    assertTrue(pass.path("lists").asText().matches("[0-9a-f]{64}"), pass::toString);
    assertTrue(pass.path("seed").isIntegralNumber(), pass::toString);
    assertEquals(
        CorpusSettings.Embedding.DEFAULT_NORMALIZATION.wireName(),
        embedding.path("normalization").asText());
    assertTrue(
        ok(api.retrieval("corpora/read", T, "{\"corpus\": \"lex\"}"))
            .path("settings")
            .path("embedding")
            .isMissingNode());
    JsonNode approx =
        ok(api.retrieval(
                "corpora/create",
                T,
                "{\"corpus\": \"approx\", \"settings\": {\"embedding\":"
                    + " {\"model\": \"all-minilm-l6-v2\", \"index\": \"hnsw\"}}}"))
            .path("settings")
            .path("embedding");
    assertEquals("hnsw", approx.path("index").asText());
    assertEquals(
        "hnsw",
        ok(api.retrieval("corpora/read", T, "{\"corpus\": \"approx\"}"))
            .path("settings")
            .path("embedding")
            .path("index")
            .asText(),
        "the choice is kept");
  }

  @Test
  void searchIsHybridByDefault_andEachHitCarriesItsParts() {
    JsonNode hits =
        ok(api.retrieval("search", T, "{\"corpus\": \"h\", \"query\": \"interest rates\"}"))
            .get("results");
    JsonNode top = hits.get(0);
    assertEquals("rates.md", top.get("source").asText());
    assertEquals(1, top.path("parts").path("lexical").path("rank").asInt(), top::toString);
    assertTrue(top.path("parts").path("semantic").has("score"), top::toString);
    assertTrue(top.get("highlights").size() > 0);

    JsonNode semantic =
        ok(api.retrieval(
                "search",
                T,
                "{\"corpus\": \"h\", \"query\": \"a sleeping cat\", \"mode\": \"semantic\"}"))
            .get("results");
    assertEquals("cats.md", semantic.get(0).get("source").asText());
    assertTrue(semantic.get(0).path("parts").path("lexical").isMissingNode());

    JsonNode rrf =
        ok(api.retrieval(
                "search",
                T,
                "{\"corpus\": \"h\", \"query\": \"interest rates\", \"fusion\": {\"method\": \"rrf\"}}"))
            .get("results");
    assertEquals("rates.md", rrf.get(0).get("source").asText());

    for (String normalization : new String[] {"minmax", "theoretical"}) {
      JsonNode convex =
          ok(api.retrieval(
                  "search",
                  T,
                  "{\"corpus\": \"h\", \"query\": \"interest rates\","
                      + " \"fusion\": {\"method\": \"convex\", \"normalization\": \""
                      + normalization
                      + "\"}}"))
              .get("results");
      assertEquals("rates.md", convex.get(0).get("source").asText(), normalization);
    }
    // Theoretical normalization scores the semantic-only hit by its exact lexical score (0 here: no
    // query term in it) and its cosine from -1 up to the best: between 0 and the semantic weight.
    JsonNode theoretical =
        ok(api.retrieval(
                "search",
                T,
                "{\"corpus\": \"h\", \"query\": \"interest rates\","
                    + " \"fusion\": {\"semanticWeight\": 0.5, \"normalization\": \"theoretical\"}}"))
            .get("results");
    JsonNode cats = theoretical.get(1);
    assertEquals("cats.md", cats.get("source").asText());
    double cosine = cats.path("parts").path("semantic").path("score").asDouble();
    double best = theoretical.get(0).path("parts").path("semantic").path("score").asDouble();
    assertEquals(
        0.5 * (cosine + 1) / (Math.max(cosine, best) + 1),
        cats.get("score").asDouble(),
        1e-4,
        cats::toString);

    JsonNode kept =
        ok(api.retrieval(
                "corpora/create",
                T,
                "{\"corpus\": \"tmm\", \"settings\": {\"embedding\":"
                    + " {\"model\": \"all-minilm-l6-v2\", \"normalization\": \"theoretical\","
                    + " \"index\": \"exact\"}}}"))
            .path("settings")
            .path("embedding");
    assertEquals("theoretical", kept.path("normalization").asText());
    assertEquals(
        "theoretical",
        ok(api.retrieval("corpora/read", T, "{\"corpus\": \"tmm\"}"))
            .path("settings")
            .path("embedding")
            .path("normalization")
            .asText(),
        "the choice is kept");

    JsonNode coded =
        ok(api.retrieval(
                "corpora/create",
                T,
                "{\"corpus\": \"coded\", \"settings\": {\"embedding\":"
                    + " {\"model\": \"all-minilm-l6-v2\", \"index\": \"codes\", \"firstPass\": {\"candidates\": 300}}}}"))
            .path("settings")
            .path("embedding");
    assertEquals("codes", coded.path("index").asText());
    assertEquals(
        2, coded.path("firstPass").path("bits").asInt(), "an absent bits gets its default");
    assertEquals(
        "centred",
        coded.path("firstPass").path("code").asText(),
        "an absent code gets its default");
    assertEquals(
        64,
        coded.path("firstPass").path("centre").asText().length(),
        "the model's centre, by SHA-256");
    assertTrue(coded.path("firstPass").path("seed").isIntegralNumber(), "the rotation's seed");
    assertEquals(
        300,
        ok(api.retrieval("corpora/read", T, "{\"corpus\": \"coded\"}"))
            .path("settings")
            .path("embedding")
            .path("firstPass")
            .path("candidates")
            .asInt(),
        "the choice is kept");
    assertTrue(
        ok(api.retrieval("corpora/read", T, "{\"corpus\": \"tmm\"}"))
            .path("settings")
            .path("embedding")
            .path("firstPass")
            .isMissingNode(),
        "an exact corpus has no first pass");
    assertTrue(
        coded.path("firstPass").path("lists").isMissingNode()
            && coded.path("firstPass").path("probes").isMissingNode(),
        "no probes, no inverted file");

    JsonNode listed =
        ok(api.retrieval(
                "corpora/create",
                T,
                "{\"corpus\": \"listed\", \"settings\": {\"embedding\":"
                    + " {\"model\": \"all-minilm-l6-v2\", \"index\": \"codes\", \"firstPass\": {\"probes\": 32}}}}"))
            .path("settings")
            .path("embedding")
            .path("firstPass");
    assertEquals(32, listed.path("probes").asInt());
    assertEquals(
        64, listed.path("lists").asText().length(), "the model's shipped lists, by SHA-256");
    assertEquals(
        listed,
        ok(api.retrieval("corpora/read", T, "{\"corpus\": \"listed\"}"))
            .path("settings")
            .path("embedding")
            .path("firstPass"),
        "read shows what creation recorded");
    ok(
        api.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"listed\", \"source\": \"rates.md\", \"text\": \"Interest rates rose"
                + " again as the central bank fought inflation.\"}"));
    assertEquals(
        "rates.md",
        ok(api.retrieval(
                "search",
                T,
                "{\"corpus\": \"listed\", \"query\": \"what did the central bank do\","
                    + " \"mode\": \"semantic\"}"))
            .path("results")
            .path(0)
            .path("source")
            .asText(),
        "a corpus holding fewer chunks than the candidates is read whole, whatever its lists");

    JsonNode lexical =
        ok(api.retrieval(
                "search",
                T,
                "{\"corpus\": \"h\", \"query\": \"interest rates\", \"mode\": \"lexical\"}"))
            .get("results");
    assertTrue(lexical.get(0).path("parts").isMissingNode());
  }

  @Test
  void badRequestsAreTypedErrorsNamingTheField() {
    assertError(
        api.retrieval(
            "corpora/create",
            T,
            "{\"corpus\": \"x\", \"settings\": {\"embedding\": {\"model\": \"no-such-model\"}}}"),
        "settings.embedding.model");
    assertError(
        api.retrieval(
            "corpora/create", T, "{\"corpus\": \"x\", \"settings\": {\"embedding\": {}}}"),
        "settings.embedding.model");
    assertError(
        api.retrieval(
            "corpora/create",
            T,
            "{\"corpus\": \"x\", \"settings\": {\"embedding\": {\"model\": \"all-minilm-l6-v2\", \"semanticWeight\": 2}}}"),
        "settings.embedding.semanticWeight");
    assertError(
        api.retrieval(
            "corpora/create",
            T,
            "{\"corpus\": \"x\", \"settings\": {\"embedding\": {\"model\": \"all-minilm-l6-v2\", \"index\": \"ivf\"}}}"),
        "settings.embedding.index");
    assertError(
        api.retrieval(
            "corpora/create",
            T,
            "{\"corpus\": \"x\", \"settings\": {\"embedding\":"
                + " {\"model\": \"all-minilm-l6-v2\", \"firstPass\": {\"candidates\": 300}}}}"),
        "settings.embedding.firstPass");
    assertError(
        api.retrieval(
            "corpora/create",
            T,
            "{\"corpus\": \"x\", \"settings\": {\"embedding\":"
                + " {\"model\": \"all-minilm-l6-v2\", \"index\": \"codes\", \"firstPass\": {\"bits\": 5}}}}"),
        "settings.embedding.firstPass.bits");
    assertError(
        api.retrieval(
            "corpora/create",
            T,
            "{\"corpus\": \"x\", \"settings\": {\"embedding\":"
                + " {\"model\": \"all-minilm-l6-v2\", \"index\": \"codes\", \"firstPass\": {\"code\": \"sign\", \"bits\": 2}}}}"),
        "settings.embedding.firstPass.bits");
    assertError(
        api.retrieval(
            "corpora/create",
            T,
            "{\"corpus\": \"x\", \"settings\": {\"embedding\":"
                + " {\"model\": \"all-minilm-l6-v2\", \"index\": \"codes\", \"firstPass\": {\"code\": \"pq\"}}}}"),
        "settings.embedding.firstPass.code");
    assertError(
        api.retrieval("search", T, "{\"corpus\": \"lex\", \"query\": \"rates\", \"exact\": true}"),
        "exact");
    assertError(
        api.retrieval(
            "corpora/create",
            T,
            "{\"corpus\": \"x\", \"settings\": {\"embedding\":"
                + " {\"model\": \"all-minilm-l6-v2\", \"index\": \"codes\", \"firstPass\": {\"candidates\": 5}}}}"),
        "settings.embedding.firstPass.candidates");
    assertError(
        api.retrieval(
            "corpora/create",
            T,
            "{\"corpus\": \"x\", \"settings\": {\"embedding\":"
                + " {\"model\": \"all-minilm-l6-v2\", \"index\": \"codes\", \"firstPass\": {\"kind\": \"ivf\"}}}}"),
        "settings.embedding.firstPass.kind");
    for (String probes : List.of("0", "-3", "257", "1.5", "\"32\"", "100000")) {
      assertError(
          api.retrieval(
              "corpora/create",
              T,
              "{\"corpus\": \"x\", \"settings\": {\"embedding\":"
                  + " {\"model\": \"all-minilm-l6-v2\", \"index\": \"codes\", \"firstPass\": {\"probes\": "
                  + probes
                  + "}}}}"),
          "settings.embedding.firstPass.probes");
    }
    assertEquals(
        404,
        api.retrieval("corpora/read", T, "{\"corpus\": \"x\"}").status(),
        "nothing half-created");
    assertError(
        api.retrieval(
            "search", T, "{\"corpus\": \"lex\", \"query\": \"rates\", \"mode\": \"semantic\"}"),
        "mode");
    assertError(
        api.retrieval(
            "search", T, "{\"corpus\": \"h\", \"query\": \"rates\", \"mode\": \"dense\"}"),
        "mode");
    assertError(
        api.retrieval(
            "search",
            T,
            "{\"corpus\": \"h\", \"query\": \"rates\", \"fusion\": {\"method\": \"rrf\", \"semanticWeight\": 0.3}}"),
        "fusion.semanticWeight");
    assertError(
        api.retrieval(
            "search",
            T,
            "{\"corpus\": \"h\", \"query\": \"rates\", \"fusion\": {\"normalization\": \"zscore\"}}"),
        "fusion.normalization");
    assertError(
        api.retrieval(
            "search",
            T,
            "{\"corpus\": \"h\", \"query\": \"rates\", \"fusion\": {\"method\": \"rrf\", \"normalization\": \"minmax\"}}"),
        "fusion.normalization");
    // Fusion is hybrid search's alone: a lexical or semantic search given one is refused, whether
    // the mode was asked for or is the corpus's default.
    assertError(
        api.retrieval(
            "search",
            T,
            "{\"corpus\": \"h\", \"query\": \"rates\", \"mode\": \"semantic\", \"fusion\": {\"method\": \"rrf\"}}"),
        "fusion");
    assertError(
        api.retrieval(
            "search",
            T,
            "{\"corpus\": \"h\", \"query\": \"rates\", \"mode\": \"lexical\", \"fusion\": {\"semanticWeight\": 0.3}}"),
        "fusion");
    assertError(
        api.retrieval(
            "search",
            T,
            "{\"corpus\": \"lex\", \"query\": \"rates\", \"fusion\": {\"method\": \"convex\"}}"),
        "fusion");
    assertError(
        api.retrieval(
            "corpora/create",
            T,
            "{\"corpus\": \"x\", \"settings\": {\"embedding\": {\"model\": \"all-minilm-l6-v2\", \"normalization\": \"zscore\"}}}"),
        "settings.embedding.normalization");
    assertError(
        api.retrieval(
            "search",
            T,
            "{\"corpus\": \"h\", \"query\": \"" + "q ".repeat(450) + "\", \"mode\": \"semantic\"}"),
        "query");
  }

  private static void assertError(Answer a, String field) {
    assertEquals(400, a.status(), a::toString);
    assertEquals("INVALID_REQUEST", a.code(), a::toString);
    assertEquals(field, a.field(), a::toString);
  }
}
