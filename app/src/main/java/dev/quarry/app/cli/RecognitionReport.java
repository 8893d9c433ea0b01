package dev.quarry.app.cli;

import dev.quarry.client.Receipt;
import dev.quarry.engine.IngestReport;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * What optical character recognition did for one ingested file, as {@code quarry ingest} prints it
 * on stdout before its closing table: pages recognised, words and mean confidence, then one line
 * per recognition warning (pages read poorly, not at all, or turned upright).
 *
 * @param meanConfidence 0 to 100, or null when no word was found
 * @param warnings the {@code OCR_*} warnings of the file's extraction report
 */
record RecognitionReport(
    int pagesRecognized, Double meanConfidence, int words, List<Receipt.Warning> warnings) {
  /** Pages listed by number in a warning's line; the rest are counted. */
  static final int PAGES_LISTED = 10;

  RecognitionReport {
    warnings = List.copyOf(warnings);
  }

  /** The report of a server's receipt, or null when it carries none (no page was recognised). */
  static RecognitionReport of(Receipt receipt) {
    if (receipt == null || receipt.ocr() == null) {
      return null;
    }
    Receipt.Ocr ocr = receipt.ocr();
    return new RecognitionReport(
        ocr.pagesRecognized(), ocr.meanConfidence(), ocr.words(), receipt.ocrWarnings());
  }

  /** The report of an ingest into a data folder, or null when no page was recognised. */
  static RecognitionReport of(IngestReport report) {
    if (report == null || report.ocr() == null) {
      return null;
    }
    List<Receipt.Warning> warnings =
        report.warnings().stream()
            .filter(w -> w.code().startsWith(Receipt.OCR_WARNING_PREFIX))
            .map(w -> new Receipt.Warning(w.code(), w.message(), w.pages()))
            .toList();
    return new RecognitionReport(
        report.ocr().pagesRecognized(),
        report.ocr().meanConfidence(),
        report.ocr().words(),
        warnings);
  }

  /**
   * Prints the report of {@code source}: {@code ocr SOURCE: N pages recognised, ...} and its
   * warnings.
   */
  void print(String source, PrintWriter out) {
    out.println(
        "ocr "
            + source
            + ": "
            + pagesRecognized
            + (pagesRecognized == 1 ? " page" : " pages")
            + " recognised, "
            + words
            + " words, mean confidence "
            + (meanConfidence == null
                ? "none"
                : String.format(Locale.ROOT, "%.1f", meanConfidence)));
    for (Receipt.Warning w : warnings) {
      out.println("  " + w.code() + pages(w.pages()) + ": " + w.message());
    }
  }

  private static String pages(List<Integer> pages) {
    if (pages == null || pages.isEmpty()) {
      return "";
    }
    StringBuilder text = new StringBuilder(pages.size() == 1 ? " (page " : " (pages ");
    for (int i = 0; i < Math.min(pages.size(), PAGES_LISTED); i++) {
      text.append(i == 0 ? "" : ", ").append(pages.get(i));
    }
    if (pages.size() > PAGES_LISTED) {
      text.append(" and ").append(pages.size() - PAGES_LISTED).append(" more");
    }
    return text.append(')').toString();
  }
}
