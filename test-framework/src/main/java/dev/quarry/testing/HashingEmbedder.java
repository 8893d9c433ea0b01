package dev.quarry.testing;

import dev.quarry.engine.Embedder;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Sha256;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A deterministic embedder for tests that need vectors but not meaning: each word of a text adds ±1
 * to the component its hash picks, and the sum is scaled to unit length. No model files, no native
 * runtime; the same text gives the same vector in every process, and texts sharing words point the
 * same way. It keeps the {@link Embedder} contract a real model keeps: a window of {@link
 * #maxTokens()} word pieces (one per word, plus two special tokens), passages beyond it embedded
 * from their start and reported truncated, and queries beyond it refused.
 *
 * <p>Tests whose assertion depends on what texts mean use a real model (the {@code embeddings}
 * module's tests).
 */
public final class HashingEmbedder implements Embedder {
  /** The name corpus settings give it. */
  public static final String MODEL = "hashing-test";

  /** Word pieces a real model adds to every text (e.g. {@code [CLS]} and {@code [SEP]}). */
  public static final int SPECIAL_TOKENS = 2;

  private final String model;
  private final int dimensions;
  private final int maxTokens;

  /** 384 dimensions and a 256-piece window, as the smallest shipped model has. */
  public HashingEmbedder() {
    this(MODEL, 384, 256);
  }

  public HashingEmbedder(String model, int dimensions, int maxTokens) {
    if (dimensions < 1 || maxTokens <= SPECIAL_TOKENS) {
      throw new IllegalArgumentException("dimensions " + dimensions + ", maxTokens " + maxTokens);
    }
    this.model = model;
    this.dimensions = dimensions;
    this.maxTokens = maxTokens;
  }

  @Override
  public String model() {
    return model;
  }

  /** The hash of what decides the vectors, as a real model's is of its weights. */
  @Override
  public String sha256() {
    return Sha256.ofUtf8(
        getClass().getSimpleName() + ' ' + model + ' ' + dimensions + ' ' + maxTokens);
  }

  @Override
  public int dimensions() {
    return dimensions;
  }

  @Override
  public int maxTokens() {
    return maxTokens;
  }

  @Override
  public int passageTokens(String text) {
    return words(text).size() + SPECIAL_TOKENS;
  }

  @Override
  public List<Embedding> embedPassages(List<String> texts) {
    List<Embedding> out = new ArrayList<>(texts.size());
    for (String text : texts) {
      List<String> words = words(text);
      int fits = maxTokens - SPECIAL_TOKENS;
      out.add(
          new Embedding(
              vector(words.subList(0, Math.min(fits, words.size()))), words.size() > fits));
    }
    return out;
  }

  @Override
  public float[] embedQuery(String query) {
    List<String> words = words(query);
    if (words.size() + SPECIAL_TOKENS > maxTokens) {
      throw QuarryException.invalid(
          "query",
          "the query is longer than the "
              + maxTokens
              + " word pieces model '"
              + model
              + "' reads; shorten it");
    }
    return vector(words);
  }

  /** Lowercased runs of letters and digits. */
  static List<String> words(String text) {
    List<String> out = new ArrayList<>();
    int start = -1;
    for (int i = 0; i <= text.length(); i++) {
      boolean inWord = i < text.length() && Character.isLetterOrDigit(text.charAt(i));
      if (inWord && start < 0) {
        start = i;
      } else if (!inWord && start >= 0) {
        out.add(text.substring(start, i).toLowerCase(Locale.ROOT));
        start = -1;
      }
    }
    return out;
  }

  /** The signed hashed words, at unit length; a text without words gets the first axis. */
  private float[] vector(List<String> words) {
    float[] v = new float[dimensions];
    for (String w : words) {
      int h =
          mix(w.hashCode()); // String.hashCode is specified, so the vectors are the same everywhere
      v[Math.floorMod(h, dimensions)] += (h & 0x8000_0000) == 0 ? 1 : -1;
    }
    double norm = 0;
    for (float x : v) {
      norm += x * x;
    }
    if (norm == 0) {
      v[0] = 1;
      return v;
    }
    float scale = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < v.length; i++) {
      v[i] *= scale;
    }
    return v;
  }

  /** Murmur3's finalizer: spreads similar words' hash codes over every component and sign. */
  private static int mix(int h) {
    h ^= h >>> 16;
    h *= 0x85eb_ca6b;
    h ^= h >>> 13;
    h *= 0xc2b2_ae35;
    h ^= h >>> 16;
    return h;
  }
}
