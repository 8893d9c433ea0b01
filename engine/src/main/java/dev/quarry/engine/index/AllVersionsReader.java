package dev.quarry.engine.index;

import java.io.IOException;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FilterDirectoryReader;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.util.Bits;

/**
 * A reader over the same segments as a latest-revision reader, in which superseded (soft-deleted)
 * documents are live again; only hard deletes (purges, pruned history) stay deleted. Pinned
 * searches filter it by revision.
 */
final class AllVersionsReader extends FilterDirectoryReader {

  AllVersionsReader(DirectoryReader latest) throws IOException {
    super(
        latest,
        new SubReaderWrapper() {
          @Override
          public LeafReader wrap(LeafReader reader) {
            return new AllVersionsLeaf(reader);
          }
        });
  }

  @Override
  protected DirectoryReader doWrapDirectoryReader(DirectoryReader in) throws IOException {
    return new AllVersionsReader(in);
  }

  @Override
  public CacheHelper getReaderCacheHelper() {
    return in.getReaderCacheHelper();
  }

  private static final class AllVersionsLeaf extends FilterLeafReader {
    private final Bits hardLiveDocs;
    private final int numDocs;

    AllVersionsLeaf(LeafReader in) {
      super(in);
      LeafReader unwrapped = FilterLeafReader.unwrap(in);
      if (unwrapped instanceof SegmentReader segment) {
        this.hardLiveDocs = segment.getHardLiveDocs();
        this.numDocs =
            segment.getSegmentInfo().info.maxDoc() - segment.getSegmentInfo().getDelCount();
      } else if (unwrapped instanceof CodecReader codec) {
        this.hardLiveDocs = codec.getLiveDocs();
        this.numDocs = codec.numDocs();
      } else {
        throw new IllegalStateException("unexpected leaf reader " + unwrapped.getClass().getName());
      }
    }

    @Override
    public Bits getLiveDocs() {
      return hardLiveDocs;
    }

    @Override
    public int numDocs() {
      return numDocs;
    }

    @Override
    public CacheHelper getCoreCacheHelper() {
      return in.getCoreCacheHelper();
    }

    @Override
    public CacheHelper getReaderCacheHelper() {
      return in.getReaderCacheHelper();
    }
  }
}
