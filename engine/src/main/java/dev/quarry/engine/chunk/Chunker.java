package dev.quarry.engine.chunk;

import dev.quarry.engine.CorpusSettings;
import java.util.List;
import java.util.Objects;

/**
 * Splits a source's text into passages for retrieval.
 *
 * <p>Stateless and thread-safe. Linear in the length of the text, whatever the text: it is
 * scanned once, without regular expressions, and only a chunk's worth of tokens is held at a time.
 */
public final class Chunker {
  /**
   * A run of non-whitespace longer than this many characters per word of the budget is cut, so a
   * megabyte without a space still makes chunks of about {@code maxWords} words' worth of text.
   */
  public static final int MAX_CHARS_PER_WORD = 8;

  private Chunker() {}

  /**
   * Splits {@code text} into chunks of at most about {@code settings.maxWords()} words with
   * {@code settings.overlapWords()} words of overlap, breaking at headings, paragraphs, sentences
   * and page boundaries in that order of preference.
   *
   * <p>Each span is trimmed of whitespace and the spans are in text order; together they hold every
   * non-whitespace character. Consecutive spans overlap by up to {@code overlapWords} words, never
   * more than half a chunk, starting at a sentence when one starts in that window; a heading starts
   * a chunk afresh, without overlap. Words are
   * whitespace-separated tokens; Han, Hiragana, Katakana and Hangul letters count half a word each,
   * since those scripts are written without spaces (see {@link TokenScanner} for the details).
   * Markdown ATX headings are recognised in declared Markdown, and in plain or untyped text that
   * looks like Markdown (see {@link Markdown}).
   *
   * @param pageStarts offsets where each page starts (page 1 at index 0), or null for unpaged text
   * @param mediaType the content's media type (markdown headings are recognised), or null
   * <p>Each span carries its section: the headings above it, outermost first ({@link HeadingPaths}),
   * empty for text without Markdown headings.
   *
   * @return spans in order, covering every non-blank part of the text; empty for blank text
   * @throws IllegalArgumentException if {@code pageStarts} does not start at 0, decreases, or
   *     points past the end of the text
   */
  public static List<ChunkSpan> split(String text, int[] pageStarts, String mediaType, CorpusSettings.Chunking settings) {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(settings, "settings");
    PageMap pages = pageStarts == null ? null : PageMap.of(pageStarts, text.length());
    boolean markdown = Markdown.hasHeadings(text, mediaType);
    TokenScanner scanner = new TokenScanner(text, pages, markdown, settings.maxWords() * MAX_CHARS_PER_WORD);
    return HeadingPaths.assign(text, markdown, new SpanPacker(scanner, pages, settings).pack());
  }
}
