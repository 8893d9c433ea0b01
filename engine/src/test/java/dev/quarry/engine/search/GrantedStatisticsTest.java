package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.quarry.engine.Hit;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.index.IndexSnapshot;
import dev.quarry.engine.search.TestCorpus.Source;
import dev.quarry.testing.TestSeed;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search whose statistics are a grant's sources scores exactly as a search of a corpus holding
 * only those sources: no score depends on a chunk outside them (what the grant's holder may not
 * see), at any revision, whatever the segment layout and merges; a search over every source scores
 * as before.
 */
@ExtendWith(TestSeed.class)
class GrantedStatisticsTest {
  static final List<String> WORDS =
      List.of("apple", "banana", "cherry", "delta", "elder", "fig", "grape", "hazel");
  static final List<String> QUERIES =
      List.of("apple", "banana cherry", "fig grape hazel apple", "delta delta elder");

  @TempDir Path dir;

  private static SearchRequest search(
      String query, SourceScope scope, SourceScope statistics, Long revision) {
    return new SearchRequest(query, scope, List.of(), SearchRequest.MAX_TOP_K, revision, null, true)
        .withStatistics(statistics);
  }

  private static SearchResult run(
      TestCorpus corpus, RevisionSearcher searcher, SearchRequest request) throws IOException {
    IndexSnapshot snapshot = corpus.snapshot();
    try {
      return searcher.search(snapshot, request);
    } finally {
      snapshot.release();
    }
  }

  /**
   * Every hit's place, score (its bits), highlights and text: not the revision, which differs
   * between corpora.
   */
  private static String rendered(SearchResult result) {
    return result.hits().stream()
        .map(GrantedStatisticsTest::rendered)
        .collect(Collectors.joining("\n"));
  }

  private static String rendered(Hit h) {
    return h.source()
        + "#"
        + h.chunk()
        + " "
        + Integer.toHexString(Float.floatToIntBits(h.score()))
        + " hl="
        + h.highlights().stream().map(r -> r[0] + "-" + r[1]).collect(Collectors.joining(","))
        + " "
        + h.text();
  }

  /**
   * The issue's probe: a word also in hidden sources scores as one that is not, for a grant that
   * excludes them.
   */
  @Test
  void aWordInHiddenSources_scoresAsAWordNowhereElse() throws IOException {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      corpus.index(new Source("public/probe.md", "acquisition zebraword berlin qqqxyz"));
      corpus.index(
          new Source("secret/deal.md", "acquisition of a company in berlin"),
          new Source("secret/more.md", "the berlin acquisition closes"));
      RevisionSearcher searcher = corpus.newSearcher();
      SourceScope granted = new SourceScope(List.of("public/*"));
      Map<String, Float> restricted = new TreeMap<>();
      Map<String, Float> everything = new TreeMap<>();
      for (String word : List.of("acquisition", "zebraword", "berlin", "qqqxyz")) {
        for (SourceScope scope : List.of(granted, new SourceScope(List.of("public/probe.md")))) {
          SearchResult r = run(corpus, searcher, search(word, scope, granted, null));
          assertEquals(1, r.hits().size(), word);
          restricted.merge(
              word,
              r.hits().get(0).score(),
              (a, b) -> {
                assertEquals(
                    a, b, "the request's own sources filter does not change the statistics");
                return a;
              });
        }
        everything.put(
            word,
            run(corpus, searcher, search(word, granted, SourceScope.ALL, null))
                .hits()
                .get(0)
                .score());
      }
      assertEquals(1, restricted.values().stream().distinct().count(), restricted.toString());
      // Over every source (a caller who may see them all), the hidden chunks count, as before.
      assertNotEquals(
          everything.get("acquisition"), everything.get("zebraword"), everything.toString());
      assertEquals(everything.get("zebraword"), everything.get("qqqxyz"));
    }
  }

  /**
   * Random writes to granted and other sources, random segment layouts and merges: at every
   * revision searched, a grant's statistics give the scores a corpus holding only the granted
   * sources' chunks gives with every source's statistics, and a pinned search by the grant answers
   * the same after later writes (to any source) and a merge.
   */
  @Test
  void grantedStatistics_scoreAsACorpusOfTheGrantedSourcesOnly(Random random) throws IOException {
    List<String> ids = List.of("pub/a", "pub/b", "pub/c", "pub2/d", "sec/e", "sec/f", "sec/g", "x");
    List<SourceScope> grants =
        List.of(
            new SourceScope(List.of("pub/*")),
            new SourceScope(List.of("pub/*", "pub2/d")),
            new SourceScope(List.of("sec/f", "pub/b", "x")),
            new SourceScope(List.of("pu*")));
    SourceScope grant = grants.get(random.nextInt(grants.size()));
    Map<Long, Map<String, String>> pinned = new HashMap<>();
    try (TestCorpus corpus = new TestCorpus(dir.resolve("all"), random)) {
      Map<String, Source> live = new TreeMap<>();
      RevisionSearcher searcher = corpus.newSearcher();
      for (int round = 0; round < 16; round++) {
        String id = ids.get(random.nextInt(ids.size()));
        if (random.nextInt(5) == 0 && live.containsKey(id)) {
          corpus.delete(id);
          live.remove(id);
        } else {
          List<String> chunks = new ArrayList<>();
          for (int c = 0, n = 1 + random.nextInt(3); c < n; c++) {
            chunks.add(RevisionSearchTest.sentence(random, WORDS, 3 + random.nextInt(12)));
          }
          Source s = new Source(id, chunks.toArray(String[]::new));
          if (random.nextBoolean()) {
            s = s.withTitle(RevisionSearchTest.sentence(random, WORDS, 1 + random.nextInt(3)));
          }
          corpus.index(s);
          live.put(id, s);
        }
        if (round % 3 == 2) {
          Map<String, String> answers = answers(corpus, searcher, grant, null);
          assertEquals(
              answers, answersOfGrantedOnly(live, grant, round), "revision " + corpus.revision());
          pinned.put(corpus.revision(), answers);
        }
      }
      corpus.forceMerge(1);
      RevisionSearcher fresh = corpus.newSearcher();
      for (Map.Entry<Long, Map<String, String>> e : pinned.entrySet()) {
        assertEquals(
            e.getValue(), answers(corpus, fresh, grant, e.getKey()), "pinned at " + e.getKey());
        assertEquals(
            e.getValue(), answers(corpus, searcher, grant, e.getKey()), "pinned at " + e.getKey());
      }
    }
  }

  private static Map<String, String> answers(
      TestCorpus corpus, RevisionSearcher searcher, SourceScope grant, Long revision)
      throws IOException {
    Map<String, String> out = new TreeMap<>();
    for (String q : QUERIES) {
      out.put(q, rendered(run(corpus, searcher, search(q, grant, grant, revision))));
    }
    return out;
  }

  private Map<String, String> answersOfGrantedOnly(
      Map<String, Source> live, SourceScope grant, int round) throws IOException {
    try (TestCorpus only = new TestCorpus(dir.resolve("only-" + round))) {
      List<Source> granted = live.values().stream().filter(s -> grant.contains(s.id())).toList();
      if (!granted.isEmpty()) {
        only.index(granted.toArray(Source[]::new));
      }
      RevisionSearcher searcher = only.newSearcher();
      Map<String, String> out = new TreeMap<>();
      for (String q : QUERIES) {
        out.put(
            q, rendered(run(only, searcher, search(q, SourceScope.ALL, SourceScope.ALL, null))));
      }
      return out;
    }
  }
}
