package dev.quarry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.testing.TestTokens;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

/**
 * Every search part the client writes, against a real server: each has its effect (a filter
 * excludes, facets count, a snippet is cut, operators exclude, a hybrid search has score parts),
 * and each bad value comes back as the server's refusal with its field path.
 */
class ClientSearchFeaturesOverHttpTest {
  static final String LONG =
      "Nothing in this opening stretch of the text matters to the query at all, it only fills"
          + " room before the one sentence that does: the policy on remote work allows two days a week at home. More"
          + " filler follows here so that the window has to be cut on both of its sides.";

  @RegisterExtension static final RealServer.PerClass server = RealServer.perClass();
  static QuarryClient admin;

  @BeforeAll
  static void start() {
    admin = server.client(TestTokens.ADMIN);
    admin.createCorpus("f", null);
    admin.batch(
        "f",
        List.of(
            QuarryClient.BatchOperation.index(
                Document.text("hr.md", "The leave policy gives twenty weeks.")
                    .withMetadata(Map.of("dept", "hr", "year", 2024))),
            QuarryClient.BatchOperation.index(
                Document.text("legal.md", "The legal policy on contracts and signatures.")
                    .withMetadata(Map.of("dept", "legal", "year", 2022))),
            QuarryClient.BatchOperation.index(
                Document.text("finance.md", "The expense policy for travel and meals.")
                    .withMetadata(Map.of("dept", "finance"))),
            QuarryClient.BatchOperation.index(
                Document.text("remote.md", LONG).withMetadata(Map.of("dept", "hr")))));
  }

  static Set<String> sources(SearchRequest request) {
    return admin.search(request).results().stream().map(Hit::source).collect(Collectors.toSet());
  }

  static SearchRequest policy() {
    return SearchRequest.of("f", "policy").withTopK(10);
  }

  @Test
  void booleanFilters_excludeWhatTheyDoNotMatch() {
    assertEquals(Set.of("hr.md", "legal.md", "finance.md", "remote.md"), sources(policy()));
    assertEquals(
        Set.of("hr.md", "remote.md", "legal.md"),
        sources(
            policy()
                .withFilter(
                    SearchFilter.anyOf(
                        SearchFilter.equal("dept", "hr"), SearchFilter.prefix("dept", "leg")))));
    assertEquals(
        Set.of("legal.md", "finance.md"),
        sources(policy().withFilter(SearchFilter.not(SearchFilter.equal("dept", "hr")))));
    assertEquals(
        Set.of("finance.md", "remote.md"),
        sources(policy().withFilter(SearchFilter.missing("year"))));
    assertEquals(
        Set.of("legal.md"),
        sources(
            policy()
                .withFilter(
                    SearchFilter.exists("year").and(SearchFilter.between("year", 2020, 2023)))));
    assertEquals(
        Set.of("hr.md"),
        sources(
            policy()
                .withFilter(
                    SearchFilter.allOf(
                        SearchFilter.atLeast("year", 2023),
                        SearchFilter.in("dept", "hr", "legal")))));
  }

  @Test
  void facets_countDistinctSourcesOverEveryMatch() {
    SearchResult result =
        admin.search(
            policy()
                .withTopK(1)
                .withFacets(
                    List.of(SearchRequest.Facet.of("dept"), new SearchRequest.Facet("year", 1))));
    assertEquals(
        1, result.results().size(), "facets count every match, not only the hits returned");
    SearchResult.Facet dept = result.facets().get(0);
    assertEquals("dept", dept.field());
    assertEquals(3, dept.distinctValues());
    Map<Object, Long> counts =
        dept.values().stream()
            .collect(Collectors.toMap(SearchResult.Value::value, SearchResult.Value::count));
    assertEquals(Map.of("hr", 2L, "legal", 1L, "finance", 1L), counts);
    SearchResult.Facet year = result.facets().get(1);
    assertEquals(1, year.values().size(), "its own size");
    assertEquals(2, year.distinctValues());
    assertNull(admin.search(policy()).facets(), "no facets unless asked for");
  }

  @Test
  void snippets_cutAWindowAroundTheMatches() {
    Hit hit =
        admin
            .search(
                SearchRequest.of("f", "remote work")
                    .withSnippet(SearchRequest.Snippet.maxChars(60).withHtml("<b>", "</b>")))
            .results()
            .get(0);
    assertEquals("remote.md", hit.source());
    Hit.Snippet snippet = hit.snippet();
    assertNotNull(snippet);
    assertTrue(snippet.text().length() <= 60, snippet::text);
    assertTrue(snippet.text().length() < hit.text().length());
    assertEquals(hit.text().substring(snippet.start(), snippet.end()), snippet.text());
    assertTrue(snippet.text().contains("remote work"), snippet::text);
    assertTrue(snippet.html().contains("<b>remote</b>"), snippet::html);
    List<Integer> first = snippet.highlights().get(0);
    assertEquals("remote", snippet.text().substring(first.get(0), first.get(1)));
    assertNull(
        admin.search(SearchRequest.of("f", "remote work")).results().get(0).snippet(),
        "none unless asked for");
    assertNotNull(
        admin
            .search(SearchRequest.of("f", "remote work").withSnippet(true))
            .results()
            .get(0)
            .snippet());
  }

  @Test
  void operatorSyntax_excludes_plainSyntaxReadsItAsText() {
    SearchRequest q = SearchRequest.of("f", "policy -legal").withTopK(10);
    assertTrue(sources(q).contains("legal.md"), "plain: every character is text");
    assertEquals(
        Set.of("hr.md", "finance.md", "remote.md"),
        sources(q.withSyntax(SearchRequest.Syntax.OPERATORS)));
  }

  @Test
  void hybridSearch_onAnEmbeddingCorpus_returnsScoreParts() {
    Corpus created =
        admin.createCorpus(
            "emb", new Settings(null, null, null, Settings.Embedding.of("all-minilm-l6-v2")));
    assertEquals("all-minilm-l6-v2", created.settings().embedding().model());
    Settings.Embedding read = admin.readCorpus("emb").settings().embedding();
    assertTrue(read.sha256().matches("[0-9a-f]{64}"), read::toString);
    assertEquals(0.5, read.semanticWeight());
    assertEquals("codes", read.index(), "a shipped model's corpus gets the coded first pass");
    Settings.FirstPass pass = read.firstPass();
    assertEquals("centred", pass.code(), pass::toString);
    assertEquals(2, pass.bits());
    assertEquals(1000, pass.candidates());
    assertEquals(96, pass.probes());
    assertTrue(pass.centre().matches("[0-9a-f]{64}"), pass::toString);
    assertTrue(pass.lists().matches("[0-9a-f]{64}"), pass::toString);
    assertNotNull(pass.seed());
    Settings.FirstPass own =
        admin
            .createCorpus(
                "emb-codes",
                new Settings(
                    null,
                    null,
                    null,
                    Settings.Embedding.of("all-minilm-l6-v2")
                        .withCodes(Settings.FirstPass.of(300, null))))
            .settings()
            .embedding()
            .firstPass();
    assertEquals(300, own.candidates(), "the client's count is sent and kept");
    assertNull(own.probes(), "no probes asked, no inverted file");
    assertNull(own.lists());
    assertEquals(
        "exact",
        admin
            .createCorpus(
                "emb-exact",
                new Settings(
                    null,
                    null,
                    null,
                    new Settings.Embedding("all-minilm-l6-v2", null, null, "exact")))
            .settings()
            .embedding()
            .index());
    assertEquals(
        Settings.Normalization.MINMAX,
        read.normalization(),
        "the server's default, read back typed");
    assertNull(admin.readCorpus("f").settings().embedding(), "a lexical corpus has none");
    admin.batch(
        "emb",
        List.of(
            QuarryClient.BatchOperation.index(
                Document.text("cats.md", "The kitten curled up and slept on the warm rug.")),
            QuarryClient.BatchOperation.index(
                Document.text(
                    "rates.md", "Shares fell after the central bank raised interest rates."))));

    Hit top = admin.search(SearchRequest.of("emb", "interest rates")).results().get(0);
    assertEquals("rates.md", top.source());
    assertNotNull(top.parts(), "hybrid by default on an embedding corpus");
    assertEquals(1, top.parts().lexical().rank());
    assertNotNull(top.parts().semantic());
    // Semantic only: the kitten is found without a shared word.
    Hit cat =
        admin
            .search(
                SearchRequest.of("emb", "a small cat sleeping")
                    .withMode(SearchRequest.Mode.SEMANTIC))
            .results()
            .get(0);
    assertEquals("cats.md", cat.source());
    assertNotNull(cat.parts().semantic());
    assertNull(cat.parts().lexical());
    // A convex weight of 1 ranks by the (normalized) semantic score alone; rrf fuses ranks.
    List<Hit> semanticOnly =
        admin
            .search(
                SearchRequest.of("emb", "a small cat sleeping")
                    .withMode(SearchRequest.Mode.HYBRID)
                    .withFusion(SearchRequest.Fusion.convex(1.0)))
            .results();
    assertEquals("cats.md", semanticOnly.get(0).source());
    assertEquals(1.0, semanticOnly.get(0).score(), 1e-6, "the best semantic score, normalized");
    for (int i = 1; i < semanticOnly.size(); i++) {
      assertTrue(
          semanticOnly.get(i - 1).parts().semantic().score()
              >= semanticOnly.get(i).parts().semantic().score());
    }
    assertEquals(
        "rates.md",
        admin
            .search(
                SearchRequest.of("emb", "interest rates").withFusion(SearchRequest.Fusion.rrf()))
            .results()
            .get(0)
            .source());
    assertNull(
        admin
            .search(SearchRequest.of("emb", "interest rates").withMode(SearchRequest.Mode.LEXICAL))
            .results()
            .get(0)
            .parts(),
        "a lexical search has no parts");

    // Theoretical normalization scores the semantic-only hit by its exact lexical score (0: no
    // query
    // term in it) and its cosine from -1 up to the best: between 0 and the semantic weight.
    List<Hit> theoretical =
        admin
            .search(
                SearchRequest.of("emb", "interest rates")
                    .withFusion(
                        SearchRequest.Fusion.convex(0.5)
                            .withNormalization(Settings.Normalization.THEORETICAL)))
            .results();
    Hit cats = theoretical.get(1);
    assertEquals("cats.md", cats.source());
    double cosine = cats.parts().semantic().score();
    double best = theoretical.get(0).parts().semantic().score();
    assertEquals(
        0.5 * (cosine + 1) / (Math.max(cosine, best) + 1), cats.score(), 1e-4, cats::toString);
    // Min-max makes the last semantic candidate 0 and leaves it no lexical score: the same hit
    // scores 0.
    List<Hit> minmax =
        admin
            .search(
                SearchRequest.of("emb", "interest rates")
                    .withFusion(
                        SearchRequest.Fusion.convex(0.5)
                            .withNormalization(Settings.Normalization.MINMAX)))
            .results();
    assertEquals("cats.md", minmax.get(1).source());
    assertEquals(0.0, minmax.get(1).score(), 1e-6, minmax.get(1)::toString);

    Corpus kept =
        admin.createCorpus(
            "tmm",
            new Settings(
                null,
                null,
                null,
                Settings.Embedding.of("all-minilm-l6-v2")
                    .withNormalization(Settings.Normalization.THEORETICAL)));
    assertEquals(Settings.Normalization.THEORETICAL, kept.settings().embedding().normalization());
    assertEquals(
        Settings.Normalization.THEORETICAL,
        admin.readCorpus("tmm").settings().embedding().normalization(),
        "the choice is kept");
  }

  @Test
  void refusals_nameTheFieldPath() {
    assertRefused(
        "filter.or[0]", () -> admin.search(policy().withFilter(Map.of("or", List.of(Map.of())))));
    assertRefused(
        "filter.dept.prefix",
        () -> admin.search(policy().withFilter(SearchFilter.prefix("dept", ""))));
    assertRefused("facets[1].field", () -> admin.search(policy().withFacets("dept", "dept")));
    assertRefused(
        "facets[0].size",
        () -> admin.search(policy().withFacets(List.of(new SearchRequest.Facet("dept", 0)))));
    assertRefused(
        "snippet.pre",
        () ->
            admin.search(policy().withSnippet(new SearchRequest.Snippet(null, null, "<b>", null))));
    assertRefused(
        "snippet.maxChars",
        () -> admin.search(policy().withSnippet(SearchRequest.Snippet.maxChars(5))));
    assertRefused(
        "fusion.semanticWeight",
        () -> admin.search(policy().withFusion(SearchRequest.Fusion.convex(2))));
    assertRefused(
        "fusion.semanticWeight",
        () -> admin.search(policy().withFusion(new SearchRequest.Fusion("rrf", 0.5))));
    assertRefused(
        "fusion.method",
        () -> admin.search(policy().withFusion(new SearchRequest.Fusion("sum", null))));
    assertRefused(
        "fusion.normalization",
        () ->
            admin.search(
                policy()
                    .withFusion(
                        SearchRequest.Fusion.rrf()
                            .withNormalization(Settings.Normalization.MINMAX))));
    assertRefused("mode", () -> admin.search(policy().withMode(SearchRequest.Mode.SEMANTIC)));
    assertRefused(
        "settings.embedding.model",
        () ->
            admin.createCorpus(
                "bad", new Settings(null, null, null, Settings.Embedding.of("no-such-model"))));
    assertRefused(
        "settings.embedding.sha256",
        () ->
            admin.createCorpus(
                "bad",
                new Settings(
                    null,
                    null,
                    null,
                    new Settings.Embedding("all-minilm-l6-v2", "0".repeat(64), null, null))));
  }

  static void assertRefused(String field, Executable call) {
    ApiException.InvalidRequestException e =
        assertThrows(ApiException.InvalidRequestException.class, call);
    assertEquals("INVALID_REQUEST", e.code());
    assertEquals(field, e.field(), e::getMessage);
  }
}
