package dev.quarry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.FacetCounts;
import dev.quarry.engine.Filter;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.Snippet;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import dev.quarry.testing.OpenSearchNodes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snippets and facets on a real OpenSearch node, against the embedded store holding the same
 * corpus: both stores must cut the same snippets from the same chunks and count the same facets
 * (values, counts, order, distinctValues) for every search, latest and pinned.
 */
class ClusterSearchFeaturesIT {
  static final String[] WORDS =
      ("apple banana cherry delta echo fjord glacier harbor island jungle kelp lagoon "
              + "meadow nectar orchard prairie quarry river summit tundra")
          .split(" ");
  static final String[] STOP_WORDS = {"of", "the", "and"};

  @TempDir static Path dir;
  static OpenSearchSettings clusterSettings;
  static OpenSearchCorpusStore cluster;
  static CorpusIndex embedded;

  @BeforeAll
  static void load() throws Exception {
    EngineConfig config = EngineConfig.builder().build();
    clusterSettings =
        OpenSearchSettings.of(OpenSearchNodes.single().urls())
            .withReplicas(0)
            .withPrefix("t-features-" + System.nanoTime() % 100000);
    cluster = new OpenSearchCorpusStore(clusterSettings, config);
    CorpusSettings settings =
        new CorpusSettings(
            CorpusSettings.Language.ENGLISH,
            new CorpusSettings.Chunking(16, 4),
            CorpusSettings.Ranking.DEFAULT);
    CorpusInfo info = cluster.create("features", settings);
    embedded = CorpusIndex.open(dir.resolve("index"), info, config);
    java.util.Random random = new java.util.Random(42);
    String[] departments = {
      "hr", "finance", "legal", "Ops", "ops", "\uD83D\uDE00emoji", "\uFFFDreplacement"
    };
    for (int round = 0; round < 3; round++) {
      List<SourceOperation> ops = new ArrayList<>();
      for (int i = 0; i < 14; i++) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("department", departments[random.nextInt(departments.length)]);
        if (random.nextInt(4) > 0) {
          meta.put("year", 2019 + random.nextInt(6));
        }
        if (random.nextBoolean()) {
          meta.put("score", random.nextInt(3) + 0.5);
        }
        meta.put("draft", random.nextBoolean());
        meta.put("tags", List.of(WORDS[random.nextInt(5)], WORDS[random.nextInt(5)]));
        if (random.nextInt(5) == 0) {
          meta.put("code", "2020"); // a string that reads as a number counts apart from the number
        }
        StringBuilder text = new StringBuilder();
        int words = 10 + random.nextInt(50);
        for (int w = 0; w < words; w++) {
          text.append(w == 0 ? "" : w % 7 == 0 ? ". " : " ");
          // Stop words leave gaps in the positions the operator syntax's phrases must respect.
          text.append(
              random.nextInt(4) == 0
                  ? STOP_WORDS[random.nextInt(STOP_WORDS.length)]
                  : WORDS[random.nextInt(WORDS.length)]);
        }
        ops.add(
            SourceOperation.Index.text(
                "doc-" + (i + round * 5),
                random.nextBoolean() ? "apple notes" : null,
                text.append('.').toString(),
                Metadata.of(meta, "metadata")));
      }
      Mutation m = new Mutation(ops, "tester", null, null);
      embedded.apply(m);
      cluster.withCorpus("features", ix -> ix.apply(m));
    }
  }

  @AfterAll
  static void close() throws Exception {
    if (embedded != null) {
      embedded.close();
    }
    if (cluster != null) {
      cluster.delete("features");
      cluster.close();
    }
  }

  static SearchResult both(SearchRequest request, List<SearchResult> embeddedOut) {
    embeddedOut.add(embedded.search(request));
    return cluster.withCorpus("features", ix -> ix.search(request));
  }

  @Test
  void exactOnALexicalCorpus_isRefusedNamingIt_byBothStores() {
    SearchRequest exact = request("apple", List.of(), null, List.of(), null, false).withExact(true);
    QuarryException onDisk = assertThrows(QuarryException.class, () -> embedded.search(exact));
    QuarryException onCluster =
        assertThrows(
            QuarryException.class, () -> cluster.withCorpus("features", ix -> ix.search(exact)));
    for (QuarryException e : List.of(onDisk, onCluster)) {
      assertEquals(ErrorCode.INVALID_REQUEST, e.code());
      assertEquals("exact", e.field());
    }
    assertEquals(onDisk.getMessage(), onCluster.getMessage());
  }

  static SearchRequest request(
      String query,
      List<Filter> filters,
      Long revision,
      List<SearchRequest.Facet> facets,
      SearchRequest.Snippets snippets,
      boolean highlight) {
    return new SearchRequest(
        query,
        SourceScope.ALL,
        filters,
        SearchRequest.MAX_TOP_K,
        revision,
        null,
        highlight,
        null,
        null,
        facets,
        snippets,
        SearchRequest.Syntax.PLAIN);
  }

  /**
   * Each hit's snippet (with its text and highlights), keyed by chunk: hit order may differ between
   * the stores.
   */
  static TreeMap<String, String> snippets(SearchResult r) {
    TreeMap<String, String> out = new TreeMap<>();
    for (Hit h : r.hits()) {
      Snippet s = h.snippet();
      assertNotNull(s, "every hit has a snippet when asked");
      StringBuilder ranges = new StringBuilder();
      s.highlights().forEach(x -> ranges.append(Arrays.toString(x)));
      StringBuilder hl = new StringBuilder();
      h.highlights().forEach(x -> hl.append(Arrays.toString(x)));
      out.put(
          h.source() + "#" + h.chunk(),
          s.start()
              + "-"
              + s.end()
              + " "
              + s.text()
              + " "
              + ranges
              + " "
              + s.html()
              + " | hit highlights "
              + hl);
    }
    return out;
  }

  @Test
  void snippets_areTheEmbeddedStoresForTheSameChunks() {
    SearchRequest.Snippets html =
        new SearchRequest.Snippets(40, SearchRequest.Snippets.Markers.DEFAULT);
    SearchRequest.Snippets plain = new SearchRequest.Snippets(20, null);
    for (String q : List.of("apple", "river summit", "glaciers harbor kelp", "apple notes")) {
      for (SearchRequest.Snippets options : List.of(html, plain, SearchRequest.Snippets.DEFAULT)) {
        for (boolean highlight : new boolean[] {true, false}) {
          List<SearchResult> local = new ArrayList<>();
          SearchResult remote =
              both(request(q, List.of(), null, List.of(), options, highlight), local);
          assertFalse(remote.hits().isEmpty(), q);
          assertEquals(
              snippets(local.get(0)),
              snippets(remote),
              q + " " + options + " highlight " + highlight);
        }
      }
    }
    // A window really cut from a longer chunk, with its matches marked and an ellipsis where it
    // cuts.
    Hit hit =
        cluster
            .withCorpus(
                "features",
                ix -> ix.search(request("tundra", List.of(), null, List.of(), html, false)))
            .hits()
            .stream()
            .filter(h -> h.text().length() > 60)
            .findFirst()
            .orElseThrow();
    Snippet s = hit.snippet();
    assertTrue(hit.highlights().isEmpty(), "no hit highlights without highlight");
    assertEquals(hit.text().substring(s.start(), s.end()), s.text());
    assertFalse(s.highlights().isEmpty());
    assertEquals(
        "tundra",
        s.text().substring(s.highlights().get(0)[0], s.highlights().get(0)[1]).toLowerCase());
    assertTrue(s.html().contains("<mark>"), s.html());
    assertTrue(s.html().startsWith("\u2026") || s.html().endsWith("\u2026"), s.html());
    // Without a snippet asked, none.
    assertNull(
        cluster
            .withCorpus(
                "features",
                ix -> ix.search(request("tundra", List.of(), null, List.of(), null, true)))
            .hits()
            .get(0)
            .snippet());
  }

  @Test
  void facets_countTheSameSourcesAsTheEmbeddedStore() {
    List<SearchRequest.Facet> facets =
        List.of(
            new SearchRequest.Facet("department"),
            new SearchRequest.Facet("year", 3),
            new SearchRequest.Facet("score"),
            new SearchRequest.Facet("draft"),
            new SearchRequest.Facet("tags", 2),
            new SearchRequest.Facet("code"),
            new SearchRequest.Facet("nowhere"));
    List<List<Filter>> filters =
        List.of(
            List.of(),
            List.of(new Filter.Equals("draft", true)),
            List.of(new Filter.Range("year", null, 2021.0, null, null)),
            List.of(new Filter.Not(new Filter.Equals("department", "hr"))));
    int nonEmpty = 0;
    for (String q : List.of("apple", "river summit", "kelp", "the", "apple notes meadow")) {
      for (List<Filter> f : filters) {
        for (Long revision : new Long[] {null, 1L, 2L}) {
          List<SearchResult> local = new ArrayList<>();
          SearchResult remote = both(request(q, f, revision, facets, null, false), local);
          assertEquals(local.get(0).facets(), remote.facets(), q + " " + f + " at " + revision);
          assertEquals(facets.size(), remote.facets().size());
          nonEmpty += remote.facets().get(0).values().isEmpty() ? 0 : 1;
        }
      }
    }
    assertTrue(nonEmpty > 20, "most searches count something: " + nonEmpty);
    // Sources, not chunks: a count never exceeds the sources with a matching chunk.
    SearchResult r =
        cluster.withCorpus(
            "features",
            ix ->
                ix.search(
                    request(
                        "apple",
                        List.of(),
                        null,
                        List.of(new SearchRequest.Facet("draft")),
                        null,
                        false)));
    long sources = r.hits().stream().map(Hit::source).distinct().count();
    long counted = r.facets().get(0).values().stream().mapToLong(FacetCounts.Value::count).sum();
    assertEquals(sources, counted, "every matching source holds exactly one draft value");
    assertTrue(r.hits().size() > sources, "several chunks of one source match, counted once");
    assertEquals(
        List.of(),
        cluster
            .withCorpus(
                "features",
                ix ->
                    ix.search(
                        request(
                            "nothingmatches",
                            List.of(),
                            null,
                            List.of(new SearchRequest.Facet("draft")),
                            null,
                            false)))
            .facets()
            .get(0)
            .values());
  }

  @Test
  void facetCounts_doNotDependOnTheAggregationsPageSize() {
    List<SearchRequest.Facet> facets =
        List.of(
            new SearchRequest.Facet("department", 100),
            new SearchRequest.Facet("year"),
            new SearchRequest.Facet("tags", 100),
            new SearchRequest.Facet("draft"));
    ClusterHttp http = new ClusterHttp(clusterSettings.urls(), clusterSettings.requestTimeout());
    String index = cluster.withCorpus("features", ix -> ((ClusterCorpusIndex) ix).indexName());
    long latest = cluster.withCorpus("features", CorpusIndex::revision);
    var everyChunk = ClusterHttp.MAPPER.createObjectNode();
    var filter = everyChunk.putObject("bool").putArray("filter");
    filter.add(CorpusDocs.term("kind", "chunk"));
    filter.add(CorpusDocs.visibleAt(latest));
    List<FacetCounts> whole = ClusterFacets.count(http, index, everyChunk, facets);
    assertEquals(
        whole, ClusterFacets.count(http, index, everyChunk, facets, 3), "pages of 3 pairs");
    assertEquals(whole, ClusterFacets.count(http, index, everyChunk, facets, 1), "pages of 1 pair");
    long sources = cluster.withCorpus("features", ix -> ix.countSources(null));
    assertEquals(sources, whole.get(3).values().stream().mapToLong(FacetCounts.Value::count).sum());
  }

  /**
   * The chunks a search matches, by source and chunk (at most topK: the test's queries match
   * fewer).
   */
  static java.util.TreeSet<String> matched(SearchResult r) {
    assertTrue(
        r.hits().size() < SearchRequest.MAX_TOP_K,
        "more matches than topK: the sets cannot be compared");
    java.util.TreeSet<String> out = new java.util.TreeSet<>();
    r.hits().forEach(h -> out.add(h.source() + "#" + h.chunk() + "@" + h.sourceRevision()));
    return out;
  }

  @Test
  void theOperatorSyntax_matchesTheSameChunksAsTheEmbeddedStore() {
    List<SearchRequest.Facet> facets =
        List.of(new SearchRequest.Facet("department"), new SearchRequest.Facet("year"));
    int nonEmpty = 0;
    for (String q :
        List.of(
            "\"river summit\"",
            "\"river of summit\"",
            "\"river the summit\" kelp",
            "\"apple and banana\"",
            "+apple +banana",
            "+apple -banana",
            "cherry -\"the apple\"",
            "+\"apple notes\" river",
            "river -notes",
            "-apple",
            "-\"of the\" apple",
            "\"of the\"",
            "\"river summit",
            "delta -\"delta echo\" -fjord",
            "+\"glaciers harbors\"",
            "+the kelp",
            "kelp -the")) {
      for (Long revision : new Long[] {null, 1L}) {
        SearchRequest request =
            request(q, List.of(), revision, facets, SearchRequest.Snippets.DEFAULT, true)
                .withSyntax(SearchRequest.Syntax.OPERATORS);
        List<SearchResult> local = new ArrayList<>();
        SearchResult remote = both(request, local);
        assertEquals(matched(local.get(0)), matched(remote), q + " at " + revision);
        assertEquals(local.get(0).facets(), remote.facets(), q + " at " + revision);
        assertEquals(snippets(local.get(0)), snippets(remote), q + " at " + revision);
        nonEmpty += remote.hits().isEmpty() ? 0 : 1;
      }
    }
    assertTrue(nonEmpty > 15, "most searches match something: " + nonEmpty);
    // A phrase is a phrase: its words apart do not match it.
    SearchRequest apart =
        request("+\"summit river\"", List.of(), null, List.of(), null, true)
            .withSyntax(SearchRequest.Syntax.OPERATORS);
    for (Hit h : cluster.withCorpus("features", ix -> ix.search(apart)).hits()) {
      // The analyzer drops punctuation, so a phrase runs across it, in both stores.
      assertTrue(
          h.text().toLowerCase().replaceAll("[^a-z ]", "").contains("summit river"), h.text());
    }
  }

  @Test
  void theOperatorSyntax_isRefusedByNameOnACorpusIndexedWithoutPhrases() {
    ClusterHttp http = new ClusterHttp(clusterSettings.urls(), clusterSettings.requestTimeout());
    cluster.create("older", CorpusSettings.DEFAULT);
    try {
      // An index as created before phrases were indexed: the same index without the phrase fields.
      String index = cluster.withCorpus("older", ix -> ((ClusterCorpusIndex) ix).indexName());
      http.send("DELETE", "/" + index, null, null);
      var body = CorpusDocs.indexBody(CorpusSettings.DEFAULT, clusterSettings);
      var props =
          (com.fasterxml.jackson.databind.node.ObjectNode) body.path("mappings").path("properties");
      props.remove(List.of("phrase_tokens", "title_phrase_tokens"));
      http.json("PUT", "/" + index, body).require("test index");
      http.json(
              "PUT",
              "/" + index + "/_doc/" + CorpusDocs.HEAD_ID + "?refresh=true",
              CorpusHead.body(0, null))
          .require("test head");
      QuarryException e =
          assertThrows(
              QuarryException.class,
              () ->
                  cluster.withCorpus(
                      "older",
                      ix ->
                          ix.search(
                              request("\"apple banana\"", List.of(), null, List.of(), null, false)
                                  .withSyntax(SearchRequest.Syntax.OPERATORS))));
      assertEquals(ErrorCode.INVALID_REQUEST, e.code());
      assertEquals("syntax", e.field());
      assertTrue(
          cluster
              .withCorpus(
                  "older",
                  ix -> ix.search(request("apple", List.of(), null, List.of(), null, false)))
              .hits()
              .isEmpty(),
          "plain searches still answer");
    } finally {
      cluster.delete("older");
    }
  }

  @Test
  void aLanguageWhoseAnalysisStacksTerms_isRefusedByName_andNothingIsCreated() {
    CorpusSettings ukrainian =
        new CorpusSettings(
            CorpusSettings.Language.UKRAINIAN,
            CorpusSettings.Chunking.DEFAULT,
            CorpusSettings.Ranking.DEFAULT);
    QuarryException e =
        assertThrows(QuarryException.class, () -> cluster.create("ukrainian", ukrainian));
    assertEquals(ErrorCode.INVALID_REQUEST, e.code());
    assertEquals("settings.language", e.field());
    assertTrue(cluster.info("ukrainian").isEmpty(), "a refused corpus leaves nothing behind");
  }

  @Test
  void autoLanguage_isRefusedByName_andNothingIsCreated() {
    CorpusSettings auto =
        new CorpusSettings(
            CorpusSettings.Language.AUTO,
            CorpusSettings.Chunking.DEFAULT,
            CorpusSettings.Ranking.DEFAULT);
    QuarryException e = assertThrows(QuarryException.class, () -> cluster.create("auto", auto));
    assertEquals(ErrorCode.INVALID_REQUEST, e.code());
    assertEquals("settings.language", e.field());
    assertTrue(cluster.info("auto").isEmpty(), "a refused corpus leaves nothing behind");
  }
}
