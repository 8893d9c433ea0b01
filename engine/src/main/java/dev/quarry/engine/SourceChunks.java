package dev.quarry.engine;

import java.util.List;
import java.util.Objects;

/**
 * One page of a source's chunks, in chunk order, exactly as a corpus held them at {@code revision}:
 * the source's text as it was split, with each chunk's pages and offsets, for reading a source
 * whole (search returns only the chunks that match).
 *
 * @param revision the corpus revision the chunks were read at
 * @param sourceRevision the revision that indexed this version of the source
 * @param title the source's title, or null
 * @param chunks the chunks numbered above the page's {@code after}, in order
 * @param nextAfter the last chunk number of this page when more follow, else null
 * @quarry.stable
 */
public record SourceChunks(
    long revision,
    String source,
    long sourceRevision,
    String title,
    String mediaType,
    String contentSha256,
    List<Chunk> chunks,
    Integer nextAfter) {
  public SourceChunks {
    Objects.requireNonNull(source, "source");
    chunks = List.copyOf(chunks);
    assert nextAfter == null
            || (!chunks.isEmpty() && chunks.get(chunks.size() - 1).chunk() == nextAfter)
        : "a next page starts after this page's last chunk";
  }

  /**
   * One chunk.
   *
   * @param pages the pages it spans, or null for unpaged sources
   * @param start its start offset in the source's extracted text, UTF-16 code units
   * @param end its end offset (exclusive)
   * @param section the headings above it, outermost first; empty when there are none
   * @param table the rows of a table it holds; null outside tables, and for chunks indexed before
   *     tables were kept
   */
  public record Chunk(
      int chunk,
      String text,
      PageRange pages,
      int start,
      int end,
      Metadata metadata,
      List<String> section,
      ChunkTable table) {
    public Chunk {
      Objects.requireNonNull(text, "text");
      metadata = metadata == null ? Metadata.EMPTY : metadata;
      section = section == null ? List.of() : List.copyOf(section);
    }

    /** A chunk outside any section. */
    public Chunk(int chunk, String text, PageRange pages, int start, int end, Metadata metadata) {
      this(chunk, text, pages, start, end, metadata, List.of(), null);
    }

    /** A chunk outside tables. */
    public Chunk(
        int chunk,
        String text,
        PageRange pages,
        int start,
        int end,
        Metadata metadata,
        List<String> section) {
      this(chunk, text, pages, start, end, metadata, section, null);
    }
  }
}
