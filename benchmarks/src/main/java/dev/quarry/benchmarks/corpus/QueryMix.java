package dev.quarry.benchmarks.corpus;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.en.EnglishAnalyzer;

/**
 * Search queries of one to three words drawn from the words of the indexed documents, as people
 * type them: mostly mid-frequency words, some very common ones that match much of the corpus, and
 * some rare ones that match a handful of chunks. Deterministic for its inputs; immutable.
 *
 * <p>Words are ranked by document frequency in the sample and split into three bands by rank:
 * frequent (the top {@value #FREQUENT_RANK_SHARE} of distinct words), rare (the bottom half) and
 * medium (between). Every drawn word occurs in the sample, so every query matches something.
 */
public final class QueryMix {
  static final double FREQUENT_RANK_SHARE = 0.02;
  static final double RARE_RANK_SHARE = 0.5;

  /** Probability that a query word comes from the frequent, medium or rare band. */
  static final double FREQUENT_WORD_ODDS = 0.25;

  static final double RARE_WORD_ODDS = 0.30;

  /** Probability of a one-word and of a two-word query; the rest have three words. */
  static final double ONE_WORD_ODDS = 0.3;

  static final double TWO_WORD_ODDS = 0.4;

  private static final Pattern WORD = Pattern.compile("\\p{L}{3,}");

  private final List<String> queries;

  private QueryMix(List<String> queries) {
    this.queries = List.copyOf(queries);
  }

  /** {@code count} queries over the words of {@code sample}. */
  public static QueryMix from(List<SourceDocument> sample, int count, long seed) {
    if (count < 1) {
      throw new IllegalArgumentException("count must be at least 1; got " + count);
    }
    List<String> ranked = wordsByDocumentFrequency(sample);
    if (ranked.isEmpty()) {
      throw new IllegalArgumentException(
          "the sample of " + sample.size() + " documents has no words");
    }
    int frequentEnd = Math.max(1, (int) (ranked.size() * FREQUENT_RANK_SHARE));
    int rareStart = Math.max(frequentEnd, (int) (ranked.size() * (1 - RARE_RANK_SHARE)));
    SplittableRandom random = new SplittableRandom(seed);
    List<String> queries = new ArrayList<>(count);
    for (int q = 0; q < count; q++) {
      double length = random.nextDouble();
      int words = length < ONE_WORD_ODDS ? 1 : length < ONE_WORD_ODDS + TWO_WORD_ODDS ? 2 : 3;
      StringBuilder query = new StringBuilder();
      for (int w = 0; w < words; w++) {
        double band = random.nextDouble();
        int from = 0;
        int to = frequentEnd;
        if (band >= FREQUENT_WORD_ODDS + RARE_WORD_ODDS) {
          from = frequentEnd;
          to = Math.max(rareStart, frequentEnd + 1);
        } else if (band >= FREQUENT_WORD_ODDS) {
          from = rareStart;
          to = ranked.size();
        }
        from = Math.min(from, ranked.size() - 1);
        to = Math.clamp(to, from + 1, ranked.size());
        query.append(w > 0 ? " " : "").append(ranked.get(random.nextInt(from, to)));
      }
      queries.add(query.toString());
    }
    return new QueryMix(queries);
  }

  private static List<String> wordsByDocumentFrequency(List<SourceDocument> sample) {
    Map<String, Integer> documentFrequency = new HashMap<>();
    for (SourceDocument document : sample) {
      Set<String> seen = new HashSet<>();
      collectWords(document.text(), seen);
      for (String word : seen) {
        documentFrequency.merge(word, 1, Integer::sum);
      }
    }
    List<String> ranked = new ArrayList<>(documentFrequency.keySet());
    // Ties broken by the word itself, so the ranking never depends on hash order.
    ranked.sort(
        Comparator.<String>comparingInt(documentFrequency::get)
            .reversed()
            .thenComparing(Comparator.naturalOrder()));
    return ranked;
  }

  private static void collectWords(String text, Set<String> into) {
    Matcher m = WORD.matcher(text);
    while (m.find()) {
      String word = m.group().toLowerCase(Locale.ROOT);
      if (!EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.contains(word)) {
        into.add(word);
      }
    }
  }

  public int size() {
    return queries.size();
  }

  /** The query at {@code index} modulo the number of queries. */
  public String query(long index) {
    return queries.get((int) Math.floorMod(index, (long) queries.size()));
  }

  public List<String> queries() {
    return queries;
  }
}
