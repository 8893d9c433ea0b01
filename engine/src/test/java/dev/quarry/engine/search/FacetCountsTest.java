package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.quarry.engine.FacetCounts;
import dev.quarry.engine.Filter;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.index.IndexSnapshot;
import dev.quarry.engine.search.TestCorpus.Source;
import dev.quarry.testing.TestSeed;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Facet counts: distinct sources per value over every match, exact, ordered totally, at a revision.
 */
@ExtendWith(TestSeed.class)
class FacetCountsTest {
  @TempDir Path dir;

  private static SearchRequest request(
      String query, Long revision, List<Filter> filters, SearchRequest.Facet... facets) {
    return new SearchRequest(
        query, SourceScope.ALL, filters, 1, revision, null, false, null, null, List.of(facets));
  }

  /** The counts as "value=count" strings, with distinctValues last. */
  private static List<String> counts(SearchResult result, int facet) {
    FacetCounts counts = result.facets().get(facet);
    List<String> out = new ArrayList<>();
    counts.values().forEach(v -> out.add(v.value() + "=" + v.count()));
    out.add("distinct=" + counts.distinctValues());
    return out;
  }

  @Test
  void facets_countDistinctSourcesOverEveryMatch_notChunksOrTheTopK() throws IOException {
    try (TestCorpus c = new TestCorpus(dir)) {
      c.index(
          new Source("a", "budget one", "budget two", "budget three")
              .withMetadata(Map.of("dept", "hr")),
          new Source("b", "budget").withMetadata(Map.of("dept", "hr")),
          new Source("c", "budget").withMetadata(Map.of("dept", "it")),
          new Source("d", "nothing to see").withMetadata(Map.of("dept", "it")));
      IndexSnapshot s = c.snapshot();
      try {
        SearchResult r =
            c.newSearcher()
                .search(s, request("budget", null, List.of(), new SearchRequest.Facet("dept")));
        assertEquals(1, r.hits().size(), "topK 1; facets still count every match");
        assertEquals(List.of("hr=2", "it=1", "distinct=2"), counts(r, 0));
      } finally {
        s.release();
      }
    }
  }

  @Test
  void facets_typeValues_andOrderTiesNumbersFirstThenCodePoints() throws IOException {
    try (TestCorpus c = new TestCorpus(dir)) {
      c.index(
          new Source("a", "budget")
              .withMetadata(
                  Map.of("k", List.of("zeta", "Alpha", "émile"), "year", 2020L, "ok", true)),
          new Source("b", "budget").withMetadata(Map.of("k", "beta", "year", 2019.5, "ok", false)),
          new Source("c", "budget").withMetadata(Map.of("k", 7L, "year", 2020.0)),
          new Source("d", "budget").withMetadata(Map.of("k", "zeta")));
      IndexSnapshot s = c.snapshot();
      try {
        SearchResult r =
            c.newSearcher()
                .search(
                    s,
                    request(
                        "budget",
                        null,
                        List.of(),
                        new SearchRequest.Facet("k"),
                        new SearchRequest.Facet("year", 1),
                        new SearchRequest.Facet("ok"),
                        new SearchRequest.Facet("missing")));
        assertEquals(
            List.of("zeta=2", "7=1", "Alpha=1", "beta=1", "émile=1", "distinct=5"), counts(r, 0));
        assertEquals(Long.class, r.facets().get(0).values().get(1).value().getClass());
        assertEquals(List.of("2020=2", "distinct=2"), counts(r, 1));
        assertEquals(List.of("false=1", "true=1", "distinct=2"), counts(r, 2));
        assertEquals(List.of("distinct=0"), counts(r, 3));
        assertEquals("missing", r.facets().get(3).field());
      } finally {
        s.release();
      }
    }
  }

  @Test
  void facets_followFiltersAndScope_andAValueUsedAsAFilterSelectsExactlyItsSources()
      throws IOException {
    try (TestCorpus c = new TestCorpus(dir)) {
      c.index(
          new Source("public/a", "budget").withMetadata(Map.of("dept", "hr", "year", 2020L)),
          new Source("public/b", "budget").withMetadata(Map.of("dept", "it", "year", 2021L)),
          new Source("private/c", "budget").withMetadata(Map.of("dept", "hr", "year", 2021L)));
      IndexSnapshot s = c.snapshot();
      try {
        RevisionSearcher searcher = c.newSearcher();
        SearchRequest scoped =
            new SearchRequest(
                "budget",
                new SourceScope(List.of("public/*")),
                List.of(new Filter.Range("year", null, 2021.0, null, null)),
                10,
                null,
                null,
                false,
                null,
                null,
                List.of(new SearchRequest.Facet("dept")));
        assertEquals(List.of("it=1", "distinct=1"), counts(searcher.search(s, scoped), 0));
        SearchResult all =
            searcher.search(s, request("budget", null, List.of(), new SearchRequest.Facet("year")));
        for (FacetCounts.Value v : all.facets().get(0).values()) {
          Object value = v.value();
          SearchRequest filtered =
              new SearchRequest(
                  "budget",
                  SourceScope.ALL,
                  List.of(new Filter.Equals("year", value)),
                  100,
                  null,
                  null,
                  false);
          assertEquals(v.count(), searcher.search(s, filtered).hits().size(), "year " + value);
        }
      } finally {
        s.release();
      }
    }
  }

  @Test
  void facets_withoutAnyMatch_areEmpty_butPresent() throws IOException {
    try (TestCorpus c = new TestCorpus(dir)) {
      c.index(new Source("a", "budget").withMetadata(Map.of("dept", "hr")));
      IndexSnapshot s = c.snapshot();
      try {
        SearchResult r =
            c.newSearcher()
                .search(s, request("the", null, List.of(), new SearchRequest.Facet("dept")));
        assertEquals(List.of("distinct=0"), counts(r, 0), "a query of stop words matches nothing");
        r =
            c.newSearcher()
                .search(
                    s, request("unknownword", null, List.of(), new SearchRequest.Facet("dept")));
        assertEquals(List.of("distinct=0"), counts(r, 0));
      } finally {
        s.release();
      }
    }
  }

  @Test
  void pinnedFacets_areTheRevisionsCounts_whateverWasWrittenOrMergedSince(Random random)
      throws IOException {
    try (TestCorpus c = new TestCorpus(dir, random)) {
      Map<String, String> depts = new LinkedHashMap<>();
      for (int i = 0; i < 40; i++) {
        String dept = "d" + random.nextInt(6);
        depts.put("s" + i, dept);
        c.index(
            new Source("s" + i, "budget " + "word".repeat(1 + random.nextInt(3)))
                .withMetadata(Map.of("dept", dept)));
      }
      long pinned = c.revision();
      SearchRequest req = request("budget", pinned, List.of(), new SearchRequest.Facet("dept", 3));
      IndexSnapshot before = c.snapshot();
      List<String> expected;
      try {
        expected = counts(c.newSearcher().search(before, req), 0);
      } finally {
        before.release();
      }
      Map<String, Integer> byDept = new java.util.TreeMap<>();
      depts.values().forEach(d -> byDept.merge(d, 1, Integer::sum));
      List<Map.Entry<String, Integer>> order = new ArrayList<>(byDept.entrySet());
      order.sort(
          Map.Entry.<String, Integer>comparingByValue()
              .reversed()
              .thenComparing(Map.Entry.comparingByKey()));
      List<String> computed = new ArrayList<>();
      order.stream().limit(3).forEach(e -> computed.add(e.getKey() + "=" + e.getValue()));
      computed.add("distinct=" + byDept.size());
      assertEquals(computed, expected, "the counts are exact");
      for (int i = 0; i < 20; i++) {
        c.index(
            new Source("s" + random.nextInt(40), "budget later")
                .withMetadata(Map.of("dept", "later")));
      }
      c.delete("s0");
      c.forceMerge(1);
      IndexSnapshot after = c.snapshot(0);
      try {
        assertEquals(expected, counts(c.newSearcher().search(after, req), 0));
      } finally {
        after.release();
      }
    }
  }

  @Test
  void facetRequests_areBounded() {
    assertThrows(QuarryException.class, () -> new SearchRequest.Facet("dept", 0));
    assertThrows(
        QuarryException.class,
        () -> new SearchRequest.Facet("dept", SearchRequest.Facet.MAX_SIZE + 1));
    assertThrows(QuarryException.class, () -> new SearchRequest.Facet("bad key!"));
    QuarryException twice =
        assertThrows(
            QuarryException.class,
            () ->
                request(
                    "q",
                    null,
                    List.of(),
                    new SearchRequest.Facet("dept"),
                    new SearchRequest.Facet("dept", 3)));
    assertEquals("facets", twice.field());
  }
}
