package dev.quarry.cluster;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.testing.HashingEmbedder;

/** Embedding settings of the tests' hashing model with a coded first pass. */
final class CodedEmbeddings {
  private CodedEmbeddings() {}

  /**
   * The hashing model, weighted 0.5 in hybrid searches, min-max normalized, {@code index: "codes"}
   * with {@code firstPass}.
   */
  static CorpusSettings.Embedding hashing(CorpusSettings.FirstPass firstPass) {
    return new CorpusSettings.Embedding(
        HashingEmbedder.MODEL,
        null,
        0.5,
        CorpusSettings.VectorIndex.CODES,
        CorpusSettings.Normalization.MINMAX,
        firstPass);
  }
}
