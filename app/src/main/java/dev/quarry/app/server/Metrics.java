package dev.quarry.app.server;

import dev.quarry.openai.OpenAiPlugin;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's metrics in Prometheus' text format ({@code GET /metrics}), kept by Micrometer: every
 * answered request by endpoint, method and status (a latency histogram; 429s are {@code
 * status="429"}), requests in progress, the data folder's free disk, and the JVM's memory, GC,
 * threads, classes, CPU, uptime and file descriptors; the engine's work ({@link EngineMetrics}),
 * the open corpora ({@link CorporaMetrics}), the caches ({@link CacheMetrics}) and the extraction
 * pool ({@link ExtractionMetrics}) are {@link #bind bound} to it.
 *
 * <p>Label values are bounded whatever clients send: {@code endpoint} is one of the server's own
 * paths ({@code other} for anything else, unknown paths included; {@code /openai/v1} for OpenAI's
 * API; {@code /console} for the console's files), {@code method} one of the HTTP methods the server
 * answers ({@code other} otherwise), and {@code status} a three-digit code, {@code cache} one of
 * the server's kinds of cache. No label names a source or a client, and none names a corpus unless
 * the operator asks for series per corpus ({@link CorpusSeries}: at most {@code
 * metrics.corpusLabels} names and one overflow value).
 *
 * <p>Thread-safe; one per server, closed with it.
 */
final class Metrics implements AutoCloseable {
  static final String PATH = "/metrics";
  private static final Set<String> METHODS =
      Set.of("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD");

  /**
   * Few buckets, each a threshold worth alerting on: fewer series than Micrometer's default
   * histogram.
   */
  private static final Duration[] BUCKETS = {
    Duration.ofMillis(5),
    Duration.ofMillis(10),
    Duration.ofMillis(25),
    Duration.ofMillis(50),
    Duration.ofMillis(100),
    Duration.ofMillis(250),
    Duration.ofMillis(500),
    Duration.ofSeconds(1),
    Duration.ofMillis(2500),
    Duration.ofSeconds(5),
    Duration.ofSeconds(10),
    Duration.ofSeconds(30)
  };

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Set<String> endpoints;
  private final AtomicInteger inFlight = new AtomicInteger();

  /**
   * The request timers by their labels, registered once each: building and registering a timer (its
   * tags, its buckets, the registry's lookup) cost more than recording into it. The labels are
   * bounded (see above), so this map is too.
   */
  private final ConcurrentMap<RequestLabels, Timer> requestTimers = new ConcurrentHashMap<>();

  private final JvmGcMetrics gc = new JvmGcMetrics();

  /** Run before each scrape: meters whose rows follow what they measure set them there. */
  private final List<Runnable> beforeScrape = new CopyOnWriteArrayList<>();

  /** The SHA-256 of the token a scraper must present; null: metrics are off. */
  private final byte[] tokenSha256;

  /**
   * @param endpoints the server's paths, each its own {@code endpoint} label
   * @param readiness whose {@link Readiness#usableBytes} is the free disk gauge; null: none
   * @param tokenSha256 the SHA-256 of the scrapers' bearer token; null: {@code /metrics} is off
   */
  Metrics(Set<String> endpoints, Readiness readiness, byte[] tokenSha256) {
    this.endpoints = Set.copyOf(endpoints);
    this.tokenSha256 = tokenSha256 == null ? null : tokenSha256.clone();
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    Gauge.builder("quarry.http.requests.in.flight", inFlight, AtomicInteger::get)
        .description("requests received and not yet answered in full")
        .register(registry);
    if (readiness != null && readiness.hasDataDir()) {
      Gauge.builder("quarry.data.disk.free", readiness, Readiness::usableBytes)
          .baseUnit("bytes")
          .description("usable space on the data folder's file system")
          .register(registry);
    }
  }

  /** Adds {@code binder}'s meters (the engine's) to the registry. */
  void bind(MeterBinder binder) {
    binder.bindTo(registry);
  }

  /**
   * Adds {@code binder}'s meters, and runs {@code refresh} before each scrape (to set their rows).
   */
  void bind(MeterBinder binder, Runnable refresh) {
    binder.bindTo(registry);
    beforeScrape.add(refresh);
  }

  /** Whether {@code /metrics} is served at all. */
  boolean enabled() {
    return tokenSha256 != null;
  }

  /** Whether {@code bearerToken} is the scrapers' token; compared in constant time. */
  boolean admits(String bearerToken) {
    return tokenSha256 != null
        && bearerToken != null
        && MessageDigest.isEqual(tokenSha256, TokensFile.sha256(bearerToken));
  }

  /** A request arrived. */
  void started() {
    inFlight.incrementAndGet();
  }

  /** A request that {@link #started} was answered in full. */
  void completed(String method, String path, int status, long nanos) {
    inFlight.decrementAndGet();
    RequestLabels labels =
        new RequestLabels(
            endpointOf(path),
            METHODS.contains(method) ? method : "other",
            status >= 100 && status <= 599 ? status : 0);
    requestTimers.computeIfAbsent(labels, this::requestTimer).record(nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * The labels of one request timer; {@code status} 0 for a code outside 100 to 599 ({@code
   * other}).
   */
  private record RequestLabels(String endpoint, String method, int status) {}

  private Timer requestTimer(RequestLabels labels) {
    return Timer.builder("quarry.http.requests")
        .description("answered requests by endpoint, method and status")
        .tags(
            "endpoint",
            labels.endpoint(),
            "method",
            labels.method(),
            "status",
            labels.status() == 0 ? "other" : Integer.toString(labels.status()))
        .serviceLevelObjectives(BUCKETS)
        .register(registry);
  }

  /** The {@code endpoint} label of {@code path}: one of a fixed set. */
  String endpointOf(String path) {
    if (path == null) {
      return "other";
    }
    if (path.equals("/console") || path.startsWith("/console/")) {
      return "/console";
    }
    if (path.startsWith(OpenAiPlugin.PREFIX + "/")) {
      // One label for OpenAI's API: its paths hold ids.
      return OpenAiPlugin.PREFIX;
    }
    return endpoints.contains(path) ? path : "other";
  }

  /** The exposition, in Prometheus' text format. */
  String scrape() {
    for (Runnable r : beforeScrape) {
      r.run();
    }
    return registry.scrape();
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }
}
