package dev.quarry.benchmarks.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GeneratedCorpusTest {
  private static final long SEED = 42;

  @Test
  void document_sameSeedAndOrdinal_isTheSameInAnyOrder() {
    GeneratedCorpus first = new GeneratedCorpus(SEED);
    GeneratedCorpus second = new GeneratedCorpus(SEED);
    SourceDocument late = second.document(17);
    second.document(3);
    assertEquals(first.document(17), late);
  }

  @Test
  void document_otherSeed_differs() {
    assertNotEquals(
        new GeneratedCorpus(SEED).document(0).text(),
        new GeneratedCorpus(SEED + 1).document(0).text());
  }

  @Test
  void document_hasTitleHeadingsAndParagraphs() {
    SourceDocument d = new GeneratedCorpus(SEED).document(5);
    assertEquals("doc-5", d.id());
    assertTrue(d.title() != null && !d.title().isBlank());
    assertTrue(d.text().startsWith("## "), d.text().substring(0, 40));
    assertTrue(d.text().contains("\n\n"));
    assertTrue(d.text().contains(". "));
  }

  @Test
  void words_followZipf_commonWordsDominate() {
    GeneratedCorpus corpus = new GeneratedCorpus(SEED);
    Map<String, Integer> counts = new HashMap<>();
    int total = 0;
    for (int i = 0; i < 50; i++) {
      for (String w : corpus.document(i).text().split("[^\\p{L}]+")) {
        if (!w.isEmpty()) {
          counts.merge(w.toLowerCase(Locale.ROOT), 1, Integer::sum);
          total++;
        }
      }
    }
    // Rank 1 of a Zipf curve with exponent 1 over 50,000 words holds about 9% of tokens.
    double theShare = counts.get("the") / (double) total;
    assertTrue(theShare > 0.05 && theShare < 0.15, "share of 'the': " + theShare);
    long seenOnce = counts.values().stream().filter(c -> c == 1).count();
    assertTrue(seenOnce > counts.size() / 4, "rare words: " + seenOnce + " of " + counts.size());
  }
}
