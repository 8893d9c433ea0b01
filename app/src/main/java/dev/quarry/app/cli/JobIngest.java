package dev.quarry.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.corpora.ingest.IngestPipeline;
import dev.quarry.engine.QuarryException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code quarry ingest --url} as an ingestion job: files whose bytes their source already holds are
 * skipped, the others are uploaded in batches to one job (closed with the last batch), and the
 * job's counts drive the progress bar until it ends. Ctrl-C detaches: the job goes on on the server
 * (an upload cut short is closed, so the files already sent are still ingested), and the command
 * prints how to watch it again or cancel it. One bad file never stops the batch: a batch the server
 * refuses is sent again file by file, and each refused file fails alone with its code.
 */
final class JobIngest {
  /** Files per upload request: few requests, and a refused batch costs little to resend file by file. */
  static final int BATCH_FILES = 64;
  /** Bytes per upload request, so one request never carries a whole large folder. */
  static final long BATCH_BYTES = 32L << 20;
  static final long POLL_MILLIS = 500;
  /** Tries of one upload the server refuses as retryable (429 CAPACITY). */
  static final int MAX_ATTEMPTS = 5;

  /** What {@link #run} returns when the server runs no ingestion jobs: ingest file by file instead. */
  static final int NO_JOBS = -1;

  private final JobClient client;
  private final PrintWriter err;

  JobIngest(JobClient client, PrintWriter err) {
    this.client = client;
    this.err = err;
  }

  /**
   * Sends {@code files} to {@code corpus} as one job; with {@code wait}, watches it to its end.
   *
   * @return the exit code, or {@link #NO_JOBS}
   */
  int run(String corpus, List<DocumentFiles.DocumentFile> files, boolean wait, PrintWriter out)
      throws IOException, JobClient.JobException {
    IngestSummary summary = new IngestSummary();
    Map<String, String> held = client.contentHashes(corpus);
    List<DocumentFiles.DocumentFile> send = new ArrayList<>();
    for (DocumentFiles.DocumentFile f : files) {
      String sha256;
      try {
        sha256 = IngestPipeline.sha256Hex(f.path());
      } catch (QuarryException e) {
        fail(summary, f, IngestOutcome.failed("UNREADABLE", "the file could not be read"));
        continue;
      }
      if (sha256.equals(held.get(f.source()))) {
        summary.add(IngestOutcome.of(IngestOutcome.UNCHANGED), f.bytes());
      } else {
        send.add(f);
      }
    }
    if (send.isEmpty()) {
      summary.print(out);
      return summary.failed() == 0 ? 0 : 1;
    }
    String job;
    try {
      job = client.create(corpus);
    } catch (JobClient.JobException e) {
      if (e.code.equals("INGESTION_JOBS_UNAVAILABLE") || e.code.equals("NOT_FOUND")) {
        return NO_JOBS;
      }
      throw e;
    }
    AtomicBoolean uploaded = new AtomicBoolean();
    AtomicBoolean finished = new AtomicBoolean();
    Thread detach = new Thread(() -> {
      if (finished.get()) {
        return;
      }
      if (!uploaded.get()) {
        try {
          client.close(job);
        } catch (IOException | JobClient.JobException ignored) {
          // the server closes an idle open job by itself
        }
      }
      detached(System.err, job);
    }, "quarry-ingest-detach");
    Runtime.getRuntime().addShutdownHook(detach);
    try {
      err.println("job " + job + ": uploading " + send.size() + " files");
      err.flush();
      List<List<DocumentFiles.DocumentFile>> batches = batches(send);
      for (int i = 0; i < batches.size(); i++) {
        upload(job, batches.get(i), i == batches.size() - 1, summary);
      }
      uploaded.set(true);
      if (!wait) {
        finished.set(true);
        err.println("job " + job + " holds the files and runs on the server.");
        howTo(err, job);
        err.flush();
        return summary.failed() == 0 ? 0 : 1;
      }
      int code = watch(job, summary, out);
      finished.set(true);
      return code;
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(detach);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running: it prints how to go on
      }
    }
  }

  private List<List<DocumentFiles.DocumentFile>> batches(List<DocumentFiles.DocumentFile> files) {
    List<List<DocumentFiles.DocumentFile>> out = new ArrayList<>();
    List<DocumentFiles.DocumentFile> batch = new ArrayList<>();
    long bytes = 0;
    for (DocumentFiles.DocumentFile f : files) {
      if (!batch.isEmpty() && (batch.size() == BATCH_FILES || bytes + f.bytes() > BATCH_BYTES)) {
        out.add(batch);
        batch = new ArrayList<>();
        bytes = 0;
      }
      batch.add(f);
      bytes += f.bytes();
    }
    out.add(batch);
    return out;
  }

  /** Uploads one batch; a refused batch is sent again file by file, and each refused file fails alone. */
  private void upload(String job, List<DocumentFiles.DocumentFile> batch, boolean last, IngestSummary summary)
      throws IOException, JobClient.JobException {
    try {
      send(job, batch, last);
      return;
    } catch (JobClient.JobException e) {
      if (e.code.equals("JOB_NOT_FOUND") || e.code.equals("JOB_CLOSED")) {
        throw e; // the job is gone or cancelled: nothing more can be sent to it
      }
      if (batch.size() == 1) {
        fail(summary, batch.get(0), IngestOutcome.failed(e.code, e.detail));
        if (last) {
          client.close(job);
        }
        return;
      }
    }
    for (int i = 0; i < batch.size(); i++) {
      upload(job, List.of(batch.get(i)), last && i == batch.size() - 1, summary);
    }
  }

  private void send(String job, List<DocumentFiles.DocumentFile> batch, boolean close)
      throws IOException, JobClient.JobException {
    for (int attempt = 1; ; attempt++) {
      try {
        client.upload(job, batch, close);
        return;
      } catch (JobClient.JobException e) {
        if (!e.code.equals("CAPACITY") || attempt == MAX_ATTEMPTS) {
          throw e;
        }
        try {
          Thread.sleep(HttpIngester.RETRY_PAUSE.toMillis() * attempt);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  private void fail(IngestSummary summary, DocumentFiles.DocumentFile f, IngestOutcome outcome) {
    summary.add(outcome, f.bytes());
    err.println("failed: " + f.path() + ": " + outcome.code() + ": " + outcome.message());
  }

  /** Watches a job to its end with a progress bar from its counts, then prints its failures and the table. */
  int watch(String job, IngestSummary summary, PrintWriter out) throws IOException, JobClient.JobException {
    JsonNode first = client.read(job, null, 1).get("job");
    int files = first.at("/counts/files").asInt();
    JsonNode state = first;
    try (IngestProgress progress = IngestProgress.on(System.err, files, Terminal.interactive())) {
      while (true) {
        JsonNode c = state.get("counts");
        int done = c.get("indexed").asInt() + c.get("unchanged").asInt() + c.get("failed").asInt()
            + c.get("cancelled").asInt();
        progress.progress(done, c.get("failed").asInt());
        if (state.has("endedAt")) {
          break;
        }
        try {
          Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return 130;
        }
        state = client.read(job, null, 1).get("job");
      }
    }
    String cursor = null;
    do {
      JsonNode page = client.read(job, cursor, 1000);
      for (JsonNode f : page.path("files")) {
        String status = f.get("status").asText();
        long bytes = f.get("bytes").asLong();
        switch (status) {
          case "indexed", "unchanged" -> summary.add(IngestOutcome.of(status), bytes);
          case "cancelled" -> summary.add(IngestOutcome.failed("CANCELLED", "the job was cancelled"), bytes);
          default -> {
            IngestOutcome failed = IngestOutcome.failed(f.at("/error/code").asText("FAILED"),
                f.at("/error/message").asText(""));
            summary.add(failed, bytes);
            err.println("failed: " + f.get("source").asText() + ": " + failed.code() + ": " + failed.message());
          }
        }
      }
      cursor = page.path("nextCursor").asText(null);
    } while (cursor != null);
    err.flush();
    if (!state.get("state").asText().equals("completed")) {
      err.println("job " + job + " " + state.get("state").asText()
          + (state.has("error") ? ": " + state.at("/error/code").asText() + ": " + state.at("/error/message").asText() : ""));
      err.flush();
    }
    summary.print(out);
    return summary.failed() == 0 && state.get("state").asText().equals("completed") ? 0 : 1;
  }

  /** Cancels a job and prints what became of it. */
  int cancel(String job, PrintWriter out) throws IOException, JobClient.JobException {
    JsonNode answer = client.cancel(job).get("job");
    JsonNode c = answer.get("counts");
    out.println("job " + job + " " + answer.get("state").asText() + ": " + c.get("indexed").asInt() + " indexed, "
        + c.get("unchanged").asInt() + " unchanged, " + c.get("failed").asInt() + " failed, "
        + c.get("cancelled").asInt() + " cancelled, " + c.get("extracting").asInt() + " still extracting");
    out.flush();
    return 0;
  }

  private void detached(PrintStream stream, String job) {
    stream.println();
    stream.println("detached: job " + job + " goes on on the server.");
    howTo(stream, job);
    stream.flush();
  }

  private void howTo(PrintStream stream, String job) {
    stream.println("  watch it:  quarry ingest --url " + client.baseUrl() + " --watch " + job);
    stream.println("  cancel it: quarry ingest --url " + client.baseUrl() + " --cancel " + job);
  }

  private void howTo(PrintWriter writer, String job) {
    writer.println("  watch it:  quarry ingest --url " + client.baseUrl() + " --watch " + job);
    writer.println("  cancel it: quarry ingest --url " + client.baseUrl() + " --cancel " + job);
  }
}
