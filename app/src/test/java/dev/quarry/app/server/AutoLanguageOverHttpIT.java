package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * An auto corpus over HTTP: receipts and hits say each source's detected language, a German query
 * stems in German and an English one in English, a search may name one language, and bad languages
 * are typed errors naming their field; sources/read and sources/list say the language each receipt
 * said (a corpus of one language, its own). The texts are article 1 of the Universal Declaration of
 * Human Rights; every answer is checked against openapi.yaml.
 */
class AutoLanguageOverHttpIT {
  static final String T = TestTokens.ADMIN;

  @RegisterExtension static final ServerPerClass server = ServerPerClass.withTestTokens();
  static ApiClient api;
  static JsonNode receipts;

  @BeforeAll
  static void start() {
    api = server.client();
    ok(
        api.retrieval(
            "corpora/create", T, "{\"corpus\": \"udhr\", \"settings\": {\"language\": \"auto\"}}"));
    receipts =
        ok(
            api.retrieval(
                "sources/batch",
                T,
                """
        {"corpus": "udhr", "operations": [
          {"index": {"source": "en", "text": "All human beings are born free and equal in dignity and rights. They are endowed with reason and conscience and should act towards one another in a spirit of brotherhood."}},
          {"index": {"source": "de", "text": "Alle Menschen sind frei und gleich an Würde und Rechten geboren. Sie sind mit Vernunft und Gewissen begabt und sollen einander im Geist der Brüderlichkeit begegnen."}},
          {"index": {"source": "fr", "text": "Tous les êtres humains naissent libres et égaux en dignité et en droits. Ils sont doués de raison et de conscience et doivent agir les uns envers les autres dans un esprit de fraternité."}},
          {"index": {"source": "ru", "text": "Все люди рождаются свободными и равными в своем достоинстве и правах. Они наделены разумом и совестью и должны поступать в отношении друг друга в духе братства."}},
          {"index": {"source": "memo", "text": "Leave policy"}}]}"""));
  }

  static Answer search(String query, String rest) {
    return api.retrieval(
        "search", T, "{\"corpus\": \"udhr\", \"query\": \"" + query + "\"" + rest + "}");
  }

  static List<String> sourcesAndLanguages(JsonNode answer) {
    List<String> out = new ArrayList<>();
    answer
        .get("results")
        .forEach(h -> out.add(h.get("source").asText() + ":" + h.get("language").asText()));
    return out;
  }

  @Test
  void receipts_sayEachSourcesDetectedLanguage() {
    List<String> languages = new ArrayList<>();
    receipts.get("results").forEach(r -> languages.add(r.get("language").asText()));
    assertEquals(List.of("english", "german", "french", "russian", "standard"), languages);
  }

  @Test
  void eachQuery_stemsInTheLanguageOfTheSourceItFinds() {
    assertEquals(List.of("de:german"), sourcesAndLanguages(ok(search("Recht", ""))));
    assertEquals(List.of("en:english"), sourcesAndLanguages(ok(search("acting", ""))));
    assertEquals(List.of("ru:russian"), sourcesAndLanguages(ok(search("братство", ""))));
    assertEquals(List.of("memo:standard"), sourcesAndLanguages(ok(search("policy", ""))));
  }

  @Test
  void aSearchsLanguage_readsTheQueryInItAlone() {
    assertEquals(
        List.of("fr:french"),
        sourcesAndLanguages(ok(search("raisons", ", \"language\": \"french\""))));
    assertEquals(
        List.of(), sourcesAndLanguages(ok(search("raisons", ", \"language\": \"german\""))));
  }

  @Test
  void aSourcesLanguage_overridesDetection() {
    JsonNode receipt =
        ok(
            api.retrieval(
                "sources/index",
                T,
                "{\"corpus\": \"udhr\", \"source\": \"names\","
                    + " \"text\": \"Johann Wolfgang von Goethe und Friedrich Schiller\", \"language\": \"german\"}"));
    assertEquals("german", receipt.get("language").asText());
  }

  @Test
  void sourcesReadAndList_sayTheLanguageEachReceiptSaid() {
    List<String> said = new ArrayList<>();
    List<String> read = new ArrayList<>();
    for (JsonNode r : receipts.get("results")) {
      String source = r.get("source").asText();
      said.add(source + ":" + r.get("language").asText());
      JsonNode state =
          ok(
              api.retrieval(
                  "sources/read", T, "{\"corpus\": \"udhr\", \"source\": \"" + source + "\"}"));
      read.add(source + ":" + state.path("language").asText("(none)"));
    }
    assertEquals(said, read);
    List<String> listed = new ArrayList<>();
    ok(api.retrieval("sources/list", T, "{\"corpus\": \"udhr\", \"limit\": 1000}"))
        .get("sources")
        .forEach(
            s -> listed.add(s.get("source").asText() + ":" + s.path("language").asText("(none)")));
    for (String each : said) {
      assertTrue(listed.contains(each), () -> each + " not in " + listed);
    }
  }

  @Test
  void aNamedLanguage_isTheOneTheSourceIsReadAndListedIn() {
    ok(
        api.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"udhr\", \"source\": \"named/a\","
                + " \"text\": \"All human beings are born free\", \"language\": \"dutch\"}"));
    JsonNode state =
        ok(api.retrieval("sources/read", T, "{\"corpus\": \"udhr\", \"source\": \"named/a\"}"));
    assertEquals("dutch", state.path("language").asText());
    JsonNode page =
        ok(api.retrieval("sources/list", T, "{\"corpus\": \"udhr\", \"prefix\": \"named/\"}"));
    assertEquals("dutch", page.get("sources").get(0).path("language").asText());
  }

  @Test
  void aCorpusOfOneLanguage_saysItForEverySource() {
    ok(
        api.retrieval(
            "corpora/create",
            T,
            "{\"corpus\": \"fixed\", \"settings\": {\"language\": \"german\"}}"));
    ok(
        api.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"fixed\", \"source\": \"s\", \"text\": \"Tous les êtres humains\"}"));
    JsonNode state =
        ok(api.retrieval("sources/read", T, "{\"corpus\": \"fixed\", \"source\": \"s\"}"));
    assertEquals("german", state.path("language").asText());
    JsonNode page = ok(api.retrieval("sources/list", T, "{\"corpus\": \"fixed\"}"));
    assertEquals("german", page.get("sources").get(0).path("language").asText());
  }

  @Test
  void badLanguages_areTypedErrorsNamingTheirField() {
    Answer source =
        api.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"udhr\", \"source\": \"x\", \"text\": \"x\", \"language\": \"klingon\"}");
    assertEquals(400, source.status(), source::toString);
    assertEquals("language", source.field());
    Answer batch =
        api.retrieval(
            "sources/batch",
            T,
            "{\"corpus\": \"udhr\", \"operations\": [{\"index\":"
                + " {\"source\": \"x\", \"text\": \"x\", \"language\": \"klingon\"}}]}");
    assertEquals(400, batch.status(), batch::toString);
    assertEquals("operations[0].language", batch.field());
    Answer autoSource =
        api.retrieval(
            "sources/index",
            T,
            "{\"corpus\": \"udhr\", \"source\": \"x\", \"text\": \"x\", \"language\": \"auto\"}");
    assertEquals(400, autoSource.status(), autoSource::toString);
    assertEquals("language", autoSource.field());
    Answer unknown = search("Recht", ", \"language\": \"klingon\"");
    assertEquals(400, unknown.status(), unknown::toString);
    assertEquals("language", unknown.field());
    Answer auto = search("Recht", ", \"language\": \"auto\"");
    assertEquals(400, auto.status(), auto::toString);
    assertEquals("language", auto.field());
    Answer corpus =
        api.retrieval(
            "corpora/create", T, "{\"corpus\": \"x\", \"settings\": {\"language\": \"detect\"}}");
    assertEquals(400, corpus.status(), corpus::toString);
    assertEquals("settings.language", corpus.field());
  }
}
