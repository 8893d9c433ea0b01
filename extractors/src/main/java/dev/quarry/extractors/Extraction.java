package dev.quarry.extractors;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The text of one document and what is known about its structure.
 *
 * <p>Offsets count UTF-16 code units of {@code text}, as Java strings index. For paged formats (PDF
 * pages, presentation slides, spreadsheet sheets) page {@code i + 1} starts at offset {@code
 * pageStarts[i]} and runs to the next page's start; {@link #pageOf(int)} does the lookup.
 *
 * @param text the extracted text, never blank
 * @param pageStarts start offset of each page, ascending, first one 0; null for unpaged formats
 * @param title the document's own title (PDF info dictionary or XMP, Office properties, HTML
 *     title), or null
 * @param outline the document's outline (PDF bookmarks), possibly empty
 * @param mediaType the media type detected from the bytes, for example {@code application/pdf}
 * @param extractor which extractor read it: {@value #PDFBOX}, {@value #TIKA}, {@value #TEXT} or
 *     {@value #TESSERACT}
 * @param pages the number of pages, slides or sheets, or null for unpaged formats
 * @param characters the length of {@code text}
 * @param warnings what the caller should know, possibly empty
 * @param markdownHeadings true when headings are rendered in {@code text} as Markdown ATX lines
 *     ({@code # Title}, {@code ## Section}), so a chunker may split the text as Markdown
 * @param encoding the charset plain text was decoded from (for example {@code UTF-8}, {@code
 *     IBM500}), or null for formats that carry their own encoding (PDF, Office, HTML)
 * @param ocr what optical character recognition did, or null when it recognised no page
 * @param tables the document's tables, in text order, with their cells (HTML, Office and
 *     OpenDocument documents, spreadsheets); possibly empty
 * @quarry.stable
 */
public record Extraction(
    String text,
    int[] pageStarts,
    String title,
    List<OutlineEntry> outline,
    String mediaType,
    String extractor,
    Integer pages,
    int characters,
    List<ExtractionWarning> warnings,
    boolean markdownHeadings,
    String encoding,
    OcrReport ocr,
    List<ExtractedTable> tables) {

  /** Extractor name of the PDFBox page-by-page PDF extractor. */
  public static final String PDFBOX = "pdfbox";

  /** Extractor name of the Apache Tika extractor (Office, OpenDocument, HTML, mail, ...). */
  public static final String TIKA = "tika";

  /** Extractor name of optical character recognition of an image. */
  public static final String TESSERACT = "tesseract";

  /** Extractor name of the direct reader of plain text and Markdown. */
  public static final String TEXT = "text";

  /** An extraction without a decoded charset and without OCR. */
  public Extraction(
      String text,
      int[] pageStarts,
      String title,
      List<OutlineEntry> outline,
      String mediaType,
      String extractor,
      Integer pages,
      int characters,
      List<ExtractionWarning> warnings,
      boolean markdownHeadings) {
    this(
        text,
        pageStarts,
        title,
        outline,
        mediaType,
        extractor,
        pages,
        characters,
        warnings,
        markdownHeadings,
        null,
        null,
        List.of());
  }

  /** An extraction without tables. */
  public Extraction(
      String text,
      int[] pageStarts,
      String title,
      List<OutlineEntry> outline,
      String mediaType,
      String extractor,
      Integer pages,
      int characters,
      List<ExtractionWarning> warnings,
      boolean markdownHeadings,
      String encoding,
      OcrReport ocr) {
    this(
        text,
        pageStarts,
        title,
        outline,
        mediaType,
        extractor,
        pages,
        characters,
        warnings,
        markdownHeadings,
        encoding,
        ocr,
        List.of());
  }

  public Extraction {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(mediaType, "mediaType");
    Objects.requireNonNull(extractor, "extractor");
    outline = outline == null ? List.of() : List.copyOf(outline);
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
    tables = tables == null ? List.of() : List.copyOf(tables);
    for (ExtractedTable t : tables) {
      if (t.end() > text.length()) {
        throw new IllegalArgumentException(
            "a table ends at " + t.end() + ", past the text's " + text.length());
      }
    }
    if (characters != text.length()) {
      throw new IllegalArgumentException(
          "characters must equal text length " + text.length() + ", got " + characters);
    }
    if (pageStarts != null) {
      pageStarts = pageStarts.clone();
      if (pages == null || pages != pageStarts.length) {
        throw new IllegalArgumentException(
            "pages must equal pageStarts length " + pageStarts.length + ", got " + pages);
      }
      for (int i = 0; i < pageStarts.length; i++) {
        int previous = i == 0 ? 0 : pageStarts[i - 1];
        if (pageStarts[i] < previous
            || pageStarts[i] > text.length()
            || (i == 0 && pageStarts[0] != 0)) {
          throw new IllegalArgumentException(
              "pageStarts[" + i + "] out of order: " + pageStarts[i]);
        }
      }
    }
  }

  /** This extraction with {@code newWarnings} as its warnings. */
  public Extraction withWarnings(List<ExtractionWarning> newWarnings) {
    return new Extraction(
        text,
        pageStarts,
        title,
        outline,
        mediaType,
        extractor,
        pages,
        characters,
        newWarnings,
        markdownHeadings,
        encoding,
        ocr,
        tables);
  }

  /** A copy of the page start offsets, or null for unpaged formats. */
  @Override
  public int[] pageStarts() {
    return pageStarts == null ? null : pageStarts.clone();
  }

  /**
   * The 1-based page holding the character at {@code offset}, or null for unpaged formats. Where
   * pages are empty, the last page starting at or before {@code offset} wins.
   */
  public Integer pageOf(int offset) {
    if (offset < 0 || offset > text.length()) {
      throw new IndexOutOfBoundsException(
          "offset " + offset + " outside [0, " + text.length() + "]");
    }
    if (pageStarts == null) {
      return null;
    }
    int found = Arrays.binarySearch(pageStarts, offset);
    if (found >= 0) {
      while (found + 1 < pageStarts.length && pageStarts[found + 1] == offset) {
        found++;
      }
      return found + 1;
    }
    return -found - 1;
  }

  /** The text of 1-based page {@code page}; for unpaged formats only page 1, the whole text. */
  public String pageText(int page) {
    int count = pageStarts == null ? 1 : pageStarts.length;
    if (page < 1 || page > count) {
      throw new IndexOutOfBoundsException("page " + page + " outside [1, " + count + "]");
    }
    if (pageStarts == null) {
      return text;
    }
    int end = page == pageStarts.length ? text.length() : pageStarts[page];
    return text.substring(pageStarts[page - 1], end);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Extraction that
        && text.equals(that.text)
        && Arrays.equals(pageStarts, that.pageStarts)
        && Objects.equals(title, that.title)
        && outline.equals(that.outline)
        && mediaType.equals(that.mediaType)
        && extractor.equals(that.extractor)
        && Objects.equals(pages, that.pages)
        && warnings.equals(that.warnings)
        && markdownHeadings == that.markdownHeadings
        && Objects.equals(encoding, that.encoding)
        && Objects.equals(ocr, that.ocr)
        && tables.equals(that.tables);
  }

  @Override
  public int hashCode() {
    return Objects.hash(text, Arrays.hashCode(pageStarts), title, mediaType, extractor, pages);
  }

  /** A summary; the text itself can be millions of characters long and is left out. */
  @Override
  public String toString() {
    return "Extraction[mediaType="
        + mediaType
        + ", extractor="
        + extractor
        + ", pages="
        + pages
        + ", characters="
        + characters
        + ", title="
        + title
        + ", outline="
        + outline.size()
        + " entries, warnings="
        + warnings
        + ", markdownHeadings="
        + markdownHeadings
        + ", encoding="
        + encoding
        + ", ocr="
        + ocr
        + ", tables="
        + tables.size()
        + "]";
  }
}
