package dev.quarry.extractors.pdf;

import dev.quarry.extractors.ExtractedTable;
import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import dev.quarry.extractors.ExtractionLimits;
import dev.quarry.extractors.ExtractionWarning;
import dev.quarry.extractors.OutlineEntry;
import dev.quarry.extractors.ocr.Recognizer;
import dev.quarry.extractors.text.PagedTextBuilder;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.io.IOUtils;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.encryption.InvalidPasswordException;

/**
 * Extracts a PDF's text page by page with PDFBox: page starts, title, outline, and a warning
 * listing pages without a text layer. Given a {@link Recognizer}, pages without a text layer are
 * rendered and recognised (pages with text keep their own). A PDF with no text on any page is
 * {@link Failure#NO_TEXT_EXTRACTED}.
 *
 * <p>Streams are cached in temporary files, not on the heap, so a large document's memory stays
 * bounded. The page count is checked against the limit before any page is read.
 *
 * <p>Stateless and thread safe.
 */
public final class PdfExtractor {

  /**
   * Content-stream order, not position order. Measured on the shared corpus: sorting by position
   * interleaves the lines of two-column papers whenever their baselines line up, while the order
   * the producer wrote keeps each column's sentences together; for one-column documents the two
   * agree.
   */
  static final boolean SORT_BY_POSITION = false;

  /** Acrobat looks for the end-of-file marker in the last 1024 bytes; so do we. */
  static final int EOF_MARKER_WINDOW = 1024;

  /** Extracts {@code file}, a PDF, without OCR. */
  public Extraction extract(Path file, ExtractionLimits limits) throws ExtractionException {
    return extract(file, limits, null);
  }

  /**
   * Extracts {@code file}, a PDF; pages without a text layer are recognised by {@code recognizer}
   * unless it is null.
   */
  public Extraction extract(Path file, ExtractionLimits limits, Recognizer recognizer)
      throws ExtractionException {
    checkNotTruncated(file);
    try (PDDocument document = open(file)) {
      int pageCount = document.getNumberOfPages();
      if (pageCount > limits.maxDocumentPages()) {
        throw new ExtractionException(
            Failure.DOCUMENT_TOO_LARGE,
            "The PDF has "
                + pageCount
                + " pages, more than the limit of "
                + limits.maxDocumentPages()
                + " (maxDocumentPages).");
      }
      if (pageCount == 0) {
        throw new ExtractionException(Failure.EXTRACTION_FAILED, "The PDF has no readable pages.");
      }
      // PDFBox decodes a stream whole into the heap: a bomb is refused before it is read.
      StreamBombGuard.check(document.getDocument());
      PagedTextBuilder text =
          new PagedTextBuilder(limits.maxExtractedChars(), limits.maxDocumentPages());
      PageCollectingStripper stripper =
          new PageCollectingStripper(
              text,
              limits.maxExtractedChars(),
              FormFieldText.read(document, limits.maxExtractedChars()),
              recognizer == null ? null : new PageOcr(document, recognizer));
      stripper.setSortByPosition(SORT_BY_POSITION);
      try {
        stripper.extract(document);
      } catch (PageCollectingStripper.LimitExceededException e) {
        throw e.failure;
      }
      if (text.limitFailure() != null) {
        throw text.limitFailure();
      }
      return toExtraction(
          document,
          text,
          stripper.pagesWithoutText(),
          stripper.pageStyles(),
          stripper.tables(),
          stripper.leaderTableChars(),
          recognizer);
    } catch (IOException e) {
      throw new ExtractionException(
          Failure.EXTRACTION_FAILED,
          "The PDF could not be read: it is damaged.",
          ExtractionException.describe(e));
    }
  }

  private static Extraction toExtraction(
      PDDocument document,
      PagedTextBuilder text,
      List<Integer> blankPages,
      List<List<LineStyle>> styles,
      List<PageCollectingStripper.PageTable> found,
      Map<Float, Long> leaderTableChars,
      Recognizer recognizer)
      throws ExtractionException {
    String body = text.text();
    int pages = text.pageCount();
    if (body.isBlank()) {
      throw new ExtractionException(
          Failure.NO_TEXT_EXTRACTED,
          "None of the PDF's "
              + pages
              + " pages has a text layer; it appears to be scanned or image-only, and "
              + (recognizer == null
                  ? "OCR is off."
                  : "optical character recognition found no text on them."));
    }
    List<ExtractionWarning> warnings = new ArrayList<>();
    if (!blankPages.isEmpty()) {
      warnings.add(
          new ExtractionWarning(
              ExtractionWarning.NO_TEXT_LAYER,
              blankPages.size()
                  + " of "
                  + pages
                  + " pages have no text layer (scanned, image-only or blank)"
                  + (recognizer == null ? "" : " and recognition found no text on them")
                  + "; their content is missing.",
              blankPages));
    }
    if (recognizer != null) {
      warnings.addAll(recognizer.warnings());
    }
    List<OutlineEntry> outline;
    try {
      outline = new PdfOutlineReader(document).read();
    } catch (RuntimeException unreadable) {
      outline = List.of();
      warnings.add(
          new ExtractionWarning(
              ExtractionWarning.PARTIALLY_READ,
              "The PDF's outline could not be read and was left out."));
    }
    PdfHeadings.Result headed =
        PdfHeadings.apply(body, text.pageStarts(), outline, styles, leaderTableChars);
    boolean markdown = headed.headings() > 0;
    String withHeadings = markdown ? headed.text() : body;
    int[] pageStarts = markdown ? headed.pageStarts() : text.pageStarts();
    return new Extraction(
        withHeadings,
        pageStarts,
        PdfTitleReader.read(document),
        outline,
        "application/pdf",
        Extraction.PDFBOX,
        pages,
        withHeadings.length(),
        warnings,
        markdown,
        null,
        recognizer == null ? null : recognizer.report(),
        locate(withHeadings, pageStarts, found));
  }

  /**
   * Where each found table's rendered rows lie in the final text (headings may have been written
   * into it since): looked for in order from its page's start. A table whose rows are not all found
   * keeps its text but is not kept as a table.
   */
  static List<ExtractedTable> locate(
      String text, int[] pageStarts, List<PageCollectingStripper.PageTable> found) {
    List<ExtractedTable> out = new ArrayList<>();
    int from = 0;
    for (PageCollectingStripper.PageTable t : found) {
      int at = Math.max(from, pageStarts[Math.min(t.page(), pageStarts.length) - 1]);
      List<Integer> rowStarts = new ArrayList<>();
      int end = -1;
      for (String line : ExtractedTable.renderedRows(t.rows())) {
        if (at < 0) {
          break;
        }
        if (line.isEmpty()) {
          continue;
        }
        at = text.indexOf(line, at);
        if (at >= 0) {
          rowStarts.add(at);
          at += line.length();
          end = at;
        }
      }
      if (at >= 0 && !rowStarts.isEmpty()) {
        out.add(new ExtractedTable(rowStarts.get(0), end, t.rows(), rowStarts));
        from = end;
      }
    }
    return out;
  }

  private static PDDocument open(Path file) throws ExtractionException {
    try {
      PDDocument document =
          Loader.loadPDF(file.toFile(), "", null, null, IOUtils.createTempFileOnlyStreamCache());
      // Before any page is read: each page takes the document's cache when it is created.
      document.setResourceCache(new DocumentResourceCache());
      return document;
    } catch (InvalidPasswordException e) {
      throw encrypted();
    } catch (IOException e) {
      String reason = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
      if (reason.contains("decrypt")
          || reason.contains("security handler")
          || reason.contains("encrypt")
          || reason.contains("keystore")
          || reason.contains("certificate")) {
        throw encrypted();
      }
      throw new ExtractionException(
          Failure.EXTRACTION_FAILED,
          "The file is not a readable PDF: it is damaged.",
          ExtractionException.describe(e));
    }
  }

  private static ExtractionException encrypted() {
    return new ExtractionException(
        Failure.DOCUMENT_ENCRYPTED,
        "The PDF is encrypted and needs a password or certificate to be opened.");
  }

  /**
   * A PDF cut short (an interrupted upload) has no end-of-file marker. PDFBox would rebuild what it
   * can from the objects it finds, but half a document silently indexed as a whole is worse than a
   * clear error.
   */
  private static void checkNotTruncated(Path file) throws ExtractionException {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
      long length = raf.length();
      int window = (int) Math.min(EOF_MARKER_WINDOW, length);
      byte[] tail = new byte[window];
      raf.seek(length - window);
      raf.readFully(tail);
      if (!new String(tail, StandardCharsets.ISO_8859_1).contains("%%EOF")) {
        throw new ExtractionException(
            Failure.EXTRACTION_FAILED, "The PDF is truncated: it has no end-of-file marker.");
      }
    } catch (IOException e) {
      throw new ExtractionException(Failure.EXTRACTION_FAILED, "The file could not be read.");
    }
  }
}
