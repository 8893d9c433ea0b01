package dev.quarry.engine.index;

import dev.quarry.engine.Metadata;
import dev.quarry.engine.PageRange;
import dev.quarry.engine.Passage;
import dev.quarry.engine.SourceOperation;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;

/**
 * The engine's own document code ({@link Documents}, {@link CorpusWriter#supersede}) for tests that
 * write an index by hand, so the schema is written in one place only.
 */
public final class TestDocuments {
  private TestDocuments() {}

  /**
   * The documents of one source version, as the write path builds them: chunks as given (passages
   * joined by a blank line, as {@code sources/index} joins passages), each with its pages or none.
   *
   * @param contentSha256 what the version reports as its content hash
   * @param pages each chunk's {@code [from, to]}, or null
   */
  public static List<Document> sourceVersion(
      String source,
      String title,
      List<String> chunks,
      Map<String, Object> metadata,
      List<int[]> pages,
      String contentSha256,
      long revision) {
    Metadata checked = Metadata.of(metadata, "metadata");
    List<Passage> passages =
        chunks.stream().map(text -> new Passage(text, Metadata.EMPTY)).toList();
    SourceOperation.Index op =
        new SourceOperation.Index(
            source, title, null, passages, null, checked, null, null, contentSha256, null);
    List<PreparedSource.PreparedChunk> prepared = new ArrayList<>();
    int offset = 0;
    for (int i = 0; i < chunks.size(); i++) {
      String text = chunks.get(i);
      PageRange range = pages == null ? null : new PageRange(pages.get(i)[0], pages.get(i)[1]);
      prepared.add(
          new PreparedSource.PreparedChunk(text, offset, offset + text.length(), range, checked));
      offset += text.length() + 2;
    }
    Integer pageCount = pages == null ? null : pages.get(pages.size() - 1)[1];
    PreparedSource p =
        new PreparedSource(
            op,
            contentSha256,
            contentSha256,
            List.copyOf(prepared),
            Math.max(0, offset - 2),
            pageCount,
            PreparedSource.DEFAULT_MEDIA_TYPE);
    return Documents.sourceVersion(p, revision, Instant.EPOCH);
  }

  /**
   * Supersedes the version of {@code source} added at {@code versionRevision}, as of {@code
   * revision}.
   */
  public static void supersede(
      IndexWriter writer, String source, long versionRevision, long revision) throws IOException {
    CorpusWriter.supersede(writer, source, versionRevision, revision);
  }
}
