package dev.quarry.openai.routes;

import dev.quarry.api.Authenticator;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.jobs.IngestJobs;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import io.javalin.config.JavalinState;
import io.javalin.http.HandlerType;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * Mounts every endpoint below {@link #PREFIX}, each an {@link OpenAiHandler}: authentication (401),
 * the handler's strict reading and its calls (grants before existence, as corpora decides them),
 * and one error writer ({@link OpenAiErrors}). Thread-safe; one per plugin.
 */
public final class OpenAiRoutes {
  /** Where an SDK's {@code baseURL} points. */
  public static final String PREFIX = "/openai/v1";

  private final Authenticator authenticator;
  private final Backend backend;

  /**
   * @param folder the folder that holds the uploaded files and the records of this API
   * @param maxUploadBytes the largest uploaded file (the server's maxDocumentBytes)
   * @param maxJsonBytes the largest JSON body (the server's maxRequestBytes)
   */
  public OpenAiRoutes(
      Corpora corpora,
      IngestJobs jobs,
      Authenticator authenticator,
      Path folder,
      Clock clock,
      long maxUploadBytes,
      long maxJsonBytes) {
    this.authenticator = authenticator;
    this.backend = Backend.open(corpora, jobs, folder, clock, maxUploadBytes, maxJsonBytes);
  }

  public void mount(JavalinState state) {
    Attacher attacher = new Attacher(backend);
    FileBatchRoutes batches = new FileBatchRoutes(backend, attacher);
    VectorStoreRoutes stores = new VectorStoreRoutes(backend, attacher, batches);
    VectorStoreFileRoutes storeFiles = new VectorStoreFileRoutes(backend, attacher, stores);
    batches.wire(stores, storeFiles);
    FileRoutes files = new FileRoutes(backend);
    SearchRoute search = new SearchRoute(backend);
    var r = state.routes;
    r.post(PREFIX + "/files", handler(files::upload));
    r.get(PREFIX + "/files", handler(files::list));
    r.get(PREFIX + "/files/{file}", handler(files::retrieve));
    r.delete(PREFIX + "/files/{file}", handler(files::delete));
    r.get(PREFIX + "/files/{file}/content", handler(files::content));
    r.post(PREFIX + "/vector_stores", handler(stores::create));
    r.get(PREFIX + "/vector_stores", handler(stores::list));
    r.get(PREFIX + "/vector_stores/{id}", handler(stores::retrieve));
    r.post(PREFIX + "/vector_stores/{id}", handler(stores::update));
    r.delete(PREFIX + "/vector_stores/{id}", handler(stores::delete));
    r.post(PREFIX + "/vector_stores/{id}/search", handler(search::search));
    r.post(PREFIX + "/vector_stores/{id}/files", handler(storeFiles::create));
    r.get(PREFIX + "/vector_stores/{id}/files", handler(storeFiles::list));
    r.get(PREFIX + "/vector_stores/{id}/files/{file}", handler(storeFiles::retrieve));
    r.post(PREFIX + "/vector_stores/{id}/files/{file}", handler(storeFiles::update));
    r.delete(PREFIX + "/vector_stores/{id}/files/{file}", handler(storeFiles::delete));
    r.get(PREFIX + "/vector_stores/{id}/files/{file}/content", handler(storeFiles::content));
    r.post(PREFIX + "/vector_stores/{id}/file_batches", handler(batches::create));
    r.get(PREFIX + "/vector_stores/{id}/file_batches/{batch}", handler(batches::retrieve));
    r.post(PREFIX + "/vector_stores/{id}/file_batches/{batch}/cancel", handler(batches::cancel));
    r.get(PREFIX + "/vector_stores/{id}/file_batches/{batch}/files", handler(batches::listFiles));
    // Registered last, so only what the endpoints above do not answer lands here.
    for (HandlerType method :
        List.of(
            HandlerType.GET,
            HandlerType.POST,
            HandlerType.PUT,
            HandlerType.PATCH,
            HandlerType.DELETE)) {
      r.addHttpHandler(
          method,
          PREFIX + "/*",
          ctx ->
              OpenAiErrors.write(
                  ctx,
                  new QuarryException(
                      ErrorCode.NOT_FOUND,
                      "Invalid URL (" + ctx.method() + " " + ctx.path() + ")."),
                  backend.mapper()));
    }
  }

  private OpenAiHandler handler(OpenAiHandler.Action action) {
    return new OpenAiHandler(authenticator, backend, action);
  }
}
