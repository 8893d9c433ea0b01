package dev.quarry.corpora;

import java.security.SecureRandom;

/**
 * New corpusIds: 12 random lowercase letters and digits (about 62 bits), so a corpus deleted and
 * created again under its name never has the id a client pinned before. Thread-safe.
 *
 * @quarry.internal
 */
public final class CorpusIds {
  private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();
  private static final int LENGTH = 12;
  private static final SecureRandom RANDOM = new SecureRandom();

  private CorpusIds() {}

  /** A new random id. */
  public static String next() {
    char[] id = new char[LENGTH];
    for (int i = 0; i < id.length; i++) {
      id[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
    }
    return new String(id);
  }
}
