package dev.quarry.engine.chunk;

import dev.quarry.engine.CorpusSettings;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Packs tokens into chunks, greedily and front to back.
 *
 * <p>A chunk takes tokens until the next one would take it over its budget, then ends at the best
 * break it has passed: the last paragraph or page boundary that leaves it at least half full, else
 * the last sentence end that does, else the last word. A Markdown heading always starts a new
 * chunk, without overlap, and the heading lines at the start of a chunk stay with the text after
 * them. After a size cut, the next chunk starts at the earliest sentence start among the last
 * {@code overlapWords} words of the chunk (never more than half of it), or without one exactly that
 * far back: either way a sentence the cut went through is whole in the next chunk when it fits.
 *
 * <p>Each token is scanned once and looked at a bounded number of times afterwards (the overlap is
 * at most half a chunk, the search for a break at most half a chunk), so packing is linear in the
 * length of the text.
 */
final class SpanPacker {
  private enum Cut {
    /** The text ended. */
    END,
    /** A heading starts the next chunk. */
    HEADING,
    /** The next token would not fit. */
    SIZE,
    /** Not even one new token fits after the overlap: drop the overlap and start again. */
    RETRY_WITHOUT_OVERLAP
  }

  private final TokenScanner scanner;
  private final PageMap pages;
  private final Tokens tokens = new Tokens();

  /** The most a chunk may weigh, in half-words. */
  private final long budget;

  /** The most the overlap between two chunks may weigh, in half-words. */
  private final long overlapBudget;

  /** Why the last {@link #findCut} ended the chunk. */
  private Cut cut;

  /** The first token of the chunk after its leading heading lines; -1 if it holds nothing else. */
  private int bodyStart;

  SpanPacker(TokenScanner scanner, PageMap pages, CorpusSettings.Chunking settings) {
    this.scanner = scanner;
    this.pages = pages;
    this.budget = 2L * settings.maxWords();
    this.overlapBudget = 2L * settings.overlapWords();
  }

  List<ChunkSpan> pack() {
    List<ChunkSpan> spans = new ArrayList<>();
    int carried = 0; // tokens of overlap at the front of the window
    while (tokens.count() > 0 || scanner.next(tokens)) {
      int end = findCut(carried);
      if (cut == Cut.RETRY_WITHOUT_OVERLAP) {
        tokens.removeFirst(carried);
        carried = 0;
        continue;
      }
      spans.add(span(end));
      if (cut == Cut.END) {
        break;
      }
      int next = cut == Cut.SIZE ? overlapStart(end) : end;
      tokens.removeFirst(next);
      carried = end - next;
    }
    return Collections.unmodifiableList(spans);
  }

  /**
   * Extends the chunk that starts at token 0 and returns its end: it holds tokens {@code [0, end)}.
   *
   * @param carried the number of overlap tokens at the front; the chunk must go past them
   */
  private int findCut(int carried) {
    boolean onlyHeadings = tokens.has(0, Tokens.IN_HEADING);
    bodyStart = onlyHeadings ? -1 : 0;
    for (int i = 1; ; i++) {
      if (i == tokens.count() && !scanner.next(tokens)) {
        cut = Cut.END;
        return i;
      }
      if (tokens.has(i, Tokens.HEADING) && !onlyHeadings) {
        cut = Cut.HEADING;
        return i;
      }
      if (onlyHeadings && !tokens.has(i, Tokens.IN_HEADING)) {
        onlyHeadings = false;
        bodyStart = i;
      }
      if (tokens.weight(0, i + 1) > budget) {
        cut = Cut.SIZE;
        return sizeCut(i, carried);
      }
    }
  }

  /** The best end for a chunk that token {@code overflow} would take over its budget. */
  private int sizeCut(int overflow, int carried) {
    // The chunk must hold a new token, and at least one after its headings.
    int lowest = Math.max(carried + 1, bodyStart > 0 ? bodyStart + 1 : 1);
    if (lowest > overflow) {
      if (carried > 0) {
        cut = Cut.RETRY_WITHOUT_OVERLAP; // the first new token is huge; the overlap must make room
        return -1;
      }
      return overflow; // headings that fill a chunk on their own: keep them apart from what follows
    }
    long half = budget / 2;
    int sentence = -1;
    for (int end = overflow; end >= lowest && tokens.weight(0, end) >= half; end--) {
      if (tokens.has(end, Tokens.PARAGRAPH | Tokens.PAGE)) {
        return end;
      }
      if (sentence < 0 && tokens.has(end, Tokens.SENTENCE)) {
        sentence = end;
      }
    }
    return sentence > 0 ? sentence : overflow;
  }

  /** The first token of the chunk after one that was cut for size before token {@code end}. */
  private int overlapStart(int end) {
    if (overlapBudget == 0 || bodyStart < 0) {
      return end;
    }
    long limit = Math.min(overlapBudget, tokens.weight(0, end) / 2);
    // Half the chunk also by plain word count: a chunk weighed down by long data runs has few
    // words.
    int chunkWords = 0;
    for (int k = 0; k < end; k++) {
      chunkWords += tokens.has(k, Tokens.RUN_START) ? 1 : 0;
    }
    int word = end;
    int sentence = -1;
    int overlapWords = 0;
    for (int k = end - 1; k >= Math.max(1, bodyStart); k--) {
      overlapWords += tokens.has(k, Tokens.RUN_START) ? 1 : 0;
      if (tokens.weight(k, end) > limit || 2 * overlapWords > chunkWords) {
        break;
      }
      word = k;
      if (tokens.has(k, Tokens.SENTENCE)) {
        sentence = k;
      }
    }
    return sentence > 0 ? sentence : word;
  }

  private ChunkSpan span(int end) {
    int startOffset = tokens.start(0);
    int endOffset = tokens.end(end - 1);
    return new ChunkSpan(
        startOffset, endOffset, pages == null ? null : pages.range(startOffset, endOffset));
  }
}
