package dev.quarry.benchmarks.corpus;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * Words by frequency rank: real English function words first (they make up about half of running
 * text, and the English analyzer drops most of them as stop words), then pronounceable made-up
 * content words built from syllables, some with common English suffixes so stemming has work to do.
 * Deterministic for a seed; immutable.
 */
final class Vocabulary {
  /** Ranked roughly as in English text; they take the most frequent ranks of the Zipf curve. */
  private static final List<String> FUNCTION_WORDS =
      List.of(
          "the", "of", "and", "to", "a", "in", "is", "that", "for", "it", "as", "with", "was", "on",
          "be", "by", "are", "this", "at", "from", "or", "an", "which", "not", "have", "has", "but",
          "were", "their", "been", "they", "its", "can", "more", "these", "also", "than", "other",
          "into", "such", "when", "may", "some", "between", "after", "both", "each", "only", "most",
          "over", "where", "under", "while", "through", "during", "about", "there", "then",
          "would");

  private static final String[] ONSETS = {
    "b", "c", "d", "f", "g", "h", "l", "m", "n", "p", "r", "s", "t", "v", "w", "br", "cl", "cr",
    "dr", "fl", "gr", "pl", "pr", "sc", "sl", "sp", "st", "str", "th", "tr", "ch", "sh", ""
  };
  private static final String[] VOWELS = {"a", "e", "i", "o", "u", "ai", "ea", "ou", "io", "y"};
  private static final String[] CODAS = {
    "", "", "", "n", "r", "s", "t", "l", "m", "nd", "st", "ct", "rk"
  };
  private static final String[] SUFFIXES = {
    "", "", "", "", "s", "ing", "ed", "tion", "ly", "ment", "al", "ity"
  };

  private final String[] words;

  Vocabulary(int size, long seed) {
    if (size <= FUNCTION_WORDS.size()) {
      throw new IllegalArgumentException(
          "size must exceed the " + FUNCTION_WORDS.size() + " function words; got " + size);
    }
    RandomGenerator random = new SplittableRandom(seed);
    Set<String> unique = new LinkedHashSet<>(FUNCTION_WORDS);
    while (unique.size() < size) {
      unique.add(contentWord(random));
    }
    words = unique.toArray(String[]::new);
  }

  private static String contentWord(RandomGenerator random) {
    // Frequent words are short in every language; most made-up words have two or three syllables.
    int syllables = 1 + random.nextInt(3) + (random.nextInt(4) == 0 ? 1 : 0);
    StringBuilder word = new StringBuilder();
    for (int s = 0; s < syllables; s++) {
      word.append(pick(ONSETS, random)).append(pick(VOWELS, random));
    }
    word.append(pick(CODAS, random)).append(pick(SUFFIXES, random));
    return word.toString();
  }

  private static String pick(String[] options, RandomGenerator random) {
    return options[random.nextInt(options.length)];
  }

  int size() {
    return words.length;
  }

  String word(int rank) {
    return words[rank];
  }

  List<String> words() {
    return new ArrayList<>(List.of(words));
  }
}
