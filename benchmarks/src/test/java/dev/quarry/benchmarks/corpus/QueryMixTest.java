package dev.quarry.benchmarks.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueryMixTest {
  private static final long SEED = 7;
  private final List<SourceDocument> sample = sample(200);

  private static List<SourceDocument> sample(int n) {
    GeneratedCorpus corpus = new GeneratedCorpus(42);
    List<SourceDocument> documents = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      documents.add(corpus.document(i));
    }
    return documents;
  }

  @Test
  void from_sameInputs_sameQueries() {
    assertEquals(
        QueryMix.from(sample, 100, SEED).queries(), QueryMix.from(sample, 100, SEED).queries());
  }

  @Test
  void queries_haveOneToThreeWords_eachFoundInTheSample() {
    Map<String, Integer> documentFrequency = documentFrequency();
    for (String query : QueryMix.from(sample, 300, SEED).queries()) {
      String[] words = query.split(" ");
      assertTrue(words.length >= 1 && words.length <= 3, query);
      for (String word : words) {
        assertTrue(documentFrequency.containsKey(word), word + " of '" + query + "'");
      }
    }
  }

  @Test
  void queries_mixFrequentAndRareWords() {
    Map<String, Integer> documentFrequency = documentFrequency();
    int frequent = 0;
    int rare = 0;
    for (String query : QueryMix.from(sample, 300, SEED).queries()) {
      for (String word : query.split(" ")) {
        int df = documentFrequency.get(word);
        frequent += df > sample.size() / 4 ? 1 : 0;
        rare += df <= 2 ? 1 : 0;
      }
    }
    assertTrue(frequent > 30, "words in over a quarter of documents: " + frequent);
    assertTrue(rare > 30, "words in at most two documents: " + rare);
  }

  private Map<String, Integer> documentFrequency() {
    Map<String, Integer> df = new HashMap<>();
    for (SourceDocument d : sample) {
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (String w : d.text().split("[^\\p{L}]+")) {
        seen.add(w.toLowerCase(Locale.ROOT));
      }
      seen.forEach(w -> df.merge(w, 1, Integer::sum));
    }
    return df;
  }
}
