package dev.quarry.benchmarks.jmh;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.Extractors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Extraction throughput of Quarry's {@link Extractors} (worker processes, default pool and
 * limits) over the shared good documents: {@code pdf} takes every PDF (PDFBox, page by page),
 * {@code other} every other document (Tika, or the plain-text reader). Each operation extracts
 * one document, cycling through them; {@link ExtractedVolume} reports documents, pages and
 * characters per second.
 *
 * <p>There is no raw-Lucene side to this: the reference for PDF speed is poppler's
 * {@code pdftotext}, recorded beside the shared documents ({@code data/docs/ANCHOR.md}). Not part
 * of the harness's profiles yet; run it with the jar's {@code jmh} command.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ExtractionBenchmark {
  /** The shared documents' manifest: a header, then filename, bytes, media type, ... per line. */
  static final String MANIFEST = "manifest.tsv";

  @Param({"pdf", "other"})
  public String documents;

  /** The shared folder, relative to the working directory (the project root by default). */
  @Param("../shared")
  public String sharedDir;

  private Extractors extractors;
  private List<Path> files;
  private final AtomicLong next = new AtomicLong();

  @Setup(Level.Trial)
  public void startWorkers() throws IOException {
    Path good = Path.of(sharedDir, "data", "docs", "good");
    Path manifest = good.resolve(MANIFEST);
    if (!Files.isReadable(manifest)) {
      throw new IllegalStateException("no " + manifest + "; pass -p sharedDir=<the shared folder>");
    }
    boolean pdf = switch (documents) {
      case "pdf" -> true;
      case "other" -> false;
      default -> throw new IllegalArgumentException("documents must be pdf or other; got '" + documents + "'");
    };
    files = new ArrayList<>();
    List<String> lines = Files.readAllLines(manifest);
    for (String line : lines.subList(1, lines.size())) {
      String[] columns = line.split("\t");
      if (columns.length > 2 && columns[2].equals("application/pdf") == pdf) {
        files.add(good.resolve(columns[0]));
      }
    }
    extractors = Extractors.builder().build();
  }

  @TearDown(Level.Trial)
  public void stopWorkers() {
    extractors.close();
  }

  @Benchmark
  public void extract(ExtractedVolume volume) {
    Path file = files.get((int) (next.getAndIncrement() % files.size()));
    try {
      Extraction extraction = extractors.extract(file, null);
      volume.documents++;
      volume.pages += extraction.pages() == null ? 0 : extraction.pages();
      volume.characters += extraction.characters();
    } catch (ExtractionException e) {
      // Good documents may still hit a limit (pages, characters, time); count, do not stop.
      volume.failures++;
    }
  }

  /** Per-thread counts of what was extracted; JMH reports them per second. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class ExtractedVolume {
    public long documents;
    public long pages;
    public long characters;
    public long failures;

    @Setup(Level.Iteration)
    public void reset() {
      documents = 0;
      pages = 0;
      characters = 0;
      failures = 0;
    }
  }
}
