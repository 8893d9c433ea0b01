package dev.quarry.benchmarks.jmh;

import dev.quarry.benchmarks.extraction.SharedDocuments;
import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.Extractors;
import java.io.IOException;
import java.nio.file.Path;
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
 * Extraction throughput of Quarry's {@link Extractors} (worker processes, default pool and limits)
 * over the shared good documents: {@code pdf} takes every PDF (PDFBox, page by page), {@code other}
 * every other document (Tika, or the plain-text reader). Each operation extracts one document,
 * cycling through them in manifest order; {@link ExtractedVolume} reports documents, pages (by the
 * manifest, whether the document extracted or failed typed, as the reference counts them),
 * characters and typed failures per second.
 *
 * <p>There is no raw-Lucene side to this: the reference for PDF speed is poppler's {@code
 * pdftotext} over the same PDFs ({@link dev.quarry.benchmarks.extraction.Pdftotext}), which the
 * harness runs beside it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ExtractionBenchmark {
  @Param({"pdf", "other"})
  public String documents;

  /** The shared folder, relative to the working directory (the project root by default). */
  @Param("../shared")
  public String sharedDir;

  private Extractors extractors;
  private List<SharedDocuments.Document> files;
  private final AtomicLong next = new AtomicLong();

  @Setup(Level.Trial)
  public void startWorkers() throws IOException {
    Path shared = Path.of(sharedDir);
    String unavailable = SharedDocuments.unavailableReason(shared);
    if (unavailable != null) {
      throw new IllegalStateException(unavailable + "; pass -p sharedDir=<the shared folder>");
    }
    files = SharedDocuments.read(shared).of(SharedDocuments.Kind.fromParam(documents));
    if (files.isEmpty()) {
      throw new IllegalStateException(
          "no " + documents + " documents in the shared folder " + shared);
    }
    extractors = Extractors.builder().build();
  }

  @TearDown(Level.Trial)
  public void stopWorkers() {
    extractors.close();
  }

  @Benchmark
  public void extract(ExtractedVolume volume) {
    SharedDocuments.Document file = files.get((int) (next.getAndIncrement() % files.size()));
    volume.pages += file.pages();
    try {
      Extraction extraction = extractors.extract(file.file(), null);
      volume.documents++;
      volume.characters += extraction.characters();
    } catch (ExtractionException e) {
      // Good documents may still fail typed: a limit (pages, characters, time), or no text layer
      // (image-only PDFs). Counted, and their time stays in the trial, as pdftotext's does.
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
