package dev.quarry.engine;

import java.util.List;

/**
 * One search result: a chunk with its full provenance.
 *
 * @param highlights {@code [start, end)} ranges inside {@code text}, in UTF-16 code units
 * @param pages the pages the chunk spans, or null for unpaged sources
 * @param start the chunk's start offset in its source's text
 * @param end the chunk's end offset (exclusive)
 */
public record Hit(
    String source,
    long sourceRevision,
    int chunk,
    float score,
    String text,
    List<int[]> highlights,
    String title,
    String mediaType,
    PageRange pages,
    int start,
    int end,
    String contentSha256,
    Metadata metadata) {

  /** This hit with {@code newHighlights} as its match ranges. */
  public Hit withHighlights(List<int[]> newHighlights) {
    return new Hit(source, sourceRevision, chunk, score, text, newHighlights, title, mediaType, pages, start, end,
        contentSha256, metadata);
  }
}
