package dev.quarry.benchmarks.contender;

import dev.quarry.benchmarks.corpus.SourceDocument;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What a contender can do here: parts of the engine may not be written yet, and the harness then
 * measures what it can and says why it left the rest out, rather than failing every trial.
 *
 * @param cannotIndex why indexing is not measured, or null when it is
 * @param cannotSearch why search is not measured, or null when it is
 */
public record Availability(ContenderKind kind, String cannotIndex, String cannotSearch) {
  private static final SourceDocument PROBE =
      new SourceDocument("probe", "Probe", "A probe sentence about quarries and stone.");

  public boolean indexes() {
    return cannotIndex == null;
  }

  public boolean searches() {
    return cannotSearch == null;
  }

  /**
   * Indexes and searches a one-document index of {@code kind} in a new folder under {@code scratch}
   * (which the caller deletes). A part that throws UnsupportedOperationException is not implemented
   * yet and is reported as such.
   *
   * @throws IllegalStateException when search works but does not find the probe document
   * @throws IOException or any other exception of the contender, which the harness must not hide
   */
  public static Availability probe(ContenderKind kind, Path scratch) throws IOException {
    Path dir = Files.createDirectories(scratch.resolve("probe-" + kind.param()));
    try (Contender target = kind.open(dir)) {
      try {
        target.indexBatch(List.of(PROBE));
        target.awaitVisible();
      } catch (RuntimeException e) {
        String reason = notImplemented(e);
        return new Availability(kind, reason, reason);
      }
      List<?> hits;
      try {
        hits = target.search("quarries");
      } catch (RuntimeException e) {
        return new Availability(kind, null, notImplemented(e));
      }
      if (hits.size() != 1) {
        // A contender that finds nothing would win every latency comparison by doing no work.
        throw new IllegalStateException(
            kind.param()
                + " found "
                + hits.size()
                + " hits for a word of the one document it indexed; expected 1");
      }
      return new Availability(kind, null, null);
    } catch (RuntimeException e) {
      return new Availability(kind, notImplemented(e), notImplemented(e));
    }
  }

  /** The reason, when {@code e} says something is not implemented; {@code e} itself otherwise. */
  private static String notImplemented(RuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof UnsupportedOperationException) {
        StackTraceElement[] where = t.getStackTrace();
        return "not implemented yet"
            + (where.length == 0 ? "" : " (" + where[0].getClassName() + ")");
      }
    }
    throw e;
  }
}
