package dev.quarry.benchmarks.contender;

import dev.quarry.benchmarks.corpus.SourceDocument;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Whether a contender can run here: parts of the engine may not be written yet, and the harness
 * then measures the other contender alone and says why rather than failing every trial.
 */
public final class Availability {
  private static final SourceDocument PROBE =
      new SourceDocument("probe", "Probe", "A probe sentence about quarries and stone.");

  private Availability() {}

  /**
   * Empty when {@code kind} indexes and searches a one-document index in {@code scratch} (a new
   * folder, deleted by the caller); otherwise the reason, when it is not implemented yet.
   *
   * @throws IOException for any other failure, which the harness must not hide
   */
  public static Optional<String> whyUnavailable(ContenderKind kind, Path scratch) throws IOException {
    Path dir = Files.createDirectories(scratch.resolve("probe-" + kind.param()));
    try (Contender target = kind.open(dir)) {
      target.indexBatch(List.of(PROBE));
      target.search("quarries");
      return Optional.empty();
    } catch (RuntimeException e) {
      Throwable missing = notImplemented(e);
      if (missing == null) {
        throw e;
      }
      StackTraceElement where = missing.getStackTrace().length > 0 ? missing.getStackTrace()[0] : null;
      return Optional.of("not implemented yet" + (where == null ? "" : " (" + where.getClassName() + ")"));
    }
  }

  private static Throwable notImplemented(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof UnsupportedOperationException) {
        return t;
      }
    }
    return null;
  }
}
