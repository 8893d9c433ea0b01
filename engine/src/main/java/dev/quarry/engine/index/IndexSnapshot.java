package dev.quarry.engine.index;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.lucene.index.DirectoryReader;

/**
 * A point-in-time view of a corpus index: the latest revision and a reader that shows exactly the
 * documents of that revision ({@link #latest()}: superseded versions hidden), plus the same
 * segments with superseded versions present ({@link #allVersions()}), for pinned searches.
 *
 * <p>Reference counted: call {@link #release()} once for each snapshot acquired from the index.
 */
public final class IndexSnapshot {
  private final long revision;
  private final long oldestRetainedRevision;
  private final DirectoryReader latest;
  private final DirectoryReader allVersions;

  IndexSnapshot(long revision, long oldestRetainedRevision, DirectoryReader latest)
      throws IOException {
    this.revision = revision;
    this.oldestRetainedRevision = oldestRetainedRevision;
    this.latest = latest;
    this.allVersions = new AllVersionsReader(latest);
  }

  /** The revision this snapshot answers at when no revision is pinned. */
  public long revision() {
    return revision;
  }

  /** The oldest revision whose documents are still retained in this snapshot. */
  public long oldestRetainedRevision() {
    return oldestRetainedRevision;
  }

  /** Documents of {@link #revision()} only: superseded versions are hidden by the live docs. */
  public DirectoryReader latest() {
    return latest;
  }

  /**
   * The same segments with superseded versions visible (only purged documents are deleted): filter
   * with {@code added <= r < superseded} to see revision r.
   */
  public DirectoryReader allVersions() {
    return allVersions;
  }

  /** Takes a reference unless the snapshot was already closed; false when it was. */
  boolean tryIncRef() {
    return latest.tryIncRef();
  }

  /** Releases this reference; the reader closes when the last one is released. */
  public void release() {
    try {
      latest.decRef();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
