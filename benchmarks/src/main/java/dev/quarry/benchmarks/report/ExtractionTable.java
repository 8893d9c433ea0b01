package dev.quarry.benchmarks.report;

import dev.quarry.benchmarks.extraction.Pdftotext;
import dev.quarry.benchmarks.extraction.SharedDocuments;
import dev.quarry.benchmarks.jmh.ExtractionBenchmark;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * Extraction figures: Quarry's extractors beside {@code pdftotext} on the same PDFs, as a Markdown
 * table. Other formats have no reference, so their rows show Quarry alone.
 */
public final class ExtractionTable {
  /** An empty table: extraction was not measured. */
  public static final ExtractionTable NONE = new ExtractionTable(List.of());

  /**
   * One row.
   *
   * @param documents which documents and how many
   * @param quarry Quarry's figure
   * @param pdftotext the reference's figure, NaN where it does not apply or did not run
   */
  public record Row(
      String measure, String documents, int threads, String unit, double quarry, double pdftotext) {
    /** Quarry / pdftotext; NaN without a reference. */
    public double ratio() {
      return quarry / pdftotext;
    }
  }

  private final List<Row> rows;

  private ExtractionTable(List<Row> rows) {
    this.rows = List.copyOf(rows);
  }

  /**
   * @param results the extraction benchmark's results (other benchmarks' are ignored)
   * @param pdftotext the reference over the same PDFs, or null when it did not run
   */
  public static ExtractionTable of(
      Collection<RunResult> results, SharedDocuments documents, Pdftotext.Throughput pdftotext) {
    List<Row> rows = new ArrayList<>();
    for (RunResult result : results) {
      if (!result.getParams().getBenchmark().startsWith(ExtractionBenchmark.class.getName())) {
        continue;
      }
      SharedDocuments.Kind kind =
          SharedDocuments.Kind.fromParam(result.getParams().getParam("documents"));
      int threads = result.getParams().getThreads();
      Map<String, Result> secondary = result.getSecondaryResults();
      double attempted = result.getPrimaryResult().getScore();
      double failed = secondary.get("failures").getScore();
      if (kind == SharedDocuments.Kind.PDF) {
        String pdfs = String.format(Locale.ROOT, "%,d PDFs (PDFBox)", documents.pdfs().size());
        double referencePages = pdftotext == null ? Double.NaN : pdftotext.pagesPerSecond();
        double referenceDocuments = pdftotext == null ? Double.NaN : pdftotext.documentsPerSecond();
        rows.add(
            new Row(
                "extraction",
                pdfs,
                threads,
                "pages/s",
                secondary.get("pages").getScore(),
                referencePages));
        rows.add(new Row("extraction", pdfs, threads, "docs/s", attempted, referenceDocuments));
        rows.add(new Row("typed failures", pdfs, threads, "docs/s", failed, Double.NaN));
      } else {
        String others =
            String.format(
                Locale.ROOT, "%,d other documents (Tika, plain text)", documents.others().size());
        rows.add(new Row("extraction", others, threads, "docs/s", attempted, Double.NaN));
        rows.add(new Row("typed failures", others, threads, "docs/s", failed, Double.NaN));
      }
    }
    return new ExtractionTable(rows);
  }

  public List<Row> rows() {
    return rows;
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  public String toMarkdown() {
    StringBuilder out = new StringBuilder();
    out.append(
        "| measure | documents | threads | unit | Quarry | pdftotext | Quarry / pdftotext |\n");
    out.append("|---|---|---:|---|---:|---:|---:|\n");
    for (Row row : rows) {
      out.append("| ")
          .append(row.measure())
          .append(" | ")
          .append(row.documents())
          .append(" | ")
          .append(row.threads())
          .append(" | ")
          .append(row.unit())
          .append(" | ")
          .append(ResultTable.figure(row.quarry()))
          .append(" | ")
          .append(Double.isNaN(row.pdftotext()) ? "-" : ResultTable.figure(row.pdftotext()))
          .append(" | ")
          .append(ResultTable.ratio(row.ratio()))
          .append(" |\n");
    }
    return out.toString();
  }
}
