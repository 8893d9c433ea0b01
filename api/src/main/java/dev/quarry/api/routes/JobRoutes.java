package dev.quarry.api.routes;

import dev.quarry.api.wire.Feature;
import dev.quarry.api.wire.JobRequests;
import dev.quarry.api.wire.JobResponses;
import dev.quarry.corpora.jobs.IngestJobs;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.util.List;

/**
 * The JSON endpoints of ingestion jobs: {@code jobs/create}, {@code jobs/close}, {@code
 * jobs/cancel}, {@code jobs/read} and {@code jobs/list} (the uploads are {@link
 * JobUploadEndpoint}). Reading and cancelling answer JOB_NOT_FOUND for a job that is not the
 * caller's (unless it may manage the job's corpus), exactly as for an unknown id; listing leaves
 * such jobs out.
 */
final class JobRoutes {
  private final IngestJobs jobs;
  private final boolean ocrOffered;

  private JobRoutes(IngestJobs jobs, boolean ocrOffered) {
    this.jobs = jobs;
    this.ocrOffered = ocrOffered;
  }

  /**
   * The routes; with null {@code jobs} they exist but their feature is off, so they answer
   * *_UNAVAILABLE. {@code ocrOffered}: whether the server advertises the feature {@code ocr}, which
   * a job's {@code ocr: auto} needs.
   */
  static List<Route> over(IngestJobs jobs, boolean ocrOffered) {
    JobRoutes r = new JobRoutes(jobs, ocrOffered);
    return List.of(
        new Route("jobs/create", Feature.INGESTION_JOBS, Route.Kind.MUTATION, r::create),
        new Route("jobs/close", Feature.INGESTION_JOBS, Route.Kind.MUTATION, r::close),
        new Route("jobs/cancel", Feature.INGESTION_JOBS, Route.Kind.MUTATION, r::cancel),
        new Route("jobs/read", Feature.INGESTION_JOBS, Route.Kind.READ, r::read),
        new Route("jobs/list", Feature.INGESTION_JOBS, Route.Kind.READ, r::list));
  }

  private IngestJobs jobs() {
    if (jobs == null) {
      throw new QuarryException(
          ErrorCode.INGESTION_JOBS_UNAVAILABLE, "this server runs no ingestion jobs");
    }
    return jobs;
  }

  /** An open job for a corpus, ready for uploads. */
  Reply create(RouteCall call) {
    JobRequests.Create request = JobRequests.Create.read(call.body());
    request.requireOcrOffered(ocrOffered);
    return Reply.of(
        JobResponses.job(
            call.write(
                () ->
                    jobs()
                        .create(
                            call.access(),
                            request.corpus(),
                            request.corpusId(),
                            request.ocr(),
                            request.ocrLanguages()))));
  }

  /** No more files; the job ends once those it holds have their outcome. */
  Reply close(RouteCall call) {
    JobRequests.Job request = JobRequests.Job.read(call.body());
    return Reply.of(JobResponses.job(call.write(() -> jobs().close(call.access(), request.job()))));
  }

  /** Files not yet indexed never will be; indexed ones stay. */
  Reply cancel(RouteCall call) {
    JobRequests.Job request = JobRequests.Job.read(call.body());
    return Reply.of(
        JobResponses.job(call.write(() -> jobs().cancel(call.access(), request.job()))));
  }

  /** The job, with one keyset page of its files. */
  Reply read(RouteCall call) {
    JobRequests.Read request = JobRequests.Read.read(call.body(), call.limits());
    return Reply.of(
        JobResponses.page(
            jobs().read(call.access(), request.job(), request.after(), request.limit())));
  }

  /** One keyset page of the jobs the caller may read, newest first. */
  Reply list(RouteCall call) {
    JobRequests.ListJobs request = JobRequests.ListJobs.read(call.body(), call.limits());
    return Reply.of(
        JobResponses.list(
            jobs()
                .list(
                    call.access(),
                    request.corpus(),
                    request.state(),
                    request.after(),
                    request.limit())));
  }
}
