package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quarry.engine.Filter;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.index.IndexSnapshot;
import dev.quarry.engine.search.TestCorpus.Source;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Scope and metadata filters narrow the matches inside Lucene, before the top-k is taken. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SearchFiltersTest {
  private TestCorpus corpus;
  private IndexSnapshot snapshot;
  private RevisionSearcher searcher;

  @BeforeAll
  void indexCorpus(@TempDir Path dir) throws IOException {
    corpus = new TestCorpus(dir);
    // The best-scoring chunks (many "budget" occurrences) are outside every narrow filter below,
    // so a filter applied after a top-1 would return nothing.
    corpus.index(
        new Source("public/a", "budget budget budget budget")
            .withMetadata(
                Map.of(
                    "dept",
                    "finance",
                    "year",
                    2019L,
                    "draft",
                    true,
                    "tags",
                    List.of("money", "plan"))));
    corpus.index(
        new Source("public/b", "budget report")
            .withMetadata(
                Map.of(
                    "dept",
                    "hr",
                    "year",
                    2020L,
                    "draft",
                    false,
                    "tags",
                    List.of("people"),
                    "score",
                    0.5)));
    corpus.index(
        new Source("policies/leave", "budget for leave")
            .withMetadata(Map.of("dept", "hr", "year", 2021L, "score", 1.5)));
    corpus.index(
        new Source("policies/leave-old", "budget budget budget"),
        new Source("private/x", "budget budget budget budget budget")
            .withMetadata(Map.of("year", 2022.0)));
    snapshot = corpus.snapshot();
    searcher = corpus.newSearcher();
  }

  @AfterAll
  void close() throws IOException {
    snapshot.release();
    corpus.close();
  }

  private List<String> sources(SourceScope scope, Filter... filters) {
    SearchRequest request =
        new SearchRequest("budget", scope, List.of(filters), 1, null, null, false);
    List<String> firstOnly = new ArrayList<>();
    searcher.search(snapshot, request).hits().forEach(h -> firstOnly.add(h.source()));
    SearchRequest all =
        new SearchRequest("budget", scope, List.of(filters), 100, null, null, false);
    List<String> out = new ArrayList<>();
    searcher.search(snapshot, all).hits().forEach(h -> out.add(h.source()));
    assertEquals(
        out.isEmpty() ? List.of() : List.of(out.get(0)), firstOnly, "top-1 is the first of all");
    return out.stream().sorted().toList();
  }

  private List<String> sources(Filter... filters) {
    return sources(SourceScope.ALL, filters);
  }

  @Test
  void scope_exactId_matchesOnlyThatSource() {
    assertEquals(List.of("policies/leave"), sources(new SourceScope(List.of("policies/leave"))));
  }

  @Test
  void scope_prefix_matchesSourcesStartingWithIt() {
    assertEquals(
        List.of("policies/leave", "policies/leave-old"),
        sources(new SourceScope(List.of("policies/*"))));
  }

  @Test
  void scope_mixedEntries_matchesTheirUnion() {
    assertEquals(
        List.of("policies/leave", "public/a", "public/b"),
        sources(new SourceScope(List.of("public/*", "policies/leave", "nothing/here"))));
  }

  @Test
  void scope_unspecified_matchesEverything() {
    assertEquals(
        List.of("policies/leave", "policies/leave-old", "private/x", "public/a", "public/b"),
        sources(SourceScope.ALL));
  }

  @Test
  void equalsFilter_onString_matchesThatValue() {
    assertEquals(List.of("policies/leave", "public/b"), sources(new Filter.Equals("dept", "hr")));
  }

  @Test
  void equalsFilter_onBoolean_matchesThatValue() {
    assertEquals(List.of("public/b"), sources(new Filter.Equals("draft", false)));
  }

  @Test
  void equalsFilter_onListValuedMetadata_matchesAnyElement() {
    assertEquals(List.of("public/a"), sources(new Filter.Equals("tags", "plan")));
  }

  @Test
  void equalsFilter_onNumber_matchesIntegersAndDoublesAlike() {
    assertEquals(List.of("public/b"), sources(new Filter.Equals("year", 2020.0)));
    assertEquals(List.of("private/x"), sources(new Filter.Equals("year", 2022L)));
  }

  @Test
  void inFilter_matchesAnyListedValue() {
    assertEquals(
        List.of("policies/leave", "public/a"),
        sources(new Filter.In("year", List.of(2019L, 2021.0, "2020"))));
    assertEquals(
        List.of("public/a", "public/b"),
        sources(new Filter.In("tags", List.of("people", "money"))));
    assertEquals(List.of(), sources(new Filter.In("tags", List.of())));
  }

  @Test
  void rangeFilter_exclusiveBounds_excludeTheBound() {
    assertEquals(
        List.of("policies/leave"), sources(new Filter.Range("year", 2020.0, null, 2022.0, null)));
    assertEquals(
        List.of("policies/leave", "private/x", "public/b"),
        sources(new Filter.Range("year", null, 2020.0, null, 2022.0)));
    assertEquals(List.of("public/b"), sources(new Filter.Range("score", null, null, 1.5, null)));
    assertEquals(List.of(), sources(new Filter.Range("year", 2021.0, null, 2021.5, null)));
  }

  @Test
  void filters_combineWithAnd() {
    assertEquals(
        List.of("policies/leave"),
        sources(
            new SourceScope(List.of("policies/*")),
            new Filter.Equals("dept", "hr"),
            new Filter.Range("year", null, 2021.0, null, null)));
  }

  @Test
  void orFilter_matchesEitherSide() {
    assertEquals(
        List.of("private/x", "public/a"),
        sources(
            new Filter.AnyOf(
                List.of(
                    new Filter.Equals("dept", "finance"),
                    new Filter.Range("year", null, 2022.0, null, null)))));
  }

  @Test
  void notFilter_matchesChunksWithoutTheField() {
    // Sources without "dept" at all are kept, as Elasticsearch's must_not keeps them.
    assertEquals(
        List.of("policies/leave-old", "private/x", "public/a"),
        sources(new Filter.Not(new Filter.Equals("dept", "hr"))));
    assertEquals(
        List.of("policies/leave", "policies/leave-old", "private/x"),
        sources(
            new Filter.Not(new Filter.Equals("tags", "money")),
            new Filter.Not(new Filter.Equals("tags", "people"))));
  }

  @Test
  void existsFilter_matchesAnyValueOfAnyType() {
    assertEquals(
        List.of("policies/leave", "public/a", "public/b"), sources(new Filter.Exists("dept")));
    assertEquals(
        List.of("policies/leave", "private/x", "public/a", "public/b"),
        sources(new Filter.Exists("year")));
    assertEquals(List.of("public/a", "public/b"), sources(new Filter.Exists("draft")));
    assertEquals(List.of("public/a", "public/b"), sources(new Filter.Exists("tags")));
    assertEquals(
        List.of("policies/leave-old", "private/x"),
        sources(new Filter.Not(new Filter.Exists("dept"))));
    assertEquals(List.of(), sources(new Filter.Exists("nowhere")));
  }

  @Test
  void prefixFilter_matchesStringsAndListElementsThatStartWithIt() {
    assertEquals(List.of("public/a"), sources(new Filter.Prefix("dept", "fin")));
    assertEquals(List.of("public/a", "public/b"), sources(new Filter.Prefix("tags", "p")));
    assertEquals(
        List.of(), sources(new Filter.Prefix("dept", "HR")), "exact characters: no case folding");
    assertEquals(List.of(), sources(new Filter.Prefix("year", "20")), "numbers have no prefix");
  }

  @Test
  void operators_nest() {
    // (dept = hr and not draft) or (tags starts with "mo" and year < 2020)
    Filter nested =
        new Filter.AnyOf(
            List.of(
                new Filter.AllOf(
                    List.of(
                        new Filter.Equals("dept", "hr"),
                        new Filter.Not(new Filter.Equals("draft", true)))),
                new Filter.AllOf(
                    List.of(
                        new Filter.Prefix("tags", "mo"),
                        new Filter.Range("year", null, null, 2020.0, null)))));
    assertEquals(List.of("policies/leave", "public/a", "public/b"), sources(nested));
    assertEquals(List.of("policies/leave-old", "private/x"), sources(new Filter.Not(nested)));
  }

  @Test
  void operators_deeperThanTheBound_areRefusedNamingTheFilter() {
    Filter f = new Filter.Equals("dept", "hr");
    for (int i = 0; i < Filter.MAX_DEPTH; i++) {
      f = new Filter.Not(f);
    }
    assertEquals(
        List.of("policies/leave", "public/b"),
        sources(f),
        "an even number of nots is the condition itself");
    Filter tooDeep = new Filter.AnyOf(List.of(f));
    dev.quarry.engine.QuarryException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            dev.quarry.engine.QuarryException.class, () -> sources(tooDeep));
    assertEquals("filter", e.field());
  }

  @Test
  void notAndExists_atAPinnedRevision_seeThatRevisionsMetadata(@TempDir Path dir)
      throws IOException {
    try (TestCorpus c = new TestCorpus(dir)) {
      long first =
          c.index(
              new Source("a", "budget").withMetadata(Map.of("status", "draft")),
              new Source("b", "budget"));
      c.index(
          new Source("a", "budget").withMetadata(Map.of("status", "final")),
          new Source("b", "budget").withMetadata(Map.of("status", "draft")));
      IndexSnapshot s = c.snapshot();
      try {
        RevisionSearcher r = c.newSearcher();
        Filter notDraft = new Filter.Not(new Filter.Prefix("status", "dra"));
        Filter missing = new Filter.Not(new Filter.Exists("status"));
        assertEquals(List.of("b"), hits(r, s, first, notDraft));
        assertEquals(List.of("b"), hits(r, s, first, missing));
        assertEquals(List.of("a"), hits(r, s, null, notDraft));
        assertEquals(List.of(), hits(r, s, null, missing));
      } finally {
        s.release();
      }
    }
  }

  private static List<String> hits(
      RevisionSearcher r, IndexSnapshot s, Long revision, Filter filter) {
    SearchRequest request =
        new SearchRequest("budget", SourceScope.ALL, List.of(filter), 10, revision, null, false);
    return r.search(s, request).hits().stream()
        .map(dev.quarry.engine.Hit::source)
        .sorted()
        .toList();
  }
}
