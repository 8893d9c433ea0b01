package dev.quarry.corpora;

import java.util.Objects;

/**
 * Expert: one open corpus's published revision and what it occupies, for metrics that name corpora
 * when an operator asks for them ({@link Corpora#openCorpusFootprints()}).
 *
 * @param name the corpus
 * @param revision its latest committed and visible revision (the number of revisions it has had)
 * @param segments the index segments of that revision
 * @param bytes the size on disk of those segments
 * @quarry.experimental
 */
public record OpenCorpusFootprint(String name, long revision, int segments, long bytes) {
  public OpenCorpusFootprint {
    Objects.requireNonNull(name, "name");
  }
}
