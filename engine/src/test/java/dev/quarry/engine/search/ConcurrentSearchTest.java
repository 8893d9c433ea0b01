package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.index.IndexSnapshot;
import dev.quarry.engine.search.TestCorpus.Source;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One searcher serves concurrent searches at several revisions, each as if it ran alone. */
class ConcurrentSearchTest {
  @TempDir Path dir;

  @Test
  void concurrentSearches_atDifferentRevisions_answerAsSequentialOnes() throws Exception {
    try (TestCorpus corpus = new TestCorpus(dir)) {
      Random random = new Random(11);
      List<String> words = List.of("alpha", "beta", "gamma", "delta", "omega", "sigma");
      for (int round = 0; round < 8; round++) {
        List<String> ids = RevisionSearchTest.distinctIds(random, "s", 6, 2);
        corpus.index(
            new Source(ids.get(0), RevisionSearchTest.sentence(random, words, 7)),
            new Source(ids.get(1), RevisionSearchTest.sentence(random, words, 4)));
      }
      List<SearchRequest> requests = new ArrayList<>();
      for (long rev = 1; rev <= corpus.revision(); rev++) {
        for (String query : List.of("alpha beta", "omega", "gamma sigma delta")) {
          requests.add(new SearchRequest(query, SourceScope.ALL, List.of(), 5, rev, null, true));
        }
      }
      IndexSnapshot snapshot = corpus.snapshot();
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<String> expected = new ArrayList<>();
        RevisionSearcher sequential = corpus.newSearcher();
        for (SearchRequest request : requests) {
          expected.add(Results.render(sequential.search(snapshot, request)));
        }
        RevisionSearcher shared = corpus.newSearcher();
        List<Future<String>> answers = new ArrayList<>();
        for (int repeat = 0; repeat < 4; repeat++) {
          for (SearchRequest request : requests) {
            answers.add(pool.submit(() -> Results.render(shared.search(snapshot, request))));
          }
        }
        for (int i = 0; i < answers.size(); i++) {
          assertEquals(expected.get(i % requests.size()), answers.get(i).get());
        }
      } finally {
        pool.shutdown();
        snapshot.release();
      }
    }
  }
}
