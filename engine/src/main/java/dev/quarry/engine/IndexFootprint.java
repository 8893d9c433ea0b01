package dev.quarry.engine;

/**
 * Expert: what a corpus's published revision occupies, for metrics: the index segments its searcher
 * reads and the size of their files on disk.
 *
 * <p>It leaves out what the searcher does not read: segments a merge is writing, and files that
 * only an older commit still uses (one a backup holds, say), so the folder on disk may be larger
 * for a while.
 *
 * @param segments the index segments of the published revision
 * @param bytes the size of those segments' files
 * @quarry.experimental
 */
public record IndexFootprint(int segments, long bytes) {
  public IndexFootprint {
    if (segments < 0 || bytes < 0) {
      throw new IllegalArgumentException(
          "segments and bytes must not be negative; got " + segments + ", " + bytes);
    }
  }
}
