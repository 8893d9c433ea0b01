package dev.quarry.benchmarks.extraction;

import dev.quarry.extractors.ExtractedTable;
import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.Extractors;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code extraction-structure} command: the headings and tables Quarry's extractors find in the
 * shared documents, against the structure Docling publishes for the same documents (its test ground
 * truth, kept in this module's resources with its licence: {@code docling-groundtruth/}). One row
 * per document, then a total per kind of format; see docs/benchmarks.md.
 */
public final class StructureCommand {
  static final String RESOURCES = "/docling-groundtruth/";

  private StructureCommand() {}

  /** One shared document and its reference. */
  record Reference(String file, String doclingPath) {}

  /** One document's outcome: a score, or why there is none. */
  record Row(String file, String format, StructureScore score, String problem) {}

  public static void main(String[] args) throws IOException {
    Path shared = SharedDocuments.DEFAULT_DIR;
    Path out = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--shared" -> shared = Path.of(value(args, ++i));
        case "--out" -> out = Path.of(value(args, ++i));
        default ->
            throw new IllegalArgumentException(
                "unknown option "
                    + args[i]
                    + "; usage: extraction-structure [--shared DIR] [--out FILE]");
      }
    }
    String unavailable = SharedDocuments.unavailableReason(shared);
    if (unavailable != null) {
      System.out.println("Structure not measured: " + unavailable);
      return;
    }
    List<Row> rows;
    try (Extractors extractors = Extractors.builder().build()) {
      rows = run(extractors, shared.resolve("data").resolve("docs").resolve("good"), System.err);
    }
    String markdown = toMarkdown(rows);
    System.out.println(markdown);
    if (out != null) {
      Files.writeString(out, markdown, StandardCharsets.UTF_8);
    }
  }

  /** Every reference, read from the resources. */
  static List<Reference> references() {
    List<Reference> refs = new ArrayList<>();
    for (String line : resource("index.tsv").split("\n")) {
      String[] cols = line.split("\t");
      if (cols.length == 2 && !cols[0].equals("shared_file")) {
        refs.add(new Reference(cols[0].strip(), cols[1].strip()));
      }
    }
    return refs;
  }

  static List<Row> run(Extractors extractors, Path good, PrintStream log) {
    List<Row> rows = new ArrayList<>();
    for (Reference ref : references()) {
      String format = format(ref.file());
      Path file = good.resolve(ref.file());
      if (!Files.isReadable(file)) {
        rows.add(new Row(ref.file(), format, null, "not in the shared folder"));
        continue;
      }
      try {
        rows.add(new Row(ref.file(), format, score(extractors, file, ref), null));
      } catch (ExtractionException e) {
        log.println(ref.file() + ": " + e.failure() + " " + e.getMessage());
        rows.add(new Row(ref.file(), format, null, "extraction failed: " + e.failure()));
      }
    }
    return rows;
  }

  /** How the extraction of {@code file} agrees with its reference. */
  static StructureScore score(Extractors extractors, Path file, Reference ref)
      throws ExtractionException {
    DocumentStructure reference = DocumentStructure.ofMarkdown(resource(ref.file() + ".md"));
    return StructureScore.of(
        reference, structureOf(extractors.extract(file, declaredType(ref.file()))));
  }

  /** What an extraction holds: its Markdown headings and its tables' cells, normalised. */
  static DocumentStructure structureOf(Extraction extraction) {
    List<String> headings = new ArrayList<>();
    if (extraction.markdownHeadings() || extraction.mediaType().contains("markdown")) {
      boolean fence = false;
      for (String line : extraction.text().split("\n")) {
        String stripped = line.strip();
        if (stripped.startsWith("```") || stripped.startsWith("~~~")) {
          fence = !fence;
        }
        String heading = fence ? null : DocumentStructure.atxHeading(stripped);
        if (heading != null && !DocumentStructure.normalize(heading).isEmpty()) {
          headings.add(DocumentStructure.normalize(heading));
        }
      }
    }
    List<List<List<String>>> tables = new ArrayList<>();
    for (ExtractedTable t : extraction.tables()) {
      tables.add(
          t.rows().stream()
              .map(r -> r.stream().map(DocumentStructure::normalize).toList())
              .filter(DocumentStructure::holdsText)
              .toList());
    }
    return new DocumentStructure(headings, tables);
  }

  /**
   * What an upload of the file would declare, where it decides how the text is read: a Markdown
   * file is declared Markdown (its bytes are plain text), every other file is left to the bytes.
   */
  static String declaredType(String file) {
    return format(file).equals("md") ? "text/markdown" : null;
  }

  /** The kind of format a target is set for: PDF, or the rest by extension. */
  static String format(String file) {
    String name = file.toLowerCase(Locale.ROOT);
    int dot = name.lastIndexOf('.');
    return dot < 0 ? "?" : name.substring(dot + 1);
  }

  static String toMarkdown(List<Row> rows) {
    StringBuilder out = new StringBuilder();
    out.append(
            "| document | headings (Docling / Quarry) | precision | recall | F1 | tables (Docling / Quarry) |")
        .append(" cell accuracy |\n|---|---|---|---|---|---|---|\n");
    Map<String, StructureScore> totals = new LinkedHashMap<>();
    for (Row r : rows) {
      if (r.score() == null) {
        out.append("| ")
            .append(r.file())
            .append(" | ")
            .append(r.problem())
            .append(" | | | | | |\n");
        continue;
      }
      line(out, r.file(), r.score());
      totals.merge(r.format(), r.score(), StructureScore::plus);
    }
    out.append("\nTotals by format (micro-averaged: every heading and cell counts once):\n\n")
        .append(
            "| format | headings (Docling / Quarry) | precision | recall | F1 | tables (Docling / Quarry) |")
        .append(" cell accuracy |\n|---|---|---|---|---|---|---|\n");
    totals.forEach((format, score) -> line(out, format, score));
    return out.toString();
  }

  private static void line(StringBuilder out, String name, StructureScore s) {
    Double cells = s.cellAccuracy();
    out.append(
        String.format(
            Locale.ROOT,
            "| %s | %d / %d | %.2f | %.2f | %.2f | %d / %d | %s |%n",
            name,
            s.referenceHeadings(),
            s.extractedHeadings(),
            s.precision(),
            s.recall(),
            s.f1(),
            s.referenceTables(),
            s.extractedTables(),
            cells == null ? "-" : String.format(Locale.ROOT, "%.2f", cells)));
  }

  private static String resource(String name) {
    try (InputStream in = StructureCommand.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new IllegalStateException("no resource " + RESOURCES + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException(args[i - 1] + " needs a value");
    }
    return args[i];
  }
}
