package dev.quarry.benchmarks.corpus;

import java.util.SplittableRandom;

/**
 * A synthetic corpus of English-like documents: a title, then sections of a heading line and
 * paragraphs of sentences, with words drawn from a Zipfian {@link Vocabulary}. Lengths follow
 * log-normal distributions, so most documents fill a few chunks and some fill dozens.
 *
 * <p>Each document is generated from its own random stream derived from (seed, ordinal), so any
 * document can be produced alone, in any order, on any thread. Immutable and thread-safe.
 */
public final class GeneratedCorpus implements Corpus {
  /** Large enough that the tail of the Zipf curve yields rare terms, as real corpora have. */
  static final int VOCABULARY_SIZE = 50_000;

  /** Zipf exponent near 1, as measured on English text. */
  static final double ZIPF_EXPONENT = 1.0;

  /** Median document length in words (log-normal); the mean is about 1.4 times this. */
  static final int MEDIAN_DOCUMENT_WORDS = 700;

  static final double DOCUMENT_WORDS_SIGMA = 0.8;
  static final int MIN_DOCUMENT_WORDS = 40;
  static final int MAX_DOCUMENT_WORDS = 20_000;

  /** Median sentence length in words (log-normal); typical of expository prose. */
  static final int MEDIAN_SENTENCE_WORDS = 17;

  static final double SENTENCE_WORDS_SIGMA = 0.45;

  private static final long ORDINAL_MIX = 0x9E3779B97F4A7C15L;

  private final long seed;
  private final Vocabulary vocabulary;
  private final ZipfSampler ranks;

  public GeneratedCorpus(long seed) {
    this.seed = seed;
    this.vocabulary = new Vocabulary(VOCABULARY_SIZE, seed);
    this.ranks = new ZipfSampler(vocabulary.size(), ZIPF_EXPONENT);
  }

  @Override
  public SourceDocument document(long ordinal) {
    if (ordinal < 0) {
      throw new IllegalArgumentException("ordinal must be 0 or more; got " + ordinal);
    }
    SplittableRandom random = new SplittableRandom(seed ^ (ordinal + 1) * ORDINAL_MIX);
    String title = capitalize(phrase(random, 3 + random.nextInt(7)));
    int target =
        (int)
            Math.clamp(
                logNormal(random, MEDIAN_DOCUMENT_WORDS, DOCUMENT_WORDS_SIGMA),
                MIN_DOCUMENT_WORDS,
                MAX_DOCUMENT_WORDS);
    StringBuilder text = new StringBuilder(target * 8);
    int words = 0;
    while (words < target) {
      if (!text.isEmpty()) {
        text.append("\n\n");
      }
      // Markdown headings: most submitted text is Markdown, and the chunker starts a chunk at one.
      text.append("## ").append(capitalize(phrase(random, 2 + random.nextInt(5)))).append("\n\n");
      int paragraphs = 1 + random.nextInt(5);
      for (int p = 0; p < paragraphs && words < target; p++) {
        if (p > 0) {
          text.append("\n\n");
        }
        words += paragraph(random, text);
      }
    }
    return new SourceDocument("doc-" + ordinal, title, text.toString());
  }

  @Override
  public String describe() {
    return GENERATED + "-" + seed;
  }

  private int paragraph(SplittableRandom random, StringBuilder out) {
    int sentences = 2 + random.nextInt(6);
    int words = 0;
    for (int s = 0; s < sentences; s++) {
      if (s > 0) {
        out.append(' ');
      }
      int length =
          (int) Math.clamp(logNormal(random, MEDIAN_SENTENCE_WORDS, SENTENCE_WORDS_SIGMA), 3, 80);
      String sentence = phrase(random, length);
      out.append(Character.toUpperCase(sentence.charAt(0))).append(sentence, 1, sentence.length());
      out.append(random.nextInt(12) == 0 ? '?' : '.');
      words += length;
    }
    return words;
  }

  private String phrase(SplittableRandom random, int length) {
    StringBuilder out = new StringBuilder(length * 8);
    for (int w = 0; w < length; w++) {
      if (w > 0) {
        // A comma now and then, never before the first word or after the last.
        out.append(w < length - 1 && random.nextInt(14) == 0 ? ", " : " ");
      }
      out.append(vocabulary.word(ranks.sample(random)));
    }
    return out.toString();
  }

  private static double logNormal(SplittableRandom random, double median, double sigma) {
    return median * Math.exp(sigma * random.nextGaussian());
  }

  private static String capitalize(String phrase) {
    StringBuilder out = new StringBuilder(phrase.length());
    boolean start = true;
    for (int i = 0; i < phrase.length(); i++) {
      char c = phrase.charAt(i);
      out.append(start ? Character.toUpperCase(c) : c);
      start = c == ' ';
    }
    return out.toString();
  }
}
