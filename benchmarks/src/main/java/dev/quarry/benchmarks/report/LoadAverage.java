package dev.quarry.benchmarks.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's load average over the last 1, 5 and 15 minutes, as Linux reports it. */
public final class LoadAverage {
  private LoadAverage() {}

  /** {@code "1.52 1.80 2.01"}, or {@code "unknown"} where the system does not say. */
  public static String now() {
    Path loadavg = Path.of("/proc/loadavg");
    try {
      String[] parts = Files.readString(loadavg).strip().split("\\s+");
      return parts.length >= 3 ? parts[0] + " " + parts[1] + " " + parts[2] : "unknown";
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }
}
