package dev.quarry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.corpora.CorporaBuilder;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EmbeddingModels;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.FacetCounts;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import dev.quarry.testing.HashingEmbedder;
import dev.quarry.testing.OpenSearchNodes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A hybrid corpus on a real OpenSearch node (two shards), with an exact and a coded index: what a
 * token granted only some sources gets from semantic and hybrid searches (only chunks of those
 * sources), what their facets count (every chunk in scope), and what a front without the scoring
 * plugin does (refuses to create an embedding corpus and to search one semantically, naming the
 * plugin, while its lexical searches still answer). Their scores are held to the embedded store's
 * by {@code StoresDifferentialIT}.
 */
class HybridOnClusterIT {
  static final String PREFIX = "t-hybrid-" + System.nanoTime() % 100000;
  static final EngineConfig CONFIG =
      EngineConfig.builder().embeddingModels(EmbeddingModels.of(new HashingEmbedder())).build();
  static final CorpusSettings SETTINGS =
      CorpusSettings.DEFAULT.withEmbedding(
          new CorpusSettings.Embedding(HashingEmbedder.MODEL, null, 0.5));
  static OpenSearchCorpusStore withPlugin;
  static OpenSearchCorpusStore withoutPlugin;

  @BeforeAll
  static void open() throws Exception {
    OpenSearchSettings settings =
        OpenSearchSettings.of(OpenSearchNodes.single().urls())
            .withReplicas(0)
            .withShards(2)
            .withPrefix(PREFIX);
    withPlugin = new OpenSearchCorpusStore(settings, CONFIG);
    withoutPlugin =
        new OpenSearchCorpusStore(settings, CONFIG, CorporaBuilder.DEFAULT_MAX_OPEN_CORPORA, false);
    withPlugin.create("hybrid", SETTINGS);
    withPlugin.create(
        "coded", SETTINGS.withEmbedding(CodedEmbeddings.hashing(CorpusSettings.FirstPass.DEFAULT)));
    List<SourceOperation> ops = new ArrayList<>();
    for (String source : List.of("public/a", "public/b", "secret/c", "secret/d", "other")) {
      ops.add(
          SourceOperation.Index.text(
              source,
              null,
              "river otter notes from " + source + ". The heron waits by" + " the mill ford.",
              Metadata.of(Map.of("team", source.split("/")[0]), "metadata")));
    }
    for (String corpus : List.of("hybrid", "coded")) {
      withPlugin.withCorpus(corpus, ix -> ix.apply(new Mutation(ops, "tester", null, null)));
    }
  }

  @AfterAll
  static void close() {
    withPlugin.delete("hybrid");
    withPlugin.delete("coded");
    withPlugin.close();
    withoutPlugin.close();
  }

  @Test
  void aTokenGrantedSomeSources_getsSemanticAndHybridHitsOfThoseOnly() {
    SourceScope grant = new SourceScope(List.of("public/*", "other"));
    for (SearchRequest.Mode mode :
        new SearchRequest.Mode[] {SearchRequest.Mode.SEMANTIC, SearchRequest.Mode.HYBRID}) {
      SearchRequest request =
          new SearchRequest("secret heron", grant, List.of(), 10, null, null, false, mode, null)
              .withStatistics(grant);
      List<Hit> hits = withPlugin.withCorpus("hybrid", ix -> ix.search(request)).hits();
      assertEquals(3, hits.size(), mode + ": every granted chunk, no other");
      for (Hit h : hits) {
        assertTrue(
            h.source().startsWith("public/") || h.source().equals("other"),
            mode + ": " + h.source());
        assertTrue(h.parts().semanticScore() != null, mode + ": semantic part");
      }
    }
  }

  @Test
  void facetsOfSemanticAndHybridSearches_countEveryChunkInScope_codedOrExact() {
    // Every chunk holds "heron", so a lexical search has the same scope as the dense ones.
    Map<Object, Long> expected = Map.of("public", 2L, "secret", 2L, "other", 1L);
    for (String corpus : List.of("hybrid", "coded")) {
      for (SearchRequest.Mode mode : SearchRequest.Mode.values()) {
        for (boolean exact : new boolean[] {false, true}) {
          if (exact && mode == SearchRequest.Mode.LEXICAL) {
            continue;
          }
          SearchRequest request =
              SearchRequest.of("heron")
                  .withMode(mode)
                  .withFacets(List.of(new SearchRequest.Facet("team")))
                  .withExact(exact);
          List<FacetCounts> facets =
              withPlugin.withCorpus(corpus, ix -> ix.search(request)).facets();
          Map<Object, Long> counted = new HashMap<>();
          facets.get(0).values().forEach(v -> counted.put(v.value(), v.count()));
          assertEquals(expected, counted, corpus + ", " + mode + (exact ? ", exact" : ""));
        }
      }
    }
  }

  @Test
  void aQueryLongerThanTheModelsWindow_isRefusedNamingQuery_inBothDenseModes() {
    // A hybrid search embeds the query on its semantic side, beside the lexical side's request:
    // the model's refusal still reaches the caller as the request's error.
    String tooLong = "ox ".repeat(new HashingEmbedder().maxTokens()); // within 1,000 characters
    for (SearchRequest.Mode mode :
        new SearchRequest.Mode[] {SearchRequest.Mode.SEMANTIC, SearchRequest.Mode.HYBRID}) {
      SearchRequest request =
          new SearchRequest(tooLong, SourceScope.ALL, List.of(), 10, null, null, false, mode, null);
      QuarryException refused =
          assertThrows(
              QuarryException.class,
              () -> withPlugin.withCorpus("hybrid", ix -> ix.search(request)),
              mode.toString());
      assertEquals(ErrorCode.INVALID_REQUEST, refused.code(), mode.toString());
      assertEquals("query", refused.field(), mode.toString());
    }
  }

  @Test
  void aFrontWithoutThePlugin_refusesEmbeddingCorpora_andSemanticSearches_namingThePlugin() {
    assertFalse(withoutPlugin.searchesSemantically());
    QuarryException created =
        assertThrows(QuarryException.class, () -> withoutPlugin.create("refused", SETTINGS));
    assertEquals(ErrorCode.EMBEDDING_UNAVAILABLE, created.code());
    assertTrue(created.getMessage().contains("quarry-scoring"), created.getMessage());
    assertTrue(withoutPlugin.info("refused").isEmpty(), "nothing created");
    for (SearchRequest.Mode mode :
        new SearchRequest.Mode[] {null, SearchRequest.Mode.SEMANTIC, SearchRequest.Mode.HYBRID}) {
      QuarryException e =
          assertThrows(
              QuarryException.class,
              () ->
                  withoutPlugin.withCorpus(
                      "hybrid",
                      ix ->
                          ix.search(
                              new SearchRequest(
                                  "heron",
                                  SourceScope.ALL,
                                  List.of(),
                                  5,
                                  null,
                                  null,
                                  false,
                                  mode,
                                  null))));
      assertEquals(ErrorCode.RETRIEVAL_UNAVAILABLE, e.code(), String.valueOf(mode));
      assertTrue(e.getMessage().contains("quarry-scoring"), e.getMessage());
    }
    // The lexical side still answers, by the cluster's BM25.
    List<Hit> lexical =
        withoutPlugin
            .withCorpus(
                "hybrid",
                ix ->
                    ix.search(
                        new SearchRequest(
                            "heron",
                            SourceScope.ALL,
                            List.of(),
                            10,
                            null,
                            null,
                            false,
                            SearchRequest.Mode.LEXICAL,
                            null)))
            .hits();
    assertEquals(5, lexical.size());
  }

  @Test
  void theApproximateIndexAndWhatTheClustersFirstPassLacks_areRefused() {
    // The HNSW graph is not built on the cluster, and its coded first pass has centred codes: each
    // other choice is refused, naming its field, and nothing is created.
    List<CorpusSettings.Embedding> refused =
        List.of(
            new CorpusSettings.Embedding(
                HashingEmbedder.MODEL, null, 0.5, CorpusSettings.VectorIndex.HNSW),
            CodedEmbeddings.hashing(new CorpusSettings.FirstPass(1, 1000)));
    List<String> fields = List.of("settings.embedding.index", "settings.embedding.firstPass.code");
    for (int i = 0; i < refused.size(); i++) {
      CorpusSettings.Embedding embedding = refused.get(i);
      QuarryException e =
          assertThrows(
              QuarryException.class,
              () -> withPlugin.create("graph", CorpusSettings.DEFAULT.withEmbedding(embedding)));
      assertEquals(ErrorCode.INVALID_REQUEST, e.code(), fields.get(i));
      assertEquals(fields.get(i), e.field());
      assertTrue(withPlugin.info("graph").isEmpty(), "nothing created for " + fields.get(i));
    }
  }
}
