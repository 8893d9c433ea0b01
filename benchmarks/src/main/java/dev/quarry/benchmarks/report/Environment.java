package dev.quarry.benchmarks.report;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;
import org.apache.lucene.util.Version;

/**
 * Where figures were measured: they mean little without the machine, the JDK and the Lucene version
 * beside them.
 */
public record Environment(
    Instant when,
    String jdk,
    String lucene,
    int processors,
    long memoryBytes,
    String cpu,
    String os) {

  /** This JVM and machine, now. */
  public static Environment current() {
    return new Environment(
        Instant.now().truncatedTo(ChronoUnit.SECONDS),
        System.getProperty("java.vm.vendor") + " " + Runtime.version(),
        Version.LATEST.toString(),
        Runtime.getRuntime().availableProcessors(),
        physicalMemory(),
        cpuModel().orElse(System.getProperty("os.arch")),
        System.getProperty("os.name") + " " + System.getProperty("os.version"));
  }

  private static long physicalMemory() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
      return os.getTotalMemorySize();
    }
    return -1;
  }

  /** The CPU model as Linux names it; empty elsewhere. */
  private static Optional<String> cpuModel() {
    Path cpuinfo = Path.of("/proc/cpuinfo");
    if (!Files.isReadable(cpuinfo)) {
      return Optional.empty();
    }
    try (var lines = Files.lines(cpuinfo)) {
      return lines
          .filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).trim())
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** One line for the head of a report. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "%s; JDK %s; Lucene %s; %d CPUs (%s); %.1f GB RAM; %s",
        when,
        jdk,
        lucene,
        processors,
        cpu,
        memoryBytes / 1e9,
        os);
  }
}
