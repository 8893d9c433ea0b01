package dev.quarry.app.server;

import dev.quarry.api.QuarryPluginConfig;
import dev.quarry.api.wire.Feature;
import dev.quarry.api.wire.Limit;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.api.wire.WireObject;
import dev.quarry.cluster.OpenSearchSettings;
import dev.quarry.corpora.CorporaBuilder;
import dev.quarry.corpora.FileErrors;
import dev.quarry.corpora.jobs.JobSettings;
import dev.quarry.embeddings.ModelFolder;
import dev.quarry.embeddings.Models;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.EngineListener;
import dev.quarry.engine.QuarryException;
import dev.quarry.extractors.Extractors;
import dev.quarry.extractors.ocr.OcrMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * The standalone server's settings, read from the {@code --config} JSON file; every key is optional
 * and documented in {@code docs/configuration.md}.
 *
 * @param corsOrigins origins allowed to call from a browser ({@code *} for any); empty: none
 * @param features the features switched on
 * @param maxThreads Jetty's request threads
 * @param extraction the document extraction pool (used when document-ingestion is on)
 * @param minFreeDiskMiB below this much free space on the data folder's disk, {@code /readyz} says
 *     not ready; 0: not checked
 * @param metricsTokenSha256 the SHA-256 (64 hex digits) of the bearer token {@code GET /metrics}
 *     asks for; null: {@code /metrics} is off
 * @param metricsCorpusLabels how many open corpora get series of their own, labelled with their
 *     name (the rest summed under {@code corpus="_other"}); 0: none, no label names a corpus
 * @param backupDirectory the folder backups are written to (absolute); null: backups are off
 * @param writeMinFreeDiskMiB below this much free space on the data folder's disk, writes are
 *     refused with 507 INSUFFICIENT_STORAGE before any work; 0: not checked
 * @param logFormat how log lines are written (the command line's {@code --log-format} wins)
 * @param openSearch where corpora live when they are on an OpenSearch cluster ({@code "store":
 *     {"opensearch": ...}}, docs/scale-out.md); null: in the data folder
 * @param jobs the bounds and timings of ingestion jobs (used when ingestion-jobs is on); the
 *     per-job bounds come from {@code limits.maxJobFiles} and {@code limits.maxJobBytes}
 * @param modelFolders folders each holding an operator's embedding model ({@code models.folders},
 *     {@link ModelFolder}), absolute; empty: the shipped models only
 * @param mcp whether the MCP server answers at {@code /mcp} ({@code "mcp": {"enabled": false}}
 *     turns it off)
 */
public record ServerConfig(
    List<String> corsOrigins,
    Set<Feature> features,
    Limits limits,
    int retainedRevisions,
    Duration idempotencyRetention,
    int maxOpenCorpora,
    int maxInFlight,
    int maxWaiting,
    long maxWaitMillis,
    int maxThreads,
    ExtractionSettings extraction,
    long minFreeDiskMiB,
    String metricsTokenSha256,
    int metricsCorpusLabels,
    Path backupDirectory,
    long writeMinFreeDiskMiB,
    LogFormat logFormat,
    OpenSearchSettings openSearch,
    JobSettings jobs,
    List<Path> modelFolders,
    boolean mcp) {
  /**
   * Enough threads for the in-flight gate plus reads, bounded so overload cannot exhaust memory.
   */
  public static final int DEFAULT_MAX_THREADS = 128;

  /** Free disk below which the server is not ready: room for a few merges of a mid-sized corpus. */
  public static final long DEFAULT_MIN_FREE_DISK_MIB = 1024;

  /**
   * Free disk below which writes are refused: well under the readiness floor, so a server stops
   * being ready first, and enough for Lucene to finish the commits and merges already under way.
   */
  public static final long DEFAULT_WRITE_MIN_FREE_DISK_MIB = 256;

  /**
   * The most corpora {@code metrics.corpusLabels} may name: each adds a few series to every scrape,
   * and a monitoring system holds each series apart.
   */
  public static final int MAX_METRICS_CORPUS_LABELS = 1000;

  public static final ServerConfig DEFAULT =
      new ServerConfig(
          List.of(),
          QuarryPluginConfig.AVAILABLE_FEATURES,
          Limits.DEFAULT,
          EngineConfig.DEFAULT_RETAINED_REVISIONS,
          EngineConfig.DEFAULT_IDEMPOTENCY_RETENTION,
          CorporaBuilder.DEFAULT_MAX_OPEN_CORPORA,
          QuarryPluginConfig.DEFAULT_MAX_IN_FLIGHT,
          QuarryPluginConfig.DEFAULT_MAX_WAITING,
          QuarryPluginConfig.DEFAULT_MAX_WAIT_MILLIS,
          DEFAULT_MAX_THREADS,
          ExtractionSettings.DEFAULT,
          DEFAULT_MIN_FREE_DISK_MIB,
          null,
          0,
          null,
          DEFAULT_WRITE_MIN_FREE_DISK_MIB,
          LogFormat.TEXT,
          null,
          JobSettings.DEFAULT,
          List.of(),
          true);

  /**
   * The settings with the MCP server on, as it is unless the config file turns it off, and the
   * shipped models only.
   */
  public ServerConfig(
      List<String> corsOrigins,
      Set<Feature> features,
      Limits limits,
      int retainedRevisions,
      Duration idempotencyRetention,
      int maxOpenCorpora,
      int maxInFlight,
      int maxWaiting,
      long maxWaitMillis,
      int maxThreads,
      ExtractionSettings extraction,
      long minFreeDiskMiB,
      String metricsTokenSha256,
      int metricsCorpusLabels,
      Path backupDirectory,
      long writeMinFreeDiskMiB,
      LogFormat logFormat,
      OpenSearchSettings openSearch,
      JobSettings jobs) {
    this(
        corsOrigins,
        features,
        limits,
        retainedRevisions,
        idempotencyRetention,
        maxOpenCorpora,
        maxInFlight,
        maxWaiting,
        maxWaitMillis,
        maxThreads,
        extraction,
        minFreeDiskMiB,
        metricsTokenSha256,
        metricsCorpusLabels,
        backupDirectory,
        writeMinFreeDiskMiB,
        logFormat,
        openSearch,
        jobs,
        List.of(),
        true);
  }

  /** The settings with the default readiness threshold, and metrics off. */
  public ServerConfig(
      List<String> corsOrigins,
      Set<Feature> features,
      Limits limits,
      int retainedRevisions,
      Duration idempotencyRetention,
      int maxOpenCorpora,
      int maxInFlight,
      int maxWaiting,
      long maxWaitMillis,
      int maxThreads,
      ExtractionSettings extraction) {
    this(
        corsOrigins,
        features,
        limits,
        retainedRevisions,
        idempotencyRetention,
        maxOpenCorpora,
        maxInFlight,
        maxWaiting,
        maxWaitMillis,
        maxThreads,
        extraction,
        DEFAULT_MIN_FREE_DISK_MIB,
        null,
        0,
        null,
        DEFAULT_WRITE_MIN_FREE_DISK_MIB,
        LogFormat.TEXT,
        null,
        JobSettings.DEFAULT,
        List.of(),
        true);
  }

  /** The settings with corpora in the data folder (the embedded store). */
  public ServerConfig(
      List<String> corsOrigins,
      Set<Feature> features,
      Limits limits,
      int retainedRevisions,
      Duration idempotencyRetention,
      int maxOpenCorpora,
      int maxInFlight,
      int maxWaiting,
      long maxWaitMillis,
      int maxThreads,
      ExtractionSettings extraction,
      long minFreeDiskMiB,
      String metricsTokenSha256) {
    this(
        corsOrigins,
        features,
        limits,
        retainedRevisions,
        idempotencyRetention,
        maxOpenCorpora,
        maxInFlight,
        maxWaiting,
        maxWaitMillis,
        maxThreads,
        extraction,
        minFreeDiskMiB,
        metricsTokenSha256,
        0,
        null,
        DEFAULT_WRITE_MIN_FREE_DISK_MIB,
        LogFormat.TEXT,
        null,
        JobSettings.DEFAULT,
        List.of(),
        true);
  }

  public ServerConfig {
    corsOrigins = List.copyOf(corsOrigins);
    features = Set.copyOf(features);
    modelFolders = List.copyOf(modelFolders);
    Objects.requireNonNull(logFormat, "logFormat");
    if (metricsCorpusLabels < 0 || metricsCorpusLabels > MAX_METRICS_CORPUS_LABELS) {
      throw new IllegalArgumentException(
          "metrics.corpusLabels must be between 0 and "
              + MAX_METRICS_CORPUS_LABELS
              + "; got "
              + metricsCorpusLabels);
    }
    if (backupDirectory != null && !backupDirectory.isAbsolute()) {
      throw new IllegalArgumentException(
          "backup.directory must be an absolute path; got " + backupDirectory);
    }
  }

  /** These settings with {@code format} for the logs. */
  public ServerConfig withLogFormat(LogFormat format) {
    return new ServerConfig(
        corsOrigins,
        features,
        limits,
        retainedRevisions,
        idempotencyRetention,
        maxOpenCorpora,
        maxInFlight,
        maxWaiting,
        maxWaitMillis,
        maxThreads,
        extraction,
        minFreeDiskMiB,
        metricsTokenSha256,
        metricsCorpusLabels,
        backupDirectory,
        writeMinFreeDiskMiB,
        format,
        openSearch,
        jobs,
        modelFolders,
        mcp);
  }

  /**
   * @throws IllegalArgumentException naming the file and the offending key
   */
  public static ServerConfig read(Path file) {
    try {
      return parse(Files.readAllBytes(file));
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read the config file " + file + ": " + FileErrors.whyUnreadable(file, e), e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("config file " + file + ": " + e.getMessage(), e);
    }
  }

  public static ServerConfig parse(byte[] json) {
    try {
      WireObject root = WireObject.root(new StrictJson().parseObject(json));
      root.allowOnly(
          Set.of(
              "cors",
              "features",
              "limits",
              "retainedRevisions",
              "idempotencyRetentionHours",
              "maxOpenCorpora",
              "capacity",
              "extraction",
              "readiness",
              "metrics",
              "backup",
              "storage",
              "logging",
              "store",
              "jobs",
              "models",
              "mcp"));
      ServerConfig d = DEFAULT;
      Long retentionHours = root.optionalLong("idempotencyRetentionHours", 1, 24L * 365);
      WireObject capacity = root.optionalObject("capacity");
      if (capacity != null) {
        capacity.allowOnly(Set.of("maxInFlight", "maxWaiting", "maxWaitMillis", "maxThreads"));
      }
      Integer maxInFlight =
          capacity == null ? null : capacity.optionalInt("maxInFlight", 1, 10_000);
      Integer maxWaiting = capacity == null ? null : capacity.optionalInt("maxWaiting", 0, 100_000);
      Long maxWaitMillis =
          capacity == null ? null : capacity.optionalLong("maxWaitMillis", 0, 600_000);
      Integer maxThreads = capacity == null ? null : capacity.optionalInt("maxThreads", 8, 10_000);
      Integer retained = root.optionalInt("retainedRevisions", 1000, 100_000_000);
      Integer maxOpen = root.optionalInt("maxOpenCorpora", 1, 1_000_000);
      WireObject readiness = root.optionalObject("readiness");
      if (readiness != null) {
        readiness.allowOnly(Set.of("minFreeDiskMiB"));
      }
      Long minFreeDisk =
          readiness == null ? null : readiness.optionalLong("minFreeDiskMiB", 0, 1L << 40);
      WireObject metrics = root.optionalObject("metrics");
      String metricsToken = null;
      Integer corpusLabels = null;
      if (metrics != null) {
        metrics.allowOnly(Set.of("tokenSha256", "corpusLabels"));
        metricsToken = metrics.optionalString("tokenSha256");
        if (metricsToken == null || !metricsToken.matches("[0-9a-fA-F]{64}")) {
          throw QuarryException.invalid(
              metrics.pathOf("tokenSha256"),
              "tokenSha256 must be 64 hex digits, the SHA-256 of the token scrapers send");
        }
        metricsToken = metricsToken.toLowerCase(Locale.ROOT);
        corpusLabels = metrics.optionalInt("corpusLabels", 0, MAX_METRICS_CORPUS_LABELS);
      }
      WireObject backup = root.optionalObject("backup");
      Path backupDirectory = null;
      if (backup != null) {
        backup.allowOnly(Set.of("directory"));
        String dir = backup.requireString("directory");
        try {
          backupDirectory = Path.of(dir);
        } catch (InvalidPathException e) {
          throw QuarryException.invalid(
              backup.pathOf("directory"), "not a path: " + e.getMessage());
        }
        if (!backupDirectory.isAbsolute()) {
          throw QuarryException.invalid(
              backup.pathOf("directory"),
              "the backup directory must be an absolute path; got '" + dir + "'");
        }
      }
      WireObject storage = root.optionalObject("storage");
      if (storage != null) {
        storage.allowOnly(Set.of("minFreeDiskMiB"));
      }
      Long writeFloor =
          storage == null ? null : storage.optionalLong("minFreeDiskMiB", 0, 1L << 40);
      OpenSearchSettings openSearch = StoreConfig.openSearch(root.optionalObject("store"));
      if (writeFloor != null && openSearch != null) {
        // The floor guards the data folder's disk, where the cluster keeps no corpus: a value set
        // here would be believed to protect something and protect nothing.
        throw QuarryException.invalid(
            storage.pathOf("minFreeDiskMiB"),
            "storage.minFreeDiskMiB has no effect "
                + "when corpora live on OpenSearch (store.opensearch): the cluster's own disk watermarks guard its "
                + "writes; remove the key");
      }
      if (corpusLabels != null && openSearch != null) {
        // Only the embedded store can tell cheaply what each open corpus holds: on a cluster the
        // series would never appear, and the key would promise what it cannot give.
        throw QuarryException.invalid(
            metrics.pathOf("corpusLabels"),
            "metrics.corpusLabels has no effect when "
                + "corpora live on OpenSearch (store.opensearch): the cluster reports each index's size and documents "
                + "itself; remove the key");
      }
      WireObject logging = root.optionalObject("logging");
      LogFormat logFormat = d.logFormat;
      if (logging != null) {
        logging.allowOnly(Set.of("format"));
        String format = logging.optionalString("format");
        if (format != null) {
          logFormat = LogFormat.fromName(format);
          if (logFormat == null) {
            throw QuarryException.invalid(
                logging.pathOf("format"), "format is text or json; got '" + format + "'");
          }
        }
      }
      Limits limits = limits(root.optionalObject("limits"));
      return new ServerConfig(
          cors(root.optionalObject("cors")),
          features(root.optionalObject("features")),
          limits,
          retained == null ? d.retainedRevisions : retained,
          retentionHours == null ? d.idempotencyRetention : Duration.ofHours(retentionHours),
          maxOpen == null ? d.maxOpenCorpora : maxOpen,
          maxInFlight == null ? d.maxInFlight : maxInFlight,
          maxWaiting == null ? d.maxWaiting : maxWaiting,
          maxWaitMillis == null ? d.maxWaitMillis : maxWaitMillis,
          maxThreads == null ? d.maxThreads : maxThreads,
          extraction(root.optionalObject("extraction")),
          minFreeDisk == null ? d.minFreeDiskMiB : minFreeDisk,
          metricsToken,
          corpusLabels == null ? d.metricsCorpusLabels : corpusLabels,
          backupDirectory,
          writeFloor == null ? d.writeMinFreeDiskMiB : writeFloor,
          logFormat,
          openSearch,
          jobs(root.optionalObject("jobs"), limits),
          modelFolders(root.optionalObject("models")),
          mcp(root.optionalObject("mcp")));
    } catch (QuarryException e) {
      String field = e.field();
      throw new IllegalArgumentException(
          field == null || e.getMessage().startsWith(field)
              ? e.getMessage()
              : field + ": " + e.getMessage());
    }
  }

  private static List<String> cors(WireObject cors) {
    if (cors == null) {
      return List.of();
    }
    cors.allowOnly(Set.of("allowedOrigins"));
    List<String> origins = cors.optionalStringList("allowedOrigins", 1000, 512);
    if (origins == null) {
      return List.of();
    }
    for (int i = 0; i < origins.size(); i++) {
      String o = origins.get(i);
      if (!o.equals("*") && !o.matches("https?://[^/\\s]+")) {
        throw QuarryException.invalid(
            cors.pathOf("allowedOrigins") + "[" + i + "]",
            "an origin is scheme://host[:port] with no path, or *; got '" + o + "'");
      }
    }
    return origins;
  }

  /** {@code "mcp": {"enabled": true}}: the MCP server at {@code /mcp}, on when absent. */
  private static boolean mcp(WireObject mcp) {
    if (mcp == null) {
      return true;
    }
    mcp.allowOnly(Set.of("enabled"));
    return mcp.optionalBoolean("enabled", true);
  }

  private static Set<Feature> features(WireObject features) {
    EnumSet<Feature> on = EnumSet.copyOf(QuarryPluginConfig.AVAILABLE_FEATURES);
    if (features == null) {
      return on;
    }
    for (String name : features.fieldNames()) {
      Feature f = Feature.fromWireName(name);
      if (f == null) {
        throw QuarryException.invalid(features.pathOf(name), "unknown feature '" + name + "'");
      }
      boolean enabled = features.optionalBoolean(name, true);
      if (enabled && !QuarryPluginConfig.AVAILABLE_FEATURES.contains(f)) {
        throw QuarryException.invalid(
            features.pathOf(name), name + " is not available in this build");
      }
      if (enabled) {
        on.add(f);
      } else {
        on.remove(f);
      }
    }
    return on;
  }

  /** The {@code jobs} section, with the per-job bounds of {@code limits}. */
  private static JobSettings jobs(WireObject jobs, Limits limits) {
    JobSettings d = JobSettings.DEFAULT;
    if (jobs != null) {
      jobs.allowOnly(
          Set.of(
              "workers",
              "maxActiveJobs",
              "maxQueuedFiles",
              "maxQueuedBytes",
              "retentionMinutes",
              "openIdleMinutes"));
    }
    Integer workers = jobs == null ? null : jobs.optionalInt("workers", 1, 64);
    Integer active = jobs == null ? null : jobs.optionalInt("maxActiveJobs", 1, 100_000);
    Integer queuedFiles = jobs == null ? null : jobs.optionalInt("maxQueuedFiles", 1, 100_000_000);
    Long queuedBytes = jobs == null ? null : jobs.optionalLong("maxQueuedBytes", 1, 1L << 50);
    Long retention = jobs == null ? null : jobs.optionalLong("retentionMinutes", 1, 60L * 24 * 365);
    Long idle = jobs == null ? null : jobs.optionalLong("openIdleMinutes", 1, 60L * 24 * 30);
    return new JobSettings(
        limits.getInt(Limit.MAX_JOB_FILES),
        limits.get(Limit.MAX_JOB_BYTES),
        active == null ? d.maxActiveJobs() : active,
        queuedFiles == null ? d.maxQueuedFiles() : queuedFiles,
        queuedBytes == null ? d.maxQueuedBytes() : queuedBytes,
        retention == null ? d.retention() : Duration.ofMinutes(retention),
        idle == null ? d.openIdleTimeout() : Duration.ofMinutes(idle),
        workers == null ? d.workers() : workers);
  }

  private static ExtractionSettings extraction(WireObject extraction) {
    ExtractionSettings d = ExtractionSettings.DEFAULT;
    if (extraction == null) {
      return d;
    }
    extraction.allowOnly(
        Set.of(
            "workers",
            "workerHeapMiB",
            "queueCapacity",
            "ocr",
            "ocrDetectOrientation",
            "ocrLanguages"));
    Integer workers = extraction.optionalInt("workers", 1, 64);
    Integer heap = extraction.optionalInt("workerHeapMiB", 64, 65_536);
    Integer queue = extraction.optionalInt("queueCapacity", 0, 10_000);
    String ocrName = extraction.optionalString("ocr");
    OcrMode ocr = ocrName == null ? d.ocr() : OcrMode.fromWireName(ocrName);
    if (ocr == null) {
      throw QuarryException.invalid(
          extraction.pathOf("ocr"), "ocr must be 'auto' or 'off'; got '" + ocrName + "'");
    }
    boolean detectOrientation =
        extraction.optionalBoolean("ocrDetectOrientation", d.ocrDetectOrientation());
    List<String> ocrLanguages = extraction.optionalStringList("ocrLanguages", 16, 40);
    if (ocrLanguages != null) {
      for (int i = 0; i < ocrLanguages.size(); i++) {
        try {
          Extractors.checkOcrLanguages(List.of(ocrLanguages.get(i)));
        } catch (IllegalArgumentException e) {
          throw QuarryException.invalid(
              extraction.pathOf("ocrLanguages") + "[" + i + "]", e.getMessage());
        }
      }
      if (ocrLanguages.isEmpty()) {
        throw QuarryException.invalid(
            extraction.pathOf("ocrLanguages"), "at least one OCR language is needed");
      }
    }
    return new ExtractionSettings(
        workers == null ? d.workers() : workers,
        heap == null ? d.workerHeapMiB() : heap,
        queue == null ? d.queueCapacity() : queue,
        ocr,
        detectOrientation,
        ocrLanguages == null ? d.ocrLanguages() : ocrLanguages);
  }

  private static Limits limits(WireObject limits) {
    if (limits == null) {
      return Limits.DEFAULT;
    }
    EnumMap<Limit, Long> overrides = new EnumMap<>(Limit.class);
    for (String name : limits.fieldNames()) {
      Limit limit = Limit.fromWireName(name);
      if (limit == null) {
        throw QuarryException.invalid(limits.pathOf(name), "unknown limit '" + name + "'");
      }
      overrides.put(limit, limits.optionalLong(name, 1, limit.ceiling()));
    }
    try {
      return Limits.DEFAULT.with(overrides);
    } catch (IllegalArgumentException e) {
      throw QuarryException.invalid(limits.path(), e.getMessage());
    }
  }

  /** {@code models}: {@code {"folders": ["/abs/folder", ...]}}, each folder an operator's model. */
  private static List<Path> modelFolders(WireObject models) {
    if (models == null) {
      return List.of();
    }
    models.allowOnly(Set.of("folders"));
    List<Path> out = new ArrayList<>();
    List<String> folders = models.optionalStringList("folders", 64, 4096);
    for (int i = 0; folders != null && i < folders.size(); i++) {
      String field = models.pathOf("folders") + "[" + i + "]";
      Path folder;
      try {
        folder = Path.of(folders.get(i));
      } catch (InvalidPathException e) {
        throw QuarryException.invalid(field, "not a path: " + e.getMessage());
      }
      if (!folder.isAbsolute()) {
        throw QuarryException.invalid(
            field, "a model folder must be an absolute path; got '" + folders.get(i) + "'");
      }
      out.add(folder);
    }
    return out;
  }

  /** The engine settings this configuration implies. */
  public EngineConfig engineConfig() {
    return engineConfig(EngineListener.NONE);
  }

  /**
   * The engine settings this configuration implies, telling {@code listener} of the engine's work.
   */
  public EngineConfig engineConfig(EngineListener listener) {
    return EngineConfig.builder()
        .retainedRevisions(retainedRevisions)
        .idempotencyRetention(idempotencyRetention)
        .embeddingModels(Models.all(modelFolders))
        .listener(listener)
        .build();
  }
}
