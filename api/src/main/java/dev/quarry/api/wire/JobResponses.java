package dev.quarry.api.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.corpora.jobs.FileOutcome;
import dev.quarry.corpora.jobs.JobListPage;
import dev.quarry.corpora.jobs.JobPage;
import dev.quarry.corpora.jobs.JobView;
import dev.quarry.engine.ErrorCode;

/**
 * The answers of the ingestion-job endpoints: {@code {"job": {...}}}, with a page of files for
 * {@code jobs/read}; {@code {"jobs": [...]}} for {@code jobs/list}, each entry the same summary.
 */
public final class JobResponses {
  private JobResponses() {}

  /**
   * {@code jobs/create}, {@code jobs/close}, {@code jobs/cancel}, {@code jobs/upload}, {@code
   * jobs/submit}.
   */
  public static ObjectNode job(JobView view) {
    ObjectNode out = WireJson.object();
    out.set("job", view(view));
    return out;
  }

  /**
   * {@code jobs/read}: the job, its files after the cursor in index order, and {@code nextCursor}
   * when more follow.
   */
  public static ObjectNode page(JobPage page) {
    ObjectNode out = job(page.job());
    ArrayNode files = out.putArray("files");
    for (FileOutcome f : page.files()) {
      ObjectNode file = files.addObject();
      file.put("index", f.index());
      file.put("source", f.source());
      file.put("contentSha256", f.contentSha256());
      file.put("bytes", f.bytes());
      file.put("status", f.status().wireName());
      if (f.ocr() != null) {
        file.put("ocr", f.ocr().wireName());
      }
      if (f.ocrLanguages() != null) {
        f.ocrLanguages().forEach(file.putArray("ocrLanguages")::add);
      }
      if (f.endedAt() != null) {
        file.put("endedAt", WireJson.time(f.endedAt()));
      }
      if (f.receipt() != null) {
        file.set("receipt", SourceResponses.receipt(f.receipt()));
      }
      if (f.errorCode() != null) {
        file.set("error", error(f.errorCode(), f.errorMessage()));
      }
    }
    if (page.nextAfter() != null) {
      out.put("nextCursor", JobRequests.cursorAfter(page.nextAfter()));
    }
    return out;
  }

  /**
   * {@code jobs/list}: the jobs of the page, newest first, and {@code nextCursor} when more follow.
   */
  public static ObjectNode list(JobListPage page) {
    ObjectNode out = WireJson.object();
    ArrayNode jobs = out.putArray("jobs");
    page.jobs().forEach(v -> jobs.add(view(v)));
    if (page.next() != null) {
      out.put("nextCursor", JobRequests.listCursorAfter(page.next()));
    }
    return out;
  }

  private static ObjectNode view(JobView v) {
    ObjectNode job = WireJson.object();
    job.put("id", v.id());
    job.put("corpus", v.corpus());
    job.put("corpusId", v.corpusId());
    job.put("state", v.state().wireName());
    JobView.Counts c = v.counts();
    job.putObject("counts")
        .put("files", c.files())
        .put("queued", c.queued())
        .put("extracting", c.extracting())
        .put("indexed", c.indexed())
        .put("unchanged", c.unchanged())
        .put("failed", c.failed())
        .put("cancelled", c.cancelled());
    job.put("bytes", v.bytes());
    if (v.progress() != null) {
      job.set("progress", progress(v.progress()));
    }
    if (v.ocr() != null) {
      job.put("ocr", v.ocr().wireName());
    }
    if (v.ocrLanguages() != null) {
      v.ocrLanguages().forEach(job.putArray("ocrLanguages")::add);
    }
    job.put("createdAt", WireJson.time(v.createdAt()));
    if (v.startedAt() != null) {
      job.put("startedAt", WireJson.time(v.startedAt()));
    }
    if (v.closedAt() != null) {
      job.put("closedAt", WireJson.time(v.closedAt()));
    }
    if (v.endedAt() != null) {
      job.put("endedAt", WireJson.time(v.endedAt()));
    }
    if (v.expiresAt() != null) {
      job.put("expiresAt", WireJson.time(v.expiresAt()));
    }
    if (v.errorCode() != null) {
      job.set("error", error(v.errorCode(), v.errorMessage()));
    }
    return job;
  }

  /**
   * The embedding's progress of a job into an embedding corpus; the unknown figures are left out.
   */
  private static ObjectNode progress(JobView.Progress p) {
    ObjectNode out = WireJson.object();
    out.put("passagesEmbedded", p.passagesEmbedded());
    if (p.passagesTotal() != null) {
      out.put("passagesTotal", p.passagesTotal());
      out.put("totalEstimated", p.totalEstimated());
    }
    if (p.passagesPerSecond() != null) {
      out.put("passagesPerSecond", Math.round(p.passagesPerSecond() * 100) / 100.0);
    }
    if (p.secondsLeft() != null) {
      out.put("secondsLeft", p.secondsLeft());
    }
    return out;
  }

  private static ObjectNode error(ErrorCode code, String message) {
    ObjectNode e = WireJson.object();
    e.put("code", code.name());
    e.put("message", message == null ? "" : message);
    e.put("retryable", code.retryable());
    return e;
  }
}
