package dev.quarry.api;

import dev.quarry.api.wire.Feature;
import dev.quarry.api.wire.Limits;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.jobs.IngestJobs;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What a host hands {@link QuarryPlugin}: the {@link Corpora} to serve, the {@link Authenticator}
 * for bearer tokens, the features switched on, the limits, and the capacity gate's bounds. Adjust
 * it in the plugin's {@code Consumer}; the plugin checks it when built.
 *
 * @quarry.stable
 */
public final class QuarryPluginConfig {
  /**
   * Searches and mutations running at once; the writer groups concurrent mutations, so more is not
   * faster.
   */
  public static final int DEFAULT_MAX_IN_FLIGHT = 64;

  /** Requests that may wait for a place before the next one is refused with 429 CAPACITY. */
  public static final int DEFAULT_MAX_WAITING = 256;

  /** How long a waiting request waits for a place before it is refused with 429 CAPACITY. */
  public static final long DEFAULT_MAX_WAIT_MILLIS = 10_000;

  /**
   * The features this build implements. Ingestion is listed only when the corpora were also built
   * with extractors (and PDF ingestion only when those read PDFs).
   */
  public static final Set<Feature> AVAILABLE_FEATURES =
      Collections.unmodifiableSet(
          EnumSet.of(
              Feature.SCOPED_RETRIEVAL,
              Feature.RETRIEVAL_INDEXING,
              Feature.DOCUMENT_INGESTION,
              Feature.PDF_INGESTION,
              Feature.OCR,
              Feature.INGESTION_JOBS));

  Corpora corpora;
  IngestJobs jobs;
  Authenticator authenticator;
  final EnumSet<Feature> features = EnumSet.copyOf(AVAILABLE_FEATURES);
  Limits limits = Limits.DEFAULT;
  int maxInFlight = DEFAULT_MAX_IN_FLIGHT;
  int maxWaiting = DEFAULT_MAX_WAITING;
  long maxWaitMillis = DEFAULT_MAX_WAIT_MILLIS;
  boolean runs;
  boolean console;

  QuarryPluginConfig() {}

  /** The corpora to serve. Required; the host owns it and closes it after stopping its server. */
  public QuarryPluginConfig corpora(Corpora corpora) {
    this.corpora = Objects.requireNonNull(corpora, "corpora");
    return this;
  }

  /**
   * Serves ingestion jobs ({@code /v1/retrieval/jobs/*}, feature {@code ingestion-jobs}) from
   * {@code jobs}, opened over the same corpora. Optional: without it the feature is not offered.
   * The host owns it and closes it before the corpora. Its per-job bounds are advertised as the
   * limits {@code maxJobFiles} and {@code maxJobBytes}.
   */
  public QuarryPluginConfig jobs(IngestJobs jobs) {
    this.jobs = Objects.requireNonNull(jobs, "jobs");
    return this;
  }

  /** Turns bearer tokens into access. Required. */
  public QuarryPluginConfig authenticator(Authenticator authenticator) {
    this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
    return this;
  }

  /**
   * Switches a feature off: it leaves the advertised features and its endpoints answer
   * *_UNAVAILABLE.
   */
  public QuarryPluginConfig disable(Feature feature) {
    features.remove(Objects.requireNonNull(feature, "feature"));
    return this;
  }

  /**
   * Switches a feature on.
   *
   * @throws IllegalArgumentException for a feature this build does not implement
   */
  public QuarryPluginConfig enable(Feature feature) {
    if (!AVAILABLE_FEATURES.contains(feature)) {
      throw new IllegalArgumentException(
          feature.wireName()
              + " is not available in this build; available: "
              + AVAILABLE_FEATURES.stream().map(Feature::wireName).toList());
    }
    features.add(feature);
    return this;
  }

  public QuarryPluginConfig limits(Limits limits) {
    this.limits = Objects.requireNonNull(limits, "limits");
    return this;
  }

  /**
   * Bounds the searches and mutations in progress.
   *
   * @param maxInFlight running at once, at least 1
   * @param maxWaiting waiting for a place, 0 or more; beyond that, 429 CAPACITY at once
   * @param maxWaitMillis how long one waits, 0 or more
   */
  public QuarryPluginConfig capacity(int maxInFlight, int maxWaiting, long maxWaitMillis) {
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("maxInFlight must be at least 1; got " + maxInFlight);
    }
    if (maxWaiting < 0) {
      throw new IllegalArgumentException("maxWaiting must be 0 or more; got " + maxWaiting);
    }
    if (maxWaitMillis < 0) {
      throw new IllegalArgumentException("maxWaitMillis must be 0 or more; got " + maxWaitMillis);
    }
    this.maxInFlight = maxInFlight;
    this.maxWaiting = maxWaiting;
    this.maxWaitMillis = maxWaitMillis;
    return this;
  }

  /**
   * Also serves {@code POST /v1/runs}, the reference host's runs of the {@code retrieval} provider
   * (see docs/runs.md). Off by default: a host with runs of its own calls {@code Retrieval} from
   * them.
   */
  public QuarryPluginConfig runs(boolean serveRuns) {
    this.runs = serveRuns;
    return this;
  }

  /**
   * Also serves the web console below {@code /console/} (docs/console.md): static files only, with
   * a strict Content-Security-Policy; the browser signs in with a token and calls the API like any
   * client. It reads the host's {@code GET /v1/protocol} ({@link QuarryPlugin#protocol()} is a
   * complete body) and, on its status page, {@code GET /healthz} when the host has one. Off by
   * default: the console is a page the host chooses to show, at a path it chooses to give.
   */
  public QuarryPluginConfig console(boolean serveConsole) {
    this.console = serveConsole;
    return this;
  }

  void check() {
    if (corpora == null) {
      throw new IllegalStateException(
          "QuarryPlugin needs corpora: config.corpora(Corpora.builder().dataDir(dir).build())");
    }
    if (authenticator == null) {
      throw new IllegalStateException(
          "QuarryPlugin needs an authenticator: config.authenticator(token -> ...)");
    }
    if (!features.contains(Feature.PDF_INGESTION)
        && features.contains(Feature.DOCUMENT_INGESTION)
        && corpora.ingestsPdf()) {
      // The plugin cannot tell a PDF from its bytes; the extractors refuse PDFs when told to.
      throw new IllegalStateException(
          "pdf-ingestion is switched off but the corpora's extractors read PDFs: "
              + "build the Extractors with pdfEnabled(false)");
    }
  }
}
