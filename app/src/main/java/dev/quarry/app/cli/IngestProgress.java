package dev.quarry.app.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * Progress of {@code quarry ingest} on stderr: a redrawn bar on a terminal; in a pipe or a log,
 * where carriage returns and colours are garbage, one plain line every {@link #LINE_EVERY_MILLIS}
 * and a last one at the end.
 */
abstract class IngestProgress implements AutoCloseable {
  /** Often enough to see a long run move, rarely enough not to flood a log. */
  static final long LINE_EVERY_MILLIS = 10_000;

  static IngestProgress on(PrintStream err, int files, boolean terminal) {
    return terminal ? new Bar(err, files) : new Lines(err, files, System::currentTimeMillis);
  }

  /** One more file is done; {@code bytes} and {@code failed} count every file done so far. */
  abstract void fileDone(long bytes, int failed);

  /**
   * {@code done} files are done so far, {@code failed} of them failed (a job's counts); {@code
   * passages} is the embedding's progress ({@link EmbeddingProgress}), empty for a lexical corpus.
   */
  abstract void progress(int done, int failed, String passages);

  @Override
  public abstract void close();

  static String megabytes(long bytes) {
    return String.format(Locale.ROOT, "%.1f MB", bytes / 1_000_000.0);
  }

  private static final class Bar extends IngestProgress {
    private final ProgressBar bar;

    Bar(PrintStream err, int files) {
      bar =
          new ProgressBarBuilder()
              .setTaskName("ingest")
              .setInitialMax(files)
              .setConsumer(new ConsoleProgressBarConsumer(err))
              .setUpdateIntervalMillis(250)
              .build();
    }

    @Override
    void fileDone(long bytes, int failed) {
      bar.step();
      bar.setExtraMessage(megabytes(bytes) + ", " + failed + " failed");
    }

    @Override
    void progress(int done, int failed, String passages) {
      bar.stepTo(done);
      bar.setExtraMessage(failed + " failed" + (passages.isEmpty() ? "" : ", " + passages));
    }

    @Override
    public void close() {
      bar.close();
    }
  }

  static final class Lines extends IngestProgress {
    private final PrintStream err;
    private final int files;
    private final LongSupplier clock;
    private long lastLine;
    private int done;
    private long bytes;
    private int failed;
    private String passages = "";

    Lines(PrintStream err, int files, LongSupplier clock) {
      this.err = err;
      this.files = files;
      this.clock = clock;
      this.lastLine = clock.getAsLong();
    }

    @Override
    void fileDone(long bytes, int failed) {
      done++;
      this.bytes = bytes;
      this.failed = failed;
      long now = clock.getAsLong();
      if (now - lastLine >= LINE_EVERY_MILLIS && done < files) {
        line();
        lastLine = now;
      }
    }

    @Override
    void progress(int done, int failed, String passages) {
      this.done = done;
      this.failed = failed;
      this.passages = passages;
      long now = clock.getAsLong();
      if (now - lastLine >= LINE_EVERY_MILLIS && done < files) {
        line();
        lastLine = now;
      }
    }

    private void line() {
      err.println(
          "ingest: "
              + done
              + "/"
              + files
              + " files"
              + (bytes > 0 ? ", " + megabytes(bytes) : "")
              + ", "
              + failed
              + " failed"
              + (passages.isEmpty() ? "" : ", " + passages));
      err.flush();
    }

    @Override
    public void close() {
      line();
    }
  }
}
