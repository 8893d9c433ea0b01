package dev.quarry.corpora;

import java.util.Objects;

/**
 * What a backup of one corpus holds: the corpus, its corpusId (kept by a restore) and the revision
 * the copy is at, which is at least every revision acknowledged before the backup began.
 *
 * @quarry.experimental
 */
public record CorpusBackup(String corpus, String corpusId, long revision) {
  public CorpusBackup {
    Objects.requireNonNull(corpus, "corpus");
    Objects.requireNonNull(corpusId, "corpusId");
    if (revision < 0) {
      throw new IllegalArgumentException("revision must be at least 0; got " + revision);
    }
  }
}
