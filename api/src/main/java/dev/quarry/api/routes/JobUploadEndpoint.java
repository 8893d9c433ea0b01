package dev.quarry.api.routes;

import dev.quarry.api.Authenticator;
import dev.quarry.api.wire.Feature;
import dev.quarry.api.wire.IngestRequests;
import dev.quarry.api.wire.JobRequests;
import dev.quarry.api.wire.JobResponses;
import dev.quarry.api.wire.Limit;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.api.wire.WireObject;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.jobs.IngestJobs;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * {@code POST /v1/retrieval/jobs/upload} (files for an open job) and {@code POST
 * /v1/retrieval/jobs/submit} (a job created, filled and closed by one request): multipart bodies
 * with a {@code request} part (JSON) first, then one {@code file} part per entry of its {@code
 * files}.
 *
 * <p>After {@link Endpoint}'s checks comes the request part; it is checked in full (validation, the
 * job or the corpus, grants on every named source, state, bounds) before any file byte is read. The
 * files stream into the job's folder in the data folder with their SHA-256, and the answer is sent
 * only once all of them are fsynced and logged: an answered upload is never lost, and a failed one
 * leaves nothing of its files. Not gated by the request capacity gate: the files wait on disk for
 * the job runners, bounded by the jobs' own limits.
 *
 * <p>Thread-safe; one per path.
 */
public final class JobUploadEndpoint extends Endpoint {
  public static final String UPLOAD_PATH = "jobs/upload";
  public static final String SUBMIT_PATH = "jobs/submit";

  private final IngestJobs jobs;
  private final boolean submit;

  /**
   * @param jobs the jobs, or null when the host runs none (the feature is then off)
   * @param submit true for {@code jobs/submit}, false for {@code jobs/upload}
   */
  public JobUploadEndpoint(
      IngestJobs jobs,
      boolean submit,
      Authenticator authenticator,
      Set<Feature> features,
      Limits limits,
      StrictJson json) {
    super(authenticator, features, Feature.INGESTION_JOBS, null, limits, json);
    this.jobs = jobs;
    this.submit = submit;
  }

  @Override
  protected void checkBeforeBody(UnaryOperator<String> headers) {
    MultipartUpload.boundary(
        headers.apply("Content-Type")); // 415 for any type but multipart/form-data
  }

  @Override
  protected Work prepare(Context ctx, Access access) throws IOException {
    MultipartUpload.JobParts parts =
        MultipartUpload.readJob(
            ctx.req().getInputStream(),
            ctx.header("Content-Type"),
            ctx.req().getContentLengthLong(),
            limits.get(Limit.MAX_REQUEST_BYTES),
            limits.get(Limit.MAX_DOCUMENT_BYTES),
            request -> begin(access, request));
    return new Work() {
      @Override
      public void run(Context c) {
        Responses.reply(
            c, Reply.of(JobResponses.job(parts.upload().commit(parts.stored()))), json.mapper());
      }

      @Override
      public void close() {
        parts.upload().close();
      }
    };
  }

  private IngestJobs.Upload begin(Access access, byte[] request) {
    WireObject body = WireObject.root(IngestRequests.parseRequestPart(json, request));
    if (submit) {
      JobRequests.Submit s = JobRequests.Submit.read(body, limits);
      s.requireOcrOffered(offers(Feature.OCR));
      return jobs.submit(access, s.corpus(), s.corpusId(), s.ocr(), s.ocrLanguages(), s.files());
    }
    JobRequests.Upload u = JobRequests.Upload.read(body, limits);
    u.requireOcrOffered(offers(Feature.OCR));
    return jobs.upload(access, u.job(), u.files(), u.close());
  }
}
