package dev.quarry.benchmarks.extraction;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The reference for PDF extraction speed: poppler's {@code pdftotext} (Debian's poppler-utils), one
 * process per file as a command line runs it, text to {@code /dev/null}, cycling through the same
 * PDFs in the same order as the extraction benchmark, for a set time, one file at a time.
 */
public final class Pdftotext {
  static final String COMMAND = "pdftotext";

  /** No PDF of the shared documents takes pdftotext a second; a hung one is not waited for. */
  private static final Duration PER_FILE_LIMIT = Duration.ofSeconds(60);

  private Pdftotext() {}

  /** Whether {@code pdftotext} runs here. */
  public static boolean installed() {
    try {
      return run(Duration.ofSeconds(10), "-v");
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Runs pdftotext over {@code pdfs}, from the first, until {@code duration} has passed (at least
   * one file). A file it cannot read counts as done, as a typed failure counts in Quarry's trial:
   * both spent their time on it.
   */
  public static Throughput measure(List<SharedDocuments.Document> pdfs, Duration duration)
      throws IOException, InterruptedException {
    if (pdfs.isEmpty()) {
      throw new IllegalArgumentException("no PDFs to measure pdftotext on");
    }
    long started = System.nanoTime();
    long deadline = started + duration.toNanos();
    long documents = 0;
    long pages = 0;
    do {
      SharedDocuments.Document pdf = pdfs.get((int) (documents % pdfs.size()));
      run(PER_FILE_LIMIT, "-q", pdf.file().toString(), "/dev/null");
      documents++;
      pages += pdf.pages();
    } while (System.nanoTime() < deadline);
    return new Throughput(documents, pages, (System.nanoTime() - started) / 1e9);
  }

  /**
   * Runs pdftotext with {@code arguments}, its output discarded, and says whether it exited 0.
   *
   * @throws IOException when it cannot start, or is still running after {@code limit} (then killed)
   */
  private static boolean run(Duration limit, String... arguments)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(COMMAND));
    command.addAll(List.of(arguments));
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new IOException("pdftotext took over " + limit.toSeconds() + " s: " + command);
    }
    return process.exitValue() == 0;
  }

  /** What one measurement got through. */
  public record Throughput(long documents, long pages, double seconds) {
    public double documentsPerSecond() {
      return documents / seconds;
    }

    public double pagesPerSecond() {
      return pages / seconds;
    }
  }
}
