package dev.quarry.engine.chunk;

import dev.quarry.engine.CorpusSettings;
import java.util.List;

/** Splits a source's text into passages for retrieval. */
public final class Chunker {
  private Chunker() {}

  /**
   * Splits {@code text} into chunks of at most about {@code settings.maxWords()} words with
   * {@code settings.overlapWords()} words of overlap, breaking at headings, paragraphs, sentences
   * and page boundaries in that order of preference.
   *
   * @param pageStarts offsets where each page starts (page 1 at index 0), or null for unpaged text
   * @param mediaType the content's media type (markdown headings are recognised), or null
   * @return spans in order, covering every non-blank part of the text; empty for blank text
   */
  public static List<ChunkSpan> split(String text, int[] pageStarts, String mediaType, CorpusSettings.Chunking settings) {
    throw new UnsupportedOperationException("TODO");
  }
}
