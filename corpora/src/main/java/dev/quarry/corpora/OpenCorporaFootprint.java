package dev.quarry.corpora;

import java.util.Collection;

/**
 * Expert: the corpora a store holds open now and what their published revisions occupy, for metrics
 * ({@link Corpora#openCorpora()}). Names no corpus, so that metrics built on it have no label per
 * corpus: the largest values are what an operator alerts on.
 *
 * @param open corpora open in memory now (at most {@code maxOpenCorpora})
 * @param segments index segments of all of them together
 * @param largestSegments the most segments one of them has
 * @param bytes the size on disk of those segments, all of them together
 * @param largestBytes the largest size on disk of one of them
 * @quarry.experimental
 */
public record OpenCorporaFootprint(
    int open, long segments, int largestSegments, long bytes, long largestBytes) {
  /** No corpus open. */
  public static final OpenCorporaFootprint NONE = new OpenCorporaFootprint(0, 0, 0, 0, 0);

  /** The totals and largest values of {@code corpora}, one footprint per open corpus. */
  public static OpenCorporaFootprint of(Collection<OpenCorpusFootprint> corpora) {
    long segments = 0;
    int largestSegments = 0;
    long bytes = 0;
    long largestBytes = 0;
    for (OpenCorpusFootprint c : corpora) {
      segments += c.segments();
      largestSegments = Math.max(largestSegments, c.segments());
      bytes += c.bytes();
      largestBytes = Math.max(largestBytes, c.bytes());
    }
    return new OpenCorporaFootprint(corpora.size(), segments, largestSegments, bytes, largestBytes);
  }
}
