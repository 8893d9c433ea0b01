package dev.quarry.extractors.text;

import dev.quarry.extractors.ExtractionException;

/**
 * Reads a raw HTML block of a Markdown text (a {@code <table>} written in HTML, as Markdown allows)
 * as an HTML document's body is read. The Tika package's {@code HtmlFragments} is the one the
 * extractors use; this package parses no HTML itself.
 */
@FunctionalInterface
public interface HtmlBlockReader {
  /** Leaves every HTML block as it is written. */
  HtmlBlockReader NONE = (html, maxChars) -> null;

  /**
   * The block rendered, with its tables; null to leave it as written.
   *
   * @throws ExtractionException when the rendering passes {@code maxChars}
   */
  RenderedText read(String html, int maxChars) throws ExtractionException;
}
