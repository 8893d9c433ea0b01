package dev.quarry.client;

import java.util.List;
import java.util.Map;

/**
 * {@code sources/chunks}: one page of a source's text as it was split, in chunk order, at the
 * revision answered at ({@code revision}; ask the next page at the same revision).
 *
 * @param sourceRevision the revision that indexed the version read
 * @param nextAfter the {@code after} of the next page, or null on the last page
 * @quarry.stable
 */
public record SourceText(
    String corpus,
    String corpusId,
    long revision,
    String source,
    long sourceRevision,
    String title,
    String mediaType,
    String contentSha256,
    List<Chunk> chunks,
    Integer nextAfter) {
  /**
   * One chunk with its place in the source.
   *
   * @param pages the pages it spans, for paged formats; else null
   * @param offsets its span in the source's extracted text, UTF-16 code units, {@code [start, end)}
   * @param section the headings above it, outermost first; empty when there are none
   * @param table the rows of a table it holds; null outside tables (and from an older server)
   */
  public record Chunk(
      int chunk,
      String text,
      Hit.Pages pages,
      Hit.Offsets offsets,
      Map<String, Object> metadata,
      List<String> section,
      Hit.Table table) {
    public Chunk {
      section = section == null ? List.of() : List.copyOf(section);
    }

    /** A chunk outside any section (the shape before sections were returned). */
    public Chunk(
        int chunk,
        String text,
        Hit.Pages pages,
        Hit.Offsets offsets,
        Map<String, Object> metadata) {
      this(chunk, text, pages, offsets, metadata, List.of(), null);
    }

    /** A chunk outside tables (the shape before tables were returned). */
    public Chunk(
        int chunk,
        String text,
        Hit.Pages pages,
        Hit.Offsets offsets,
        Map<String, Object> metadata,
        List<String> section) {
      this(chunk, text, pages, offsets, metadata, section, null);
    }
  }
}
