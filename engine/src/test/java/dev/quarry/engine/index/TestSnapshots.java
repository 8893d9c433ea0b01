package dev.quarry.engine.index;

import java.io.IOException;
import org.apache.lucene.index.DirectoryReader;

/**
 * Builds {@link IndexSnapshot}s over readers a test opened itself (the constructor is
 * package-private).
 */
public final class TestSnapshots {
  private TestSnapshots() {}

  /** A snapshot at {@code revision} that takes over one reference of {@code latest}. */
  public static IndexSnapshot of(long revision, long oldestRetainedRevision, DirectoryReader latest)
      throws IOException {
    return new IndexSnapshot(revision, oldestRetainedRevision, latest);
  }
}
