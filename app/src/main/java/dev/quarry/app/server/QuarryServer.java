package dev.quarry.app.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.Authenticator;
import dev.quarry.api.ChecksBeforeBody;
import dev.quarry.api.OpenApiDocument;
import dev.quarry.api.QuarryPlugin;
import dev.quarry.api.console.ConsoleAssets;
import dev.quarry.api.routes.ErrorResponses;
import dev.quarry.api.routes.IngestEndpoint;
import dev.quarry.api.routes.JobUploadEndpoint;
import dev.quarry.api.routes.Responses;
import dev.quarry.api.routes.RetrievalRoutes;
import dev.quarry.api.runs.AguiCapabilities;
import dev.quarry.api.runs.AguiEndpoint;
import dev.quarry.api.runs.RunsEndpoint;
import dev.quarry.api.wire.Feature;
import dev.quarry.api.wire.Limit;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.app.backup.Backups;
import dev.quarry.cluster.OpenSearchCorpusStore;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.CorporaBuilder;
import dev.quarry.corpora.jobs.IngestJobs;
import dev.quarry.engine.EmbeddingModels;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchCaches;
import dev.quarry.extractors.Extractors;
import dev.quarry.mcp.McpPlugin;
import dev.quarry.mcp.McpPluginConfig;
import dev.quarry.openai.OpenAiPlugin;
import io.javalin.Javalin;
import io.javalin.config.JavalinState;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.router.InternalRouter;
import io.javalin.router.ParsedEndpoint;
import jakarta.servlet.DispatcherType;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The standalone server: {@link QuarryPlugin} over a data folder, plus {@code GET /v1/protocol},
 * {@code GET /v1/openapi.yaml}, {@code GET /healthz} and {@code GET /readyz} (no authentication, no
 * data; see {@link Readiness}), {@code GET /metrics} (see {@link Metrics}), the web console below
 * {@code /console/}, tokens, CORS, and JSON answers for every path and failure, unknown routes
 * included.
 *
 * <p>Lifecycle: {@link #start} opens the data folder (locking it against a second server), builds
 * the document extraction pool when document-ingestion is on, and listens; {@link #close} stops
 * taking requests, lets those in progress finish, stops Jetty, closes the corpora, which commits
 * and closes every corpus, and then ends the extraction workers. Thread-safe.
 */
public final class QuarryServer implements AutoCloseable {
  /** How long shutdown waits for requests in progress before stopping anyway. */
  public static final long DRAIN_TIMEOUT_MILLIS = 30_000;

  private static final Logger LOG = LoggerFactory.getLogger(QuarryServer.class);

  private final Corpora corpora;
  private final Javalin app;
  private final EdgeFilter edge;
  private final Readiness readiness;
  private final Metrics metrics;
  private final String host;

  /**
   * The extraction pool this server built, closed after the corpora; null when ingestion is off.
   */
  private final Extractors extractors;

  /**
   * The folder of the data folder that keeps OpenAI's uploaded files and records
   * (docs/openai-compatibility.md).
   */
  static final String OPENAI_FOLDER = "openai";

  /** The ingestion jobs, closed before the corpora; null when ingestion-jobs is off. */
  private final IngestJobs jobs;

  private boolean closed;

  private QuarryServer(
      Corpora corpora,
      Extractors extractors,
      IngestJobs jobs,
      Javalin app,
      EdgeFilter edge,
      String host,
      Readiness readiness,
      Metrics metrics) {
    this.jobs = jobs;
    this.readiness = readiness;
    this.metrics = metrics;
    this.corpora = corpora;
    this.extractors = extractors;
    this.app = app;
    this.edge = edge;
    this.host = host;
  }

  /**
   * Opens {@code dataDir} and starts listening on {@code host:port} (port 0: a free port).
   *
   * @throws QuarryException when the data folder cannot be opened, for example because another
   *     server holds it
   */
  public static QuarryServer start(
      Path dataDir, String host, int port, Authenticator tokens, ServerConfig config) {
    return start(dataDir, host, port, tokens, config, null);
  }

  /**
   * As {@link #start(Path, String, int, Authenticator, ServerConfig)}, with a connection idle
   * timeout (null: Jetty's).
   */
  static QuarryServer start(
      Path dataDir,
      String host,
      int port,
      Authenticator tokens,
      ServerConfig config,
      Duration idleTimeout) {
    Objects.requireNonNull(tokens, "tokens");
    // Without document ingestion no extraction pool is built at all.
    Extractors extractors =
        config.features().contains(Feature.DOCUMENT_INGESTION)
            ? config
                .extraction()
                .build(config.limits(), config.features().contains(Feature.PDF_INGESTION))
            : null;
    Corpora corpora;
    EngineMetrics engineMetrics = new EngineMetrics();
    EngineConfig engineConfig = config.engineConfig(engineMetrics);
    try {
      // The free-disk floor guards the data folder's disk; with corpora on the cluster, the
      // cluster's own watermarks guard its writes (ServerConfig refuses the floor there).
      CorporaBuilder builder =
          config.openSearch() != null
              ? Corpora.builder()
                  .store(
                      new OpenSearchCorpusStore(
                          config.openSearch(), engineConfig, config.maxOpenCorpora()))
              : Corpora.builder()
                  .dataDir(dataDir)
                  .engineConfig(engineConfig)
                  .maxOpenCorpora(config.maxOpenCorpora())
                  .writeAdmission(
                      new DiskFloor(dataDir, config.writeMinFreeDiskMiB() * 1024 * 1024));
      corpora = (extractors == null ? builder : builder.extractors(extractors)).build();
    } catch (RuntimeException e) {
      closeQuietly(extractors);
      throw e;
    }
    IngestJobs jobs = null;
    try {
      // Jobs left by the last run resume here, before the server takes requests.
      jobs =
          extractors != null && config.features().contains(Feature.INGESTION_JOBS)
              ? IngestJobs.open(dataDir, corpora, config.jobs())
              : null;
      return start(
          corpora,
          extractors,
          jobs,
          dataDir,
          host,
          port,
          tokens,
          config,
          engineMetrics,
          engineConfig.embeddingModels(),
          engineConfig.searchCaches(),
          idleTimeout);
    } catch (RuntimeException e) {
      closeQuietly(jobs);
      closeQuietly(corpora);
      closeQuietly(extractors);
      throw e;
    }
  }

  /** Serves an already open {@code corpora}; the server closes it on {@link #close}. */
  static QuarryServer start(
      Corpora corpora, String host, int port, Authenticator tokens, ServerConfig config) {
    return start(corpora, host, port, tokens, config, null);
  }

  /**
   * As {@link #start(Corpora, String, int, Authenticator, ServerConfig)}, with a connection idle
   * timeout (null: Jetty's).
   */
  static QuarryServer start(
      Corpora corpora,
      String host,
      int port,
      Authenticator tokens,
      ServerConfig config,
      Duration idleTimeout) {
    return start(
        corpora, null, null, null, host, port, tokens, config, null, null, null, idleTimeout);
  }

  /**
   * Serves {@code corpora}; the server closes it, then {@code extractors} (may be null), on {@link
   * #close}.
   */
  private static QuarryServer start(
      Corpora corpora,
      Extractors extractors,
      IngestJobs jobs,
      Path dataDir,
      String host,
      int port,
      Authenticator tokenFile,
      ServerConfig config,
      EngineMetrics engineMetrics,
      EmbeddingModels models,
      SearchCaches searchCaches,
      Duration idleTimeout) {
    Readiness readiness = new Readiness(dataDir, config.minFreeDiskMiB() * 1024 * 1024);
    Metrics metrics =
        new Metrics(
            endpoints(corpora),
            readiness,
            config.metricsTokenSha256() == null
                ? null
                : HexFormat.of().parseHex(config.metricsTokenSha256()));
    if (engineMetrics != null) {
      metrics.bind(engineMetrics);
    }
    // Read at scrape time, never here: a server may start before its corpora are reachable. Only
    // the embedded store can tell what its open corpora hold: with corpora on a cluster the series
    // are left out rather than reading 0 (the cluster reports its own).
    boolean embeddedStore = config.openSearch() == null;
    if (embeddedStore) {
      CorporaMetrics corporaMetrics = new CorporaMetrics(corpora);
      metrics.bind(corporaMetrics);
      if (config.metricsCorpusLabels() > 0) {
        CorpusSeries perCorpus = new CorpusSeries(corporaMetrics, config.metricsCorpusLabels());
        metrics.bind(perCorpus, perCorpus::refresh);
      }
    }
    metrics.bind(
        new CacheMetrics(
            embeddedStore ? corpora : null, models, embeddedStore ? searchCaches : null));
    if (extractors != null) {
      metrics.bind(new ExtractionMetrics(extractors));
    }
    Authenticator tokens = RequestScope.recordingSubjects(tokenFile);
    StrictJson json = new StrictJson();
    ObjectMapper mapper = json.mapper();
    QuarryPlugin plugin =
        new QuarryPlugin(
            c -> {
              c.corpora(corpora)
                  .authenticator(tokens)
                  .limits(config.limits())
                  .runs(true)
                  .console(true)
                  .capacity(config.maxInFlight(), config.maxWaiting(), config.maxWaitMillis());
              if (jobs != null) {
                c.jobs(jobs);
              }
              for (Feature f : Feature.values()) {
                if (!config.features().contains(f)) {
                  c.disable(f);
                }
              }
            });
    // The MCP server (docs/mcp.md): the same tokens, grants, limits and capacity gate.
    McpPlugin mcp =
        config.mcp()
            ? new McpPlugin(m -> m.corpora(corpora).authenticator(tokens).beside(plugin))
            : null;
    EdgeFilter edge = new EdgeFilter(new Cors(config.corsOrigins()), mapper);
    BackupEndpoint backup =
        new BackupEndpoint(
            tokens,
            config.limits(),
            json,
            config.backupDirectory() == null || dataDir == null
                ? null
                : new Backups(
                    corpora,
                    dataDir,
                    config.backupDirectory(),
                    ServerVersion.VERSION,
                    Clock.systemUTC()));
    Javalin app =
        Javalin.create(
            c -> {
              // The route table every request is routed by; asked again for each request before its
              // body.
              JavalinState routes = c.unsafe;
              c.startup.showJavalinBanner = false;
              // A bounded number of threads. Jetty needs its task queue unbounded (it queues its
              // own
              // work there); the bound on requests is the plugin's capacity gate, which answers
              // 429.
              c.jetty.threadPool =
                  new QueuedThreadPool(config.maxThreads(), Math.min(8, config.maxThreads()));
              c.jetty.modifyServer(
                  server -> {
                    server.setErrorHandler(new JsonErrorPages(mapper));
                    // Bodies arrive before a thread or a place in the gate is given to them
                    // (BodyPrefetch).
                    server.insertHandler(
                        new BodyPrefetch(
                            config.limits().get(Limit.MAX_REQUEST_BYTES),
                            BodyPrefetch.MIN_BYTES_PER_SECOND,
                            prefetchBudget(config),
                            edge,
                            request -> answeredWithoutBody(request, routes.internalRouter, mcp)));
                    // Outermost, so every answer (refusals before routing included) carries its
                    // request id.
                    server.insertHandler(new RequestIds(metrics));
                    server.setRequestLog(new AccessLog(metrics));
                  });
              // An answer that fits the output buffer (a search's, with its highlights: tens of KB)
              // is
              // kept whole until it is complete, then sent in one write with its Content-Length.
              // Jetty's
              // default aggregates only writes up to a quarter of the buffer, and Javalin hands
              // over the
              // whole body in one write, so without this every answer over 8 KB went out chunked,
              // in two
              // writes (the body, then the last chunk).
              c.jetty.modifyHttpConfiguration(
                  http -> {
                    http.setOutputAggregationSize(http.getOutputBufferSize());
                    if (idleTimeout != null) {
                      http.setIdleTimeout(idleTimeout.toMillis());
                    }
                  });
              c.jetty.modifyServletContextHandler(
                  handler -> {
                    handler.addFilter(
                        new FilterHolder(new RequestScope()),
                        "/*",
                        EnumSet.of(DispatcherType.REQUEST));
                    handler.addFilter(
                        new FilterHolder(edge), "/*", EnumSet.of(DispatcherType.REQUEST));
                  });
              c.registerPlugin(plugin);
              if (mcp != null) {
                c.registerPlugin(mcp);
              }
              if (jobs != null && dataDir != null) {
                // OpenAI's vector stores and files API (docs/openai-compatibility.md) over the same
                // corpora and jobs.
                c.registerPlugin(
                    new OpenAiPlugin(
                        o ->
                            o.corpora(corpora)
                                .jobs(jobs)
                                .authenticator(tokens)
                                .folder(dataDir.resolve(OPENAI_FOLDER))
                                .limits(
                                    config.limits().get(Limit.MAX_DOCUMENT_BYTES),
                                    config.limits().get(Limit.MAX_REQUEST_BYTES))));
              }
              c.routes.get(
                  ProtocolEndpoint.PATH,
                  new ProtocolEndpoint(
                      tokens,
                      config.limits(),
                      json,
                      () -> {
                        ObjectNode protocol = plugin.protocol();
                        protocol
                            .putObject("server")
                            .put("name", "quarry")
                            .put("version", ServerVersion.VERSION)
                            .set(
                                "store",
                                StoreConfig.describe(
                                    config, dataDir != null, corpora.scoresExactly(), mapper));
                        return protocol;
                      }));
              // The API's description is public, like the protocol it describes: no token, no data.
              c.routes.post(BackupEndpoint.PATH, backup);
              c.routes.get(
                  OpenApiDocument.PATH,
                  ctx ->
                      ctx.contentType(OpenApiDocument.MEDIA_TYPE).result(OpenApiDocument.bytes()));
              // The plugin serves the console below /console/; the server's root opens it.
              c.routes.get("/", ConsoleAssets::redirect);
              c.routes.get(
                  "/healthz",
                  ctx -> {
                    ObjectNode ok = JsonNodeFactory.instance.objectNode().put("status", "ok");
                    Responses.write(ctx, 200, ok, mapper);
                  });
              c.routes.get(
                  Metrics.PATH,
                  ctx -> {
                    if (!metrics.enabled()) {
                      fail(
                          ctx,
                          new QuarryException(
                              ErrorCode.NOT_FOUND,
                              "metrics are off: set metrics.tokenSha256 in the " + "config file"),
                          mapper);
                    } else if (!metrics.admits(bearer(ctx))) {
                      fail(
                          ctx,
                          new QuarryException(
                              ErrorCode.UNAUTHENTICATED, "GET /metrics needs the metrics token"),
                          mapper);
                    } else {
                      ctx.status(200)
                          .contentType("text/plain; version=0.0.4; charset=utf-8")
                          .result(metrics.scrape());
                    }
                  });
              c.routes.get(
                  "/readyz",
                  ctx -> {
                    var reason = readiness.notReadyBecause();
                    if (reason.isPresent()) {
                      fail(
                          ctx,
                          new QuarryException(ErrorCode.UNAVAILABLE, "not ready: " + reason.get()),
                          mapper);
                    } else {
                      Responses.write(
                          ctx,
                          200,
                          JsonNodeFactory.instance.objectNode().put("status", "ready"),
                          mapper);
                    }
                  });
              c.routes.error(
                  404,
                  ctx -> {
                    if (!Responses.answered(ctx)) {
                      fail(
                          ctx,
                          new QuarryException(
                              ErrorCode.NOT_FOUND,
                              "no endpoint " + ctx.method() + " '" + ctx.path() + "'"),
                          mapper);
                    }
                  });
              c.routes.error(
                  405,
                  ctx -> {
                    if (!Responses.answered(ctx)) {
                      fail(
                          ctx,
                          new QuarryException(
                              ErrorCode.NOT_FOUND,
                              "no endpoint " + ctx.method() + " '" + ctx.path() + "'"),
                          mapper);
                    }
                  });
              c.routes.error(
                  500,
                  ctx -> {
                    if (!Responses.answered(ctx)) {
                      fail(ctx, new QuarryException(ErrorCode.INTERNAL, "internal error"), mapper);
                    }
                  });
              c.routes.exception(Exception.class, (e, ctx) -> ErrorResponses.write(ctx, e, mapper));
            });
    try {
      app.start(host, port);
    } catch (RuntimeException e) {
      throw new QuarryException(
          ErrorCode.UNAVAILABLE,
          "cannot listen on " + host + ":" + port + ": " + e.getMessage(),
          e);
    }
    readiness.started();
    return new QuarryServer(corpora, extractors, jobs, app, edge, host, readiness, metrics);
  }

  /**
   * What all requests together may hold of JSON bodies still arriving: an eighth of the heap, and
   * at least one body of the largest size.
   */
  private static long prefetchBudget(ServerConfig config) {
    return Math.max(
        config.limits().get(Limit.MAX_REQUEST_BYTES) + 1, Runtime.getRuntime().maxMemory() / 8);
  }

  /**
   * Whether {@code request} is answered without its body: sent where nothing reads one (an unknown
   * route, 404, or a handler that reads none), or refused by its handler's checks before the body
   * ({@link ChecksBeforeBody}). The handler is the one the request reaches: the MCP servlet at its
   * path (outside Javalin's routes), else the one Javalin routes it to, found in the same route
   * table by the same rules (a trailing slash included). Every handler that reads a body answers
   * POST.
   */
  private static boolean answeredWithoutBody(
      Request request, InternalRouter router, McpPlugin mcp) {
    if (!"POST".equals(request.getMethod())) {
      return true;
    }
    String path = Request.getPathInContext(request);
    ChecksBeforeBody checks = null;
    if (mcp != null && path.equals(mcp.path())) {
      checks = mcp.checksBeforeBody();
    } else if (router.findFirstHttpHandlerEntry(HandlerType.POST, path)
            instanceof ParsedEndpoint route
        && route.endpoint.handler instanceof ChecksBeforeBody routed) {
      checks = routed;
    }
    return checks == null || checks.refusesBeforeBody(name -> request.getHeaders().get(name));
  }

  /** The server's own paths, each its own endpoint label in the metrics. */
  static Set<String> endpoints(Corpora corpora) {
    Set<String> paths =
        new HashSet<>(
            List.of(
                ProtocolEndpoint.PATH,
                "/healthz",
                "/readyz",
                Metrics.PATH,
                OpenApiDocument.PATH,
                RunsEndpoint.PATH,
                AguiEndpoint.PATH,
                AguiCapabilities.PATH,
                BackupEndpoint.PATH,
                RetrievalRoutes.PREFIX + IngestEndpoint.PATH,
                McpPluginConfig.DEFAULT_PATH));
    RetrievalRoutes.over(corpora).forEach(r -> paths.add(RetrievalRoutes.PREFIX + r.path()));
    RetrievalRoutes.jobs(null, false).forEach(r -> paths.add(RetrievalRoutes.PREFIX + r.path()));
    paths.add(RetrievalRoutes.PREFIX + JobUploadEndpoint.UPLOAD_PATH);
    paths.add(RetrievalRoutes.PREFIX + JobUploadEndpoint.SUBMIT_PATH);
    return paths;
  }

  /** The request's bearer token, or null. */
  private static String bearer(Context ctx) {
    String header = ctx.header("Authorization");
    return header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
        ? header.substring(7).strip()
        : null;
  }

  private static void fail(Context ctx, QuarryException e, ObjectMapper mapper) {
    ErrorResponses.write(ctx, e, mapper);
  }

  /** The port listened on (the free port chosen when started with 0). */
  public int port() {
    return app.port();
  }

  /** The base URL, such as {@code http://127.0.0.1:8080}. */
  public String url() {
    return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port();
  }

  /** The web console's address, such as {@code http://127.0.0.1:8080/console/}. */
  public String consoleUrl() {
    return url() + ConsoleAssets.PREFIX;
  }

  /**
   * Stops taking requests, waits for those in progress (up to {@link #DRAIN_TIMEOUT_MILLIS}), stops
   * Jetty and closes the corpora. Calling it again does nothing.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    readiness.stopping();
    try {
      if (!edge.drain(DRAIN_TIMEOUT_MILLIS)) {
        LOG.warn("requests still in progress after {} ms; stopping anyway", DRAIN_TIMEOUT_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      app.stop();
    } finally {
      // Files being ingested by a job finish; the rest resume at the next start.
      closeQuietly(jobs);
      closeQuietly(corpora);
      closeQuietly(extractors);
      closeQuietly(metrics);
    }
  }

  private static void closeQuietly(AutoCloseable resource) {
    if (resource == null) {
      return;
    }
    try {
      resource.close();
    } catch (Exception e) {
      LOG.error("closing {} failed", resource.getClass().getSimpleName(), e);
    }
  }
}
