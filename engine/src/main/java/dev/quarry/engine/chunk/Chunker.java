package dev.quarry.engine.chunk;

import dev.quarry.engine.ChunkTable;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.PageRange;
import dev.quarry.engine.SourceOperation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Splits a source's text into passages for retrieval.
 *
 * <p>Stateless and thread-safe. Linear in the length of the text, whatever the text: it is scanned
 * once, without regular expressions, and only a chunk's worth of tokens is held at a time.
 */
public final class Chunker {
  /**
   * A run of non-whitespace longer than this many characters per word of the budget is cut, so a
   * megabyte without a space still makes chunks of about {@code maxWords} words' worth of text.
   */
  public static final int MAX_CHARS_PER_WORD = 8;

  private Chunker() {}

  /**
   * Splits {@code text} into chunks of at most about {@code settings.maxWords()} words with {@code
   * settings.overlapWords()} words of overlap, breaking at headings, paragraphs, sentences and page
   * boundaries in that order of preference.
   *
   * <p>Each span is trimmed of whitespace and the spans are in text order; together they hold every
   * non-whitespace character. Consecutive spans overlap by up to {@code overlapWords} words, never
   * more than half a chunk, starting at a sentence when one starts in that window; a heading starts
   * a chunk afresh, without overlap. Words are whitespace-separated tokens; Han, Hiragana, Katakana
   * and Hangul letters count half a word each, since those scripts are written without spaces (see
   * {@link TokenScanner} for the details). Markdown ATX headings are recognised in declared
   * Markdown, and in plain or untyped text that looks like Markdown (see {@link Markdown}).
   *
   * @param pageStarts offsets where each page starts (page 1 at index 0), or null for unpaged text
   * @param mediaType the content's media type (markdown headings are recognised), or null
   *     <p>Each span carries its section: the headings above it, outermost first ({@link
   *     HeadingPaths}), empty for text without Markdown headings.
   * @return spans in order, covering every non-blank part of the text; empty for blank text
   * @throws IllegalArgumentException if {@code pageStarts} does not start at 0, decreases, or
   *     points past the end of the text
   */
  public static List<ChunkSpan> split(
      String text, int[] pageStarts, String mediaType, CorpusSettings.Chunking settings) {
    return split(text, pageStarts, mediaType, settings, List.of());
  }

  /**
   * Splits {@code text} as {@link #split(String, int[], String, CorpusSettings.Chunking)} does,
   * with its tables as chunks of their own: a table starts a chunk and ends one, and its rows are
   * packed whole, as many as fit in {@code maxWords}, without overlap (each row names its cells by
   * their column's header, so every chunk of a table carries the header with each of its rows). A
   * row longer than a chunk alone is cut at words, as text is, and each of its chunks holds that
   * row only. Each chunk of a table carries its {@link ChunkTable}.
   *
   * @param tables where the text's tables lie, in text order, none overlapping
   * @throws IllegalArgumentException if a table lies outside the text or overlaps the one before
   */
  public static List<ChunkSpan> split(
      String text,
      int[] pageStarts,
      String mediaType,
      CorpusSettings.Chunking settings,
      List<SourceOperation.Table> tables) {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(settings, "settings");
    PageMap pages = pageStarts == null ? null : PageMap.of(pageStarts, text.length());
    boolean markdown = Markdown.hasHeadings(text, mediaType);
    if (tables.isEmpty()) {
      TokenScanner scanner =
          new TokenScanner(text, pages, markdown, settings.maxWords() * MAX_CHARS_PER_WORD);
      return HeadingPaths.assign(text, markdown, new SpanPacker(scanner, pages, settings).pack());
    }
    List<ChunkSpan> spans = new ArrayList<>();
    int from = 0;
    for (int index = 0; index < tables.size(); index++) {
      SourceOperation.Table table = tables.get(index);
      if (table.start() < from || table.end() > text.length()) {
        throw new IllegalArgumentException(
            "table "
                + index
                + " at "
                + table.start()
                + ".."
                + table.end()
                + " overlaps the one before it or lies past the text's end "
                + text.length());
      }
      packText(text, from, table.start(), pageStarts, markdown, settings, null, spans);
      packRows(text, table, index, pageStarts, pages, markdown, settings, spans);
      from = table.end();
    }
    packText(text, from, text.length(), pageStarts, markdown, settings, null, spans);
    return HeadingPaths.assign(text, markdown, Collections.unmodifiableList(spans));
  }

  /** Packs whole rows of {@code table} into chunks of at most {@code maxWords}. */
  private static void packRows(
      String text,
      SourceOperation.Table table,
      int index,
      int[] pageStarts,
      PageMap pages,
      boolean markdown,
      CorpusSettings.Chunking settings,
      List<ChunkSpan> out) {
    long budget = 2L * settings.maxWords();
    List<Integer> rowStarts = table.rowStarts();
    int first = -1; // the first row of the chunk being packed, 0-based
    int last = -1;
    long weight = 0;
    for (int r = 0; r < rowStarts.size(); r++) {
      int start = rowStarts.get(r);
      int end = trimEnd(text, start, r + 1 < rowStarts.size() ? rowStarts.get(r + 1) : table.end());
      if (end <= start) {
        continue; // a blank row
      }
      long rowWeight = weight(text, start, end, settings);
      if (first >= 0 && weight + rowWeight > budget) {
        out.add(tableSpan(text, rowStarts, first, last, table, index, pages));
        first = -1;
      }
      if (rowWeight > budget) {
        // One row longer than a chunk: cut at words, every piece holding this row alone.
        packText(
            text,
            start,
            end,
            pageStarts,
            markdown,
            settings,
            new ChunkTable(index, r + 1, r + 1),
            out);
        continue;
      }
      if (first < 0) {
        first = r;
        weight = 0;
      }
      last = r;
      weight += rowWeight;
    }
    if (first >= 0) {
      out.add(tableSpan(text, rowStarts, first, last, table, index, pages));
    }
  }

  private static ChunkSpan tableSpan(
      String text,
      List<Integer> rowStarts,
      int first,
      int last,
      SourceOperation.Table table,
      int index,
      PageMap pages) {
    int start = rowStarts.get(first);
    int end =
        trimEnd(text, start, last + 1 < rowStarts.size() ? rowStarts.get(last + 1) : table.end());
    return new ChunkSpan(
        start,
        end,
        pages == null ? null : pages.range(start, end),
        List.of(),
        new ChunkTable(index, first + 1, last + 1));
  }

  /** The weight, in half-words, the packer gives {@code text[start, end)}. */
  private static long weight(String text, int start, int end, CorpusSettings.Chunking settings) {
    Tokens tokens = new Tokens();
    TokenScanner scanner =
        new TokenScanner(
            text.substring(start, end), null, false, settings.maxWords() * MAX_CHARS_PER_WORD);
    while (scanner.next(tokens)) {
      // every token of the row
    }
    return tokens.weight(0, tokens.count());
  }

  /**
   * Chunks {@code text[from, to)} as text, its offsets and pages those of the whole text; each span
   * carries {@code table} (null outside tables).
   */
  private static void packText(
      String text,
      int from,
      int to,
      int[] pageStarts,
      boolean markdown,
      CorpusSettings.Chunking settings,
      ChunkTable table,
      List<ChunkSpan> out) {
    if (to <= from) {
      return;
    }
    String part = text.substring(from, to);
    PageMap local =
        pageStarts == null ? null : PageMap.of(localStarts(pageStarts, from, to), part.length());
    int shift = pageStarts == null ? 0 : pageOf(pageStarts, from) - 1;
    TokenScanner scanner =
        new TokenScanner(part, local, markdown, settings.maxWords() * MAX_CHARS_PER_WORD);
    for (ChunkSpan s : new SpanPacker(scanner, local, settings).pack()) {
      PageRange pages =
          s.pages() == null
              ? null
              : new PageRange(s.pages().from() + shift, s.pages().to() + shift);
      out.add(new ChunkSpan(from + s.start(), from + s.end(), pages, List.of(), table));
    }
  }

  private static int trimEnd(String text, int start, int end) {
    int e = end;
    while (e > start && Character.isWhitespace(text.charAt(e - 1))) {
      e--;
    }
    return e;
  }

  /** The page starts inside {@code [from, to)}, relative to {@code from}, with 0 first. */
  static int[] localStarts(int[] pageStarts, int from, int to) {
    List<Integer> local = new ArrayList<>();
    local.add(0);
    for (int p : pageStarts) {
      if (p > from && p < to) {
        local.add(p - from);
      }
    }
    return local.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The 1-based page holding {@code offset}: the last page starting at or before it. */
  static int pageOf(int[] pageStarts, int offset) {
    int page = 0;
    for (int p : pageStarts) {
      if (p <= offset) {
        page++;
      }
    }
    return page;
  }
}
