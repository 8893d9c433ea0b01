package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.index.IndexSnapshot;
import dev.quarry.engine.search.TestCorpus.Source;
import dev.quarry.testing.TestSeed;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** No query text is ever an error: it matches something or nothing. */
@ExtendWith(TestSeed.class)
class HostileQueryTest {
  @TempDir Path dir;

  private static List<String> hostileQueries(Random random) {
    List<String> queries =
        new ArrayList<>(
            List.of(
                "",
                " ",
                "\t\n",
                "?!.,;:'\"()[]{}<>*~^-+&&||",
                "the of and",
                "\uD800",
                "\uDC00 lone \uD800 surrogates \uDBFF",
                "AND OR NOT \"unclosed",
                "field:value* ~2 /regex/",
                "\u0000\u0001\u007f",
                "😀".repeat(500)));
    StringBuilder codePoints = new StringBuilder();
    while (codePoints.length() < 998) {
      codePoints.appendCodePoint(random.nextInt(Character.MAX_CODE_POINT + 1));
    }
    queries.add(codePoints.toString());
    StringBuilder cjk = new StringBuilder();
    for (int i = 0; i < 1000; i++) {
      cjk.append((char) (0x4E00 + random.nextInt(0x5000)));
    }
    queries.add(cjk.toString());
    return queries;
  }

  @Test
  void hostileQueries_returnResultsWithoutErrors_inEveryLanguage(Random random) throws IOException {
    for (CorpusSettings.Language language : CorpusSettings.Language.values()) {
      CorpusSettings settings =
          new CorpusSettings(
              language, CorpusSettings.Chunking.DEFAULT, CorpusSettings.Ranking.DEFAULT);
      try (TestCorpus corpus = new TestCorpus(dir.resolve(language.wireName()), settings)) {
        corpus.index(new Source("a", "field value regex unclosed 😀 lone surrogates 中文文本"));
        IndexSnapshot snapshot = corpus.snapshot();
        try {
          RevisionSearcher searcher = corpus.newSearcher();
          for (String query : hostileQueries(random)) {
            SearchResult result = searcher.search(snapshot, SearchRequest.of(query));
            assertNotNull(result.hits());
            assertEquals(corpus.revision(), result.revision());
          }
          assertEquals(0, searcher.search(snapshot, SearchRequest.of("?!")).hits().size());
        } finally {
          snapshot.release();
        }
      }
    }
  }
}
