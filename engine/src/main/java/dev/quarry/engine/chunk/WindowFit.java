package dev.quarry.engine.chunk;

import dev.quarry.engine.ChunkTable;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.PageRange;
import dev.quarry.engine.SourceOperation;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Sizes chunks for an embedding model's window. The chunker counts words; a model counts word
 * pieces, and a chunk of numbers, formulas or a rare language can take three or four word pieces a
 * word where English prose takes about 1.3. A chunk whose embedded text is longer than the window
 * would be embedded from its start only, so it is split again, with the chunker's own rules
 * (headings, paragraphs, sentences, pages), into smaller chunks that fit.
 *
 * <p>Chunks that already fit are untouched: a corpus whose chunking suits its model gets exactly
 * the chunker's chunks. A chunk is never split below {@link CorpusSettings.Chunking#MIN_MAX_WORDS}
 * words; one that still does not fit then (a title alone nearly as long as the window) is embedded
 * from its start and counted as truncated.
 */
public final class WindowFit {
  /** Aim this far below the window, so one re-split nearly always fits. */
  static final double MARGIN = 0.9;

  private WindowFit() {}

  /**
   * {@code spans} (the chunker's split of {@code text} with {@code settings}), each one whose
   * embedded text takes more than {@code window} word pieces split again until it fits.
   *
   * @param tokens word pieces the model reads for a chunk's text (what it embeds for the chunk,
   *     title and prefixes included)
   * @param emptyTokens word pieces of what is embedded for an empty chunk (title, prefixes, special
   *     tokens): the part of the window no split can free
   * @param tables the tables the spans were cut with: a chunk of a table is split again between its
   *     rows, and its pieces keep the table
   */
  public static List<ChunkSpan> fit(
      String text,
      int[] pageStarts,
      String mediaType,
      CorpusSettings.Chunking settings,
      List<SourceOperation.Table> tables,
      List<ChunkSpan> spans,
      ToIntFunction<String> tokens,
      int emptyTokens,
      int window) {
    if (window - emptyTokens < CorpusSettings.Chunking.MIN_MAX_WORDS) {
      return spans; // nothing fits beside this title; every chunk is truncated and reported so
    }
    List<ChunkSpan> out = new ArrayList<>(spans.size());
    for (ChunkSpan s : spans) {
      fitOne(text, pageStarts, mediaType, settings, tables, s, tokens, emptyTokens, window, out);
    }
    // A piece was chunked alone, without the headings above it: give it the section of the whole
    // text.
    return out.size() == spans.size()
        ? spans
        : HeadingPaths.assign(text, Markdown.hasHeadings(text, mediaType), out);
  }

  private static void fitOne(
      String text,
      int[] pageStarts,
      String mediaType,
      CorpusSettings.Chunking settings,
      List<SourceOperation.Table> tables,
      ChunkSpan s,
      ToIntFunction<String> tokens,
      int emptyTokens,
      int window,
      List<ChunkSpan> out) {
    String part = text.substring(s.start(), s.end());
    int used = tokens.applyAsInt(part);
    if (used <= window || settings.maxWords() <= CorpusSettings.Chunking.MIN_MAX_WORDS) {
      out.add(s);
      return;
    }
    CorpusSettings.Chunking smaller = smaller(settings, used - emptyTokens, window - emptyTokens);
    ChunkTable table = s.table();
    List<SourceOperation.Table> rows =
        table == null || table.firstRow() == table.lastRow()
            ? List.of()
            : List.of(localRows(tables.get(table.index()), table, s));
    List<ChunkSpan> pieces =
        Chunker.split(
            part, pageStarts == null ? null : localStarts(pageStarts, s), mediaType, smaller, rows);
    int firstPage = pageStarts == null ? 0 : pageOf(pageStarts, s.start());
    for (ChunkSpan p : pieces) {
      PageRange pages =
          p.pages() == null
              ? null
              : new PageRange(p.pages().from() + firstPage - 1, p.pages().to() + firstPage - 1);
      // A piece of a table's rows holds some of them; a piece of one long row holds that row.
      ChunkTable pieceTable =
          table == null || p.table() == null
              ? table
              : new ChunkTable(
                  table.index(),
                  table.firstRow() + p.table().firstRow() - 1,
                  table.firstRow() + p.table().lastRow() - 1);
      ChunkSpan piece =
          new ChunkSpan(s.start() + p.start(), s.start() + p.end(), pages, List.of(), pieceTable);
      fitOne(text, pageStarts, mediaType, smaller, tables, piece, tokens, emptyTokens, window, out);
    }
  }

  /**
   * Chunking scaled by the room the window leaves over what the chunk took, with the margin, and at
   * least a tenth smaller each time (so the recursion ends however the estimate goes); overlap
   * keeps its share of the chunk.
   */
  static CorpusSettings.Chunking smaller(
      CorpusSettings.Chunking settings, int chunkTokens, int room) {
    int max = settings.maxWords();
    int estimate = (int) Math.floor(max * MARGIN * room / Math.max(1, chunkTokens));
    int words = Math.max(CorpusSettings.Chunking.MIN_MAX_WORDS, Math.min(estimate, max * 9 / 10));
    int overlap = (int) ((long) settings.overlapWords() * words / max);
    return new CorpusSettings.Chunking(words, Math.min(overlap, words / 2));
  }

  /**
   * The rows {@code table} names of {@code whole}, as a table of their own within {@code s}'s text.
   */
  private static SourceOperation.Table localRows(
      SourceOperation.Table whole, ChunkTable table, ChunkSpan s) {
    List<Integer> starts = new ArrayList<>();
    for (int r = table.firstRow(); r <= table.lastRow(); r++) {
      starts.add(whole.rowStarts().get(r - 1) - s.start());
    }
    return new SourceOperation.Table(0, s.end() - s.start(), starts);
  }

  /** The page starts inside {@code s}, relative to its start, with 0 first. */
  private static int[] localStarts(int[] pageStarts, ChunkSpan s) {
    List<Integer> local = new ArrayList<>();
    local.add(0);
    for (int p : pageStarts) {
      if (p > s.start() && p < s.end()) {
        local.add(p - s.start());
      }
    }
    return local.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The 1-based page holding {@code offset}: the last page starting at or before it. */
  private static int pageOf(int[] pageStarts, int offset) {
    int page = 0;
    for (int p : pageStarts) {
      if (p <= offset) {
        page++;
      }
    }
    return page;
  }
}
