package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerPerClass;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.TestTokens;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An e5-small-v2 corpus over HTTP, end to end: created by name, read back with the weights'
 * SHA-256, filled through the normal write path, and searched by meaning.
 */
class E5OverHttpIT {
  static final String T = TestTokens.ADMIN;

  /** The SHA-256 of the int8 weights that ship (the file inside the Maven artifact). */
  static final String E5_SHA256 =
      "7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded";

  @RegisterExtension
  static final ServerPerClass server =
      ServerPerClass.withTestTokens().corpus("e5", "{\"embedding\": {\"model\": \"e5-small-v2\"}}");

  static ApiClient api;

  @BeforeAll
  static void start() {
    api = server.client();
    ok(
        api.retrieval(
            "sources/batch",
            T,
            """
        {"corpus": "e5", "operations": [
          {"index": {"source": "cats.md", "title": "Cats", "text": "The kitten curled up and slept on the warm rug."}},
          {"index": {"source": "rates.md", "title": "Markets", "text": "Shares fell after the central bank raised interest rates."}},
          {"index": {"source": "bread.md", "title": "Baking", "text": "Preheat the oven and bake the loaf for forty minutes."}}]}"""));
  }

  @Test
  void readShowsTheModelWithItsSha256() {
    JsonNode embedding =
        ok(api.retrieval("corpora/read", T, "{\"corpus\": \"e5\"}"))
            .path("settings")
            .path("embedding");
    assertEquals("e5-small-v2", embedding.path("model").asText());
    assertEquals(E5_SHA256, embedding.path("sha256").asText(), embedding::toString);
    assertEquals(
        3, ok(api.retrieval("corpora/read", T, "{\"corpus\": \"e5\"}")).path("sources").asInt());
  }

  @Test
  void semanticSearchFindsThePassageByMeaning() {
    // No word of either query is in the passage that answers it.
    JsonNode pets =
        ok(api.retrieval(
                "search",
                T,
                "{\"corpus\": \"e5\", \"query\": \"a sleeping cat\", \"mode\": \"semantic\"}"))
            .get("results");
    assertEquals("cats.md", pets.get(0).get("source").asText(), pets::toString);
    assertTrue(pets.get(0).path("parts").path("semantic").has("score"), pets::toString);

    JsonNode money =
        ok(api.retrieval(
                "search",
                T,
                "{\"corpus\": \"e5\", \"query\": \"stock market reaction to monetary policy\", \"mode\": \"semantic\"}"))
            .get("results");
    assertEquals("rates.md", money.get(0).get("source").asText(), money::toString);

    JsonNode hybrid =
        ok(api.retrieval("search", T, "{\"corpus\": \"e5\", \"query\": \"interest rates\"}"))
            .get("results");
    assertEquals("rates.md", hybrid.get(0).get("source").asText(), hybrid::toString);
  }
}
