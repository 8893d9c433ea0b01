package dev.quarry.app.cli;

import java.io.PrintWriter;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts what became of the files of one {@code quarry ingest} run and prints the closing table:
 * ingested, unchanged, and failed by error code. Thread-safe.
 */
final class IngestSummary {
  private int ingested;
  private int unchanged;
  private long bytes;
  private final Map<String, Integer> failedByCode = new TreeMap<>();

  synchronized void add(IngestOutcome outcome, long fileBytes) {
    bytes += fileBytes;
    if (outcome.isFailure()) {
      failedByCode.merge(outcome.code(), 1, Integer::sum);
    } else if (IngestOutcome.UNCHANGED.equals(outcome.status())) {
      unchanged++;
    } else {
      ingested++;
    }
  }

  synchronized int failed() {
    return failedByCode.values().stream().mapToInt(Integer::intValue).sum();
  }

  synchronized long bytes() {
    return bytes;
  }

  /** The table, one row per outcome, failures broken down by code. */
  synchronized void print(PrintWriter out) {
    out.printf("%-28s %8d%n", "ingested", ingested);
    out.printf("%-28s %8d%n", "unchanged", unchanged);
    out.printf("%-28s %8d%n", "failed", failed());
    failedByCode.forEach((code, n) -> out.printf("  %-26s %8d%n", code, n));
    out.flush();
  }
}
