package dev.quarry.benchmarks.extraction;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The shared good documents that extraction is measured on: {@code data/docs/good} of the shared
 * folder, listed with media types and PDF page counts in its {@code manifest.tsv}, split as the
 * extractors split them, PDFs (PDFBox) and every other format (Tika or the plain-text reader).
 *
 * @param pdfs the PDFs, in manifest order
 * @param others every other document, in manifest order
 */
public record SharedDocuments(List<Document> pdfs, List<Document> others) {
  /** The shared folder as seen from the project root, where the harness is run. */
  public static final Path DEFAULT_DIR = Path.of("..", "shared");

  static final String MANIFEST = "manifest.tsv";
  private static final String PDF = "application/pdf";

  /**
   * One document.
   *
   * @param pages its page count by the manifest; 0 for formats without pages
   */
  public record Document(Path file, int pages) {}

  /** The documents of one extraction trial: {@code pdf} or {@code other}. */
  public enum Kind {
    PDF,
    OTHER;

    /** The benchmark parameter's value. */
    public String param() {
      return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @throws IllegalArgumentException naming the kinds there are
     */
    public static Kind fromParam(String param) {
      for (Kind kind : values()) {
        if (kind.param().equals(param)) {
          return kind;
        }
      }
      throw new IllegalArgumentException("documents must be pdf or other; got '" + param + "'");
    }
  }

  public SharedDocuments {
    pdfs = List.copyOf(pdfs);
    others = List.copyOf(others);
  }

  /** Why no documents can be read under {@code sharedDir}, or null when they can. */
  public static String unavailableReason(Path sharedDir) {
    Path manifest = manifest(sharedDir);
    return Files.isReadable(manifest)
        ? null
        : "no shared documents at " + manifest + " (--shared DIR names the shared folder)";
  }

  /** Reads the manifest under {@code sharedDir}; the files themselves are not opened. */
  public static SharedDocuments read(Path sharedDir) throws IOException {
    Path manifest = manifest(sharedDir);
    List<String> lines = Files.readAllLines(manifest);
    if (lines.isEmpty()) {
      throw new IOException(manifest + " is empty; it should start with a header line");
    }
    List<String> header = List.of(lines.get(0).split("\t", -1));
    int file = column(header, "filename", manifest);
    int mediaType = column(header, "media_type", manifest);
    int pages = column(header, "pdf_pages", manifest);
    List<Document> pdfs = new ArrayList<>();
    List<Document> others = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      if (line.isBlank()) {
        continue;
      }
      String[] columns = line.split("\t", -1);
      if (columns.length != header.size()) {
        throw new IOException(
            manifest
                + ": a line with "
                + columns.length
                + " columns, not "
                + header.size()
                + ": "
                + line);
      }
      Path path = manifest.resolveSibling(columns[file]);
      if (columns[mediaType].equals(PDF)) {
        pdfs.add(new Document(path, pageCount(columns[pages])));
      } else {
        others.add(new Document(path, 0));
      }
    }
    return new SharedDocuments(pdfs, others);
  }

  public List<Document> of(Kind kind) {
    return kind == Kind.PDF ? pdfs : others;
  }

  private static Path manifest(Path sharedDir) {
    return sharedDir.resolve("data").resolve("docs").resolve("good").resolve(MANIFEST);
  }

  private static int column(List<String> header, String name, Path manifest) throws IOException {
    int index = header.indexOf(name);
    if (index < 0) {
      throw new IOException(manifest + " has no column '" + name + "'; its header is " + header);
    }
    return index;
  }

  /** The manifest leaves the count blank (or NA) where pdfinfo could not read it. */
  private static int pageCount(String value) {
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
