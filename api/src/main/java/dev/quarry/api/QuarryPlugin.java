package dev.quarry.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.console.ConsoleAssets;
import dev.quarry.api.routes.ErrorResponses;
import dev.quarry.api.routes.IngestEndpoint;
import dev.quarry.api.routes.JobUploadEndpoint;
import dev.quarry.api.routes.RequestGate;
import dev.quarry.api.routes.RetrievalEndpoint;
import dev.quarry.api.routes.RetrievalRoutes;
import dev.quarry.api.routes.Route;
import dev.quarry.api.runs.AguiCapabilities;
import dev.quarry.api.runs.AguiEndpoint;
import dev.quarry.api.runs.RunsEndpoint;
import dev.quarry.api.wire.Feature;
import dev.quarry.api.wire.Limit;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.ProtocolHeaders;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.jobs.IngestJobs;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import io.javalin.config.JavalinState;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.plugin.Plugin;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The retrieval extension as a Javalin plugin: a host registers it in its own app and gets every
 * endpoint below {@code /v1/retrieval/}, answered with the version header and the error envelope
 * (and, when it opts in, {@code /v1/runs}, the AG-UI endpoints and the web console below {@code
 * /console/}). The plugin touches nothing else of the host's: the host keeps its own {@code
 * /v1/protocol} and adds {@link #features()} and {@link #limits()} to it.
 *
 * <pre>{@code
 * QuarryPlugin quarry = new QuarryPlugin(c -> c.corpora(corpora).authenticator(tokens::lookup));
 * Javalin app = Javalin.create(config -> config.registerPlugin(quarry));
 * }</pre>
 *
 * <p>Thread-safe once built. The host owns the {@code Corpora} and closes it after stopping the
 * app.
 *
 * @quarry.stable
 */
public final class QuarryPlugin extends Plugin<QuarryPluginConfig> {
  private final Set<Feature> features;
  private final Limits limits;
  private final StrictJson json = new StrictJson();
  private final RequestGate gate;

  /**
   * @throws IllegalStateException when the configuration lacks corpora or an authenticator
   */
  public QuarryPlugin(Consumer<QuarryPluginConfig> userConfig) {
    super(userConfig, new QuarryPluginConfig());
    pluginConfig.check();
    this.features = offered(pluginConfig.features, pluginConfig.corpora, pluginConfig.jobs);
    this.limits =
        pluginConfig.jobs == null
            ? pluginConfig.limits
            : pluginConfig.limits.with(
                Map.of(
                    Limit.MAX_JOB_FILES,
                    (long) pluginConfig.jobs.settings().maxFilesPerJob(),
                    Limit.MAX_JOB_BYTES,
                    pluginConfig.jobs.settings().maxBytesPerJob()));
    this.gate =
        new RequestGate(
            pluginConfig.maxInFlight, pluginConfig.maxWaiting, pluginConfig.maxWaitMillis);
  }

  /**
   * The switched-on features the corpora can serve: ingestion needs extractors, PDFs need the PDF
   * extractor, OCR needs Tesseract, jobs need a job store.
   */
  private static Set<Feature> offered(Set<Feature> switchedOn, Corpora corpora, IngestJobs jobs) {
    EnumSet<Feature> offered =
        switchedOn.isEmpty() ? EnumSet.noneOf(Feature.class) : EnumSet.copyOf(switchedOn);
    if (!corpora.ingestsDocuments()) {
      offered.remove(Feature.DOCUMENT_INGESTION);
    }
    if (!corpora.ingestsPdf() || !offered.contains(Feature.DOCUMENT_INGESTION)) {
      offered.remove(Feature.PDF_INGESTION);
    }
    if (!offered.contains(Feature.DOCUMENT_INGESTION) || !corpora.ingestsWithOcr()) {
      offered.remove(Feature.OCR);
    }
    if (jobs == null || !offered.contains(Feature.DOCUMENT_INGESTION)) {
      offered.remove(Feature.INGESTION_JOBS);
    }
    return Set.copyOf(offered);
  }

  @Override
  public void onInitialize(JavalinState state) {
    for (Route route : RetrievalRoutes.over(pluginConfig.corpora)) {
      state.routes.post(
          RetrievalRoutes.PREFIX + route.path(),
          new RetrievalEndpoint(route, pluginConfig.authenticator, features, limits, gate, json));
    }
    state.routes.post(
        RetrievalRoutes.PREFIX + IngestEndpoint.PATH,
        new IngestEndpoint(
            pluginConfig.corpora, pluginConfig.authenticator, features, limits, gate, json));
    IngestJobs jobs = features.contains(Feature.INGESTION_JOBS) ? pluginConfig.jobs : null;
    for (Route route : RetrievalRoutes.jobs(jobs, features.contains(Feature.OCR))) {
      state.routes.post(
          RetrievalRoutes.PREFIX + route.path(),
          new RetrievalEndpoint(route, pluginConfig.authenticator, features, limits, gate, json));
    }
    state.routes.post(
        RetrievalRoutes.PREFIX + JobUploadEndpoint.UPLOAD_PATH,
        new JobUploadEndpoint(jobs, false, pluginConfig.authenticator, features, limits, json));
    state.routes.post(
        RetrievalRoutes.PREFIX + JobUploadEndpoint.SUBMIT_PATH,
        new JobUploadEndpoint(jobs, true, pluginConfig.authenticator, features, limits, json));
    if (pluginConfig.runs) {
      state.routes.post(
          RunsEndpoint.PATH,
          RunsEndpoint.withDefaults(
              pluginConfig.corpora,
              pluginConfig.authenticator,
              features.contains(Feature.SCOPED_RETRIEVAL),
              limits,
              json));
      // The same runs spoken as AG-UI (docs/agui.md).
      state.routes.post(
          AguiEndpoint.PATH,
          AguiEndpoint.withDefaults(
              pluginConfig.corpora,
              pluginConfig.authenticator,
              features.contains(Feature.SCOPED_RETRIEVAL),
              limits,
              json));
      state.routes.get(
          AguiCapabilities.PATH, new AguiCapabilities(pluginConfig.authenticator, limits, json));
    }
    if (pluginConfig.console) {
      new ConsoleAssets().mount(state.routes);
    }
    // Registered after the endpoints, so only paths and methods they do not answer land here.
    for (HandlerType method :
        List.of(
            HandlerType.GET,
            HandlerType.POST,
            HandlerType.PUT,
            HandlerType.PATCH,
            HandlerType.DELETE)) {
      state.routes.addHttpHandler(method, RetrievalRoutes.PREFIX + "*", this::notFound);
    }
  }

  @Override
  public String name() {
    return "quarry";
  }

  /** The features to list in the host's {@code /v1/protocol}, by wire name. */
  public List<String> features() {
    return features.stream().sorted().map(Feature::wireName).toList();
  }

  /** The limits to list under {@code limits} in the host's {@code /v1/protocol}, by wire name. */
  public Map<String, Long> limits() {
    return limits.asWireMap();
  }

  /**
   * The capacity gate this plugin's endpoints share, for another Quarry plugin beside it (the MCP
   * server) to share the same bound; not for hosts.
   */
  public RequestGate capacityGate() {
    return gate;
  }

  /**
   * The limits this plugin enforces, for another Quarry plugin beside it to enforce the same; not
   * for hosts.
   */
  public Limits wireLimits() {
    return limits;
  }

  /** Whether {@code feature} is switched on and servable, for another Quarry plugin beside it. */
  public boolean offers(Feature feature) {
    return features.contains(feature);
  }

  /** A complete {@code /v1/protocol} body for a host with nothing of its own to add. */
  public ObjectNode protocol() {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("version", ProtocolHeaders.VERSION);
    ProtocolHeaders.SUPPORTED_VERSIONS.forEach(out.putArray("supportedVersions")::add);
    features().forEach(out.putArray("features")::add);
    ObjectNode limitsNode = out.putObject("limits");
    limits().forEach(limitsNode::put);
    return out;
  }

  private void notFound(Context ctx) {
    QuarryException e;
    try {
      ProtocolHeaders.checkRequestedVersion(ctx.header(ProtocolHeaders.VERSION_HEADER));
      e =
          new QuarryException(
              ErrorCode.NOT_FOUND,
              "no endpoint "
                  + ctx.method()
                  + " '"
                  + ctx.path()
                  + "'"
                  + "; retrieval endpoints are POST "
                  + RetrievalRoutes.PREFIX
                  + "...");
    } catch (QuarryException versionError) {
      e = versionError;
    }
    ErrorResponses.write(ctx, e, json.mapper());
  }
}
