package dev.quarry.extractors.pdf;

import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.text.PagedTextBuilder;
import java.io.IOException;
import java.io.Writer;
import java.text.Normalizer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.documentinterchange.markedcontent.PDMarkedContent;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDFontDescriptor;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;

/**
 * A text stripper that hands each page's text, NFKC-normalised, to a {@link PagedTextBuilder}
 * as the page ends, so page starts are exact offsets into the final text and the character
 * budget is checked page by page rather than after the whole document.
 *
 * <p>Form field values (AcroForm), which live outside the page's content stream, are added
 * after the text of the page that shows them.
 *
 * <p>NFKC turns presentation forms into plain letters: the ligature "ﬁ" becomes "fi", so a
 * search for "file" finds "ﬁle". Words hyphenated at a line end are joined. One stripper per document; not thread safe.
 */
final class PageCollectingStripper extends PDFTextStripper {

  /**
   * A lower-case letter, a hyphen at the end of a line, and a lower-case letter: a word split
   * by justification ("com-\npile"), joined again so it can be found. The price is that a
   * compound broken at its own hyphen ("well-\nknown") loses the hyphen.
   */
  private static final Pattern LINE_END_HYPHEN = Pattern.compile("(\\p{Ll})-\n(\\p{Ll})");

  private final PagedTextBuilder text;
  private final PageBuffer pageBuffer;
  private final FormFieldText formFields;
  private final List<Integer> pagesWithoutText = new ArrayList<>();
  /** Recognises pages without a text layer, or null when OCR is off. */
  private final PageOcr ocr;
  private final Map<COSDictionary, Integer> pageNumbers = new IdentityHashMap<>();
  private int currentPage;
  /** The styles of each page's lines, page by page (1-based page i at index i - 1). */
  private final List<List<LineStyle>> pageStyles = new ArrayList<>();
  private List<LineStyle> currentStyles = new ArrayList<>();
  private final StringBuilder lineText = new StringBuilder();
  /** Characters of the line being written, by font size, and how many of them are bold. */
  private final Map<Float, Integer> lineSizes = new HashMap<>();
  private int lineChars;
  private int lineBold;

  PageCollectingStripper(PagedTextBuilder text, int maxChars, FormFieldText formFields, PageOcr ocr) {
    this.text = text;
    this.ocr = ocr;
    this.pageBuffer = new PageBuffer(maxChars);
    this.formFields = formFields;
    setLineSeparator("\n");
    // The same rule, answered by a cheaper structure (OverprintFilter); see processTextPosition.
    setSuppressDuplicateOverlappingText(false);
  }

  /** Glyphs already shown on the current page, to drop the second drawing of a fake-bold glyph. */
  private final OverprintFilter overprints = new OverprintFilter();

  /**
   * Per open marked-content sequence, whether it carries an /ActualText; mirrors PDFBox's own
   * bookkeeping, which skips the duplicate rule while an /ActualText replaces the glyphs.
   */
  private final Deque<Boolean> markedContentHasActualText = new ArrayDeque<>();
  private boolean inActualText;

  @Override
  public void beginMarkedContentSequence(COSName tag, COSDictionary properties) {
    boolean hasActualText = PDMarkedContent.create(tag, properties).getActualText() != null;
    markedContentHasActualText.push(hasActualText);
    inActualText = hasActualText;
    super.beginMarkedContentSequence(tag, properties);
  }

  @Override
  public void endMarkedContentSequence() {
    Boolean hadActualText = markedContentHasActualText.poll();
    if (Boolean.TRUE.equals(hadActualText)) {
      inActualText = false;
    }
    super.endMarkedContentSequence();
  }

  @Override
  protected void processTextPosition(TextPosition text) {
    if (inActualText) {
      super.processTextPosition(text);
      return;
    }
    String character = text.getUnicode();
    float tolerance = text.getWidth() / character.length() / 3.0f;
    if (!overprints.isRepeat(character, text.getX(), text.getY(), tolerance)) {
      super.processTextPosition(text);
    }
  }

  @Override
  protected void writeString(String string, List<TextPosition> positions) throws IOException {
    for (TextPosition p : positions) {
      float size = Math.round(p.getFontSizeInPt() * 2) / 2f; // half points: sizes a producer rounds alike
      lineSizes.merge(size, 1, Integer::sum);
      lineChars++;
      if (isBold(p)) {
        lineBold++;
      }
    }
    lineText.append(string);
    super.writeString(string, positions);
  }

  @Override
  protected void writeWordSeparator() throws IOException {
    lineText.append(' ');
    super.writeWordSeparator();
  }

  @Override
  protected void writeLineSeparator() throws IOException {
    endLine();
    super.writeLineSeparator();
  }

  private void endLine() {
    if (lineChars > 0) {
      float size = 0;
      int most = -1;
      for (Map.Entry<Float, Integer> e : lineSizes.entrySet()) {
        if (e.getValue() > most || (e.getValue() == most && e.getKey() > size)) {
          most = e.getValue();
          size = e.getKey();
        }
      }
      currentStyles.add(new LineStyle(lineText.toString(), size, lineBold * 10 >= lineChars * 9));
    }
    lineText.setLength(0);
    lineSizes.clear();
    lineChars = 0;
    lineBold = 0;
  }

  private static boolean isBold(TextPosition p) {
    PDFont font = p.getFont();
    if (font == null) {
      return false;
    }
    PDFontDescriptor descriptor = font.getFontDescriptor();
    if (descriptor != null && (descriptor.isForceBold() || descriptor.getFontWeight() >= 600)) {
      return true;
    }
    String name = font.getName();
    if (name == null) {
      return false;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    return lower.contains("bold") || lower.contains("black") || lower.contains("heavy") || lower.contains("semibold");
  }

  /** The styles of each page's lines, in page order (pages without text have none). */
  List<List<LineStyle>> pageStyles() {
    return List.copyOf(pageStyles);
  }

  private void closePageStyles() {
    endLine();
    while (pageStyles.size() < currentPage - 1) {
      pageStyles.add(List.of());
    }
    pageStyles.add(List.copyOf(currentStyles));
    currentStyles = new ArrayList<>();
  }

  /**
   * Extracts every page of {@code document} into the builder. PDFBox skips pages without a
   * content stream; they still get their (empty) place, so page numbers stay right.
   */
  void extract(PDDocument document) throws IOException {
    int number = 1;
    for (PDPage page : document.getPages()) {
      pageNumbers.putIfAbsent(page.getCOSObject(), number++);
    }
    writeText(document, pageBuffer);
    padEmptyPagesUpTo(document.getNumberOfPages());
  }

  private void padEmptyPagesUpTo(int lastPage) throws IOException {
    while (currentPage < lastPage) {
      currentPage++;
      try {
        text.startPage();
        String fields = formFields.textOf(currentPage);
        if (fields.isBlank()) {
          pagesWithoutText.add(currentPage);
        } else {
          text.append(fields);
        }
      } catch (ExtractionException e) {
        throw new LimitExceededException(e);
      }
    }
  }

  /** The 1-based pages that produced no text (scanned, image-only or blank). */
  List<Integer> pagesWithoutText() {
    return List.copyOf(pagesWithoutText);
  }

  @Override
  protected void startPage(PDPage page) throws IOException {
    Integer number = pageNumbers.get(page.getCOSObject());
    if (number != null) {
      padEmptyPagesUpTo(number - 1);
    }
    pageBuffer.chars.setLength(0);
    overprints.clear();
    currentPage++;
    try {
      text.startPage();
    } catch (ExtractionException e) {
      throw new LimitExceededException(e);
    }
    super.startPage(page);
  }

  @Override
  protected void endPage(PDPage page) throws IOException {
    super.endPage(page);
    closePageStyles();
    String normalized = Normalizer.normalize(pageBuffer.chars, Normalizer.Form.NFKC);
    // Most pages have no hyphen at a line end: the cheap test spares them the pattern's scan.
    String joined = normalized.contains("-\n") ? LINE_END_HYPHEN.matcher(normalized).replaceAll("$1$2") : normalized;
    String pageText = joined + formFields.textOf(currentPage);
    pageBuffer.chars.setLength(0);
    try {
      if (pageText.isBlank() && ocr != null) {
        pageText = ocr.recognize(currentPage);
      }
      if (pageText.isBlank()) {
        pagesWithoutText.add(currentPage);
      }
      text.append(pageText);
    } catch (ExtractionException e) {
      throw new LimitExceededException(e);
    }
  }

  /** Carries a limit failure through PDFBox, which only lets IOExceptions out. */
  static final class LimitExceededException extends IOException {
    final ExtractionException failure;

    LimitExceededException(ExtractionException failure) {
      super(failure.getMessage());
      this.failure = failure;
    }
  }

  /** Holds the current page's raw text; refuses to grow past the document's character budget. */
  private static final class PageBuffer extends Writer {
    final StringBuilder chars = new StringBuilder();
    private final int maxChars;

    PageBuffer(int maxChars) {
      this.maxChars = maxChars;
    }

    @Override
    public void write(char[] buffer, int offset, int length) throws IOException {
      if ((long) chars.length() + length > maxChars) {
        throw new LimitExceededException(PagedTextBuilder.tooManyCharacters(maxChars));
      }
      chars.append(buffer, offset, length);
    }

    @Override
    public void write(String s, int offset, int length) throws IOException {
      if ((long) chars.length() + length > maxChars) {
        throw new LimitExceededException(PagedTextBuilder.tooManyCharacters(maxChars));
      }
      chars.append(s, offset, offset + length);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}
