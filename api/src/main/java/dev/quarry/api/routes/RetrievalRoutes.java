package dev.quarry.api.routes;

import dev.quarry.api.wire.Feature;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.jobs.IngestJobs;
import java.util.List;

/**
 * The table of retrieval endpoints: every path below {@link #PREFIX}, its feature, kind and
 * handler.
 */
public final class RetrievalRoutes {
  /** Every retrieval endpoint lives below this path. */
  public static final String PREFIX = "/v1/retrieval/";

  private RetrievalRoutes() {}

  /**
   * Every JSON endpoint answered by {@code corpora}; {@code ingest} takes a multipart upload and
   * has its own handler, {@link IngestEndpoint}.
   */
  public static List<Route> over(Corpora corpora) {
    CorpusRoutes corpus = new CorpusRoutes(corpora);
    SourceRoutes sources = new SourceRoutes(corpora);
    SearchRoute search = new SearchRoute(corpora);
    return List.of(
        new Route("search", Feature.SCOPED_RETRIEVAL, Route.Kind.SEARCH, search::search),
        new Route("sources/index", Feature.RETRIEVAL_INDEXING, Route.Kind.MUTATION, sources::index),
        new Route(
            "sources/delete", Feature.RETRIEVAL_INDEXING, Route.Kind.MUTATION, sources::delete),
        new Route("sources/batch", Feature.RETRIEVAL_INDEXING, Route.Kind.MUTATION, sources::batch),
        new Route("sources/read", Feature.RETRIEVAL_INDEXING, Route.Kind.READ, sources::read),
        new Route("sources/chunks", Feature.RETRIEVAL_INDEXING, Route.Kind.READ, sources::chunks),
        new Route("sources/list", Feature.RETRIEVAL_INDEXING, Route.Kind.READ, sources::list),
        new Route("corpora/history", Feature.RETRIEVAL_INDEXING, Route.Kind.READ, sources::history),
        new Route("corpora/create", null, Route.Kind.MUTATION, corpus::create),
        new Route("corpora/read", null, Route.Kind.READ, corpus::read),
        new Route("corpora/list", null, Route.Kind.READ, corpus::list),
        new Route("corpora/delete", null, Route.Kind.MUTATION, corpus::delete),
        new Route("whoami", null, Route.Kind.READ, WhoamiRoute::whoami));
  }

  /**
   * The JSON endpoints of ingestion jobs ({@code jobs/create}, {@code jobs/close}, {@code
   * jobs/cancel}, {@code jobs/read}, {@code jobs/list}); the uploads have their own handler, {@link
   * JobUploadEndpoint}.
   *
   * @param jobs the jobs, or null when the host runs none
   * @param ocrOffered whether the host advertises the feature {@code ocr} (a job's {@code ocr:
   *     auto} needs it)
   */
  public static List<Route> jobs(IngestJobs jobs, boolean ocrOffered) {
    return JobRoutes.over(jobs, ocrOffered);
  }
}
