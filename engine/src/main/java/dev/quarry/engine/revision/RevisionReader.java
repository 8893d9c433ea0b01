package dev.quarry.engine.revision;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FilterDirectoryReader;
import org.apache.lucene.index.LeafReader;

/**
 * An all-versions reader narrowed to the chunks visible at one revision. Never closed: it holds no
 * resource of its own, and closing it would release the snapshot's reader underneath.
 */
final class RevisionReader extends FilterDirectoryReader {

  /** Finds (or computes) a segment's visibility at the revision. */
  interface VisibilitySource {
    LeafVisibility visibility(LeafReader allVersionsLeaf) throws IOException;
  }

  RevisionReader(DirectoryReader allVersions, VisibilitySource source) throws IOException {
    super(
        allVersions,
        new SubReaderWrapper() {
          @Override
          public LeafReader wrap(LeafReader reader) {
            try {
              return new VisibleLeafReader(reader, source.visibility(reader));
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
        });
  }

  @Override
  protected DirectoryReader doWrapDirectoryReader(DirectoryReader in) {
    throw new UnsupportedOperationException(
        "a revision view is not reopened; ask RevisionViews for a new one");
  }

  /** Its live docs differ from the reader underneath, so nothing keyed on them may be shared. */
  @Override
  public CacheHelper getReaderCacheHelper() {
    return null;
  }
}
