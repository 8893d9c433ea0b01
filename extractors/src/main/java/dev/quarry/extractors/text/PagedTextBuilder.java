package dev.quarry.extractors.text;

import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import java.util.Arrays;

/**
 * Accumulates a document's text and where each page starts, within a character and page budget.
 * Passing either bound fails with {@link Failure#DOCUMENT_TOO_LARGE} at once, so a parser stops
 * early instead of filling memory; the first such failure is also remembered, because some parsers
 * swallow exceptions thrown from their output callbacks.
 *
 * <p>Not thread safe: one builder per document.
 */
public final class PagedTextBuilder {

  private final int maxChars;
  private final int maxPages;
  private final StringBuilder text = new StringBuilder();
  private int[] pageStarts = new int[16];
  private int pageCount;
  private ExtractionException limitFailure;

  public PagedTextBuilder(int maxChars, int maxPages) {
    this.maxChars = maxChars;
    this.maxPages = maxPages;
  }

  /** Marks the current end of the text as the start of the next page. */
  public void startPage() throws ExtractionException {
    if (pageCount == maxPages) {
      throw remember(
          new ExtractionException(
              Failure.DOCUMENT_TOO_LARGE,
              "The document has more than " + maxPages + " pages (maxDocumentPages)."));
    }
    if (pageCount == pageStarts.length) {
      pageStarts = Arrays.copyOf(pageStarts, pageCount * 2);
    }
    // Text before the first page (a cover title, say) belongs to page 1.
    pageStarts[pageCount] = pageCount == 0 ? 0 : text.length();
    pageCount++;
  }

  /** Appends text, failing once the total would pass the character budget. */
  public void append(CharSequence chars) throws ExtractionException {
    checkRoom(chars.length());
    text.append(chars);
  }

  /** Appends one character, failing once the total would pass the character budget. */
  public void append(char c) throws ExtractionException {
    checkRoom(1);
    text.append(c);
  }

  private void checkRoom(int more) throws ExtractionException {
    if (limitFailure != null) {
      throw limitFailure;
    }
    if ((long) text.length() + more > maxChars) {
      throw remember(tooManyCharacters(maxChars));
    }
  }

  /** The failure for text over {@code maxChars}, shared so every extractor says the same. */
  public static ExtractionException tooManyCharacters(int maxChars) {
    return new ExtractionException(
        Failure.DOCUMENT_TOO_LARGE,
        "The document's text is longer than " + maxChars + " characters (maxExtractedChars).");
  }

  private ExtractionException remember(ExtractionException failure) {
    if (limitFailure == null) {
      limitFailure = failure;
    }
    return limitFailure;
  }

  /** The first limit failure raised, even if a parser swallowed it; null when none. */
  public ExtractionException limitFailure() {
    return limitFailure;
  }

  public int length() {
    return text.length();
  }

  /** The last character appended, or 0 when empty. */
  public char lastChar() {
    return text.isEmpty() ? 0 : text.charAt(text.length() - 1);
  }

  /** How many newlines end the text, counting at most {@code max}. */
  public int trailingNewlines(int max) {
    int count = 0;
    for (int i = text.length() - 1; i >= 0 && count < max && text.charAt(i) == '\n'; i--) {
      count++;
    }
    return count;
  }

  public int pageCount() {
    return pageCount;
  }

  /** Page start offsets so far, or null when no page was started. */
  public int[] pageStarts() {
    return pageCount == 0 ? null : Arrays.copyOf(pageStarts, pageCount);
  }

  public String text() {
    return text.toString();
  }
}
