package dev.quarry.corpora.jobs;

import static dev.quarry.corpora.jobs.IngestJobsTest.ADMIN;
import static dev.quarry.corpora.jobs.IngestJobsTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.corpora.Corpora;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EmbeddingModels;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Receipt;
import dev.quarry.engine.Sha256;
import dev.quarry.extractors.Extractors;
import dev.quarry.testing.HashingEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's embedding progress: passages embedded of a total estimated from the files indexed so far,
 * the rate this process measured, and the time left; none of it for a lexical corpus, and no rate a
 * restarted process did not measure itself.
 */
class JobProgressTest {
  static final JobSettings KEPT =
      new JobSettings(3, 1 << 20, 4, 1000, 1L << 30, Duration.ofHours(1), Duration.ofHours(1), 1);
  static final Instant T0 = Instant.parse("2026-12-05T10:00:00Z");

  static Extractors extractors;
  @TempDir Path dir;
  Path data;
  Corpora corpora;

  @BeforeAll
  static void startExtractors() {
    extractors = Extractors.builder().workers(1).build();
  }

  @AfterAll
  static void stopExtractors() {
    extractors.close();
  }

  @BeforeEach
  void open() {
    data = dir.resolve("data");
    corpora =
        Corpora.builder()
            .dataDir(data)
            .extractors(extractors)
            .engineConfig(
                EngineConfig.builder()
                    .embeddingModels(EmbeddingModels.of(new HashingEmbedder()))
                    .build())
            .build();
    corpora.createCorpus(ADMIN, "docs", null);
    corpora.createCorpus(
        ADMIN,
        "hybrid",
        CorpusSettings.DEFAULT.withEmbedding(
            new CorpusSettings.Embedding(
                HashingEmbedder.MODEL, null, CorpusSettings.Embedding.DEFAULT_SEMANTIC_WEIGHT)));
  }

  @AfterEach
  void close() throws Exception {
    corpora.close();
  }

  static JobView submit(IngestJobs jobs, String corpus, int files) throws Exception {
    List<JobFile> specs = new ArrayList<>();
    List<byte[]> bytes = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      specs.add(new JobFile("f" + i + ".txt", null, null, null));
      bytes.add(
          text(
              ("Paragraph " + i + " of a file about rivers and their banks. ")
                  .repeat(40 + 30 * i)));
    }
    try (IngestJobs.Upload upload = jobs.submit(ADMIN, corpus, null, specs)) {
      List<IngestJobs.StoredFile> stored = new ArrayList<>();
      for (int i = 0; i < files; i++) {
        Files.write(upload.part(i), bytes.get(i));
        stored.add(new IngestJobs.StoredFile(Sha256.of(bytes.get(i)), bytes.get(i).length));
      }
      return upload.commit(stored);
    }
  }

  @Test
  void hybridJob_endsWithEveryPassageEmbedded_anExactTotal_aRate_andNoTimeLeft() throws Exception {
    try (IngestJobs jobs = IngestJobs.open(data, corpora, KEPT)) {
      String id = submit(jobs, "hybrid", 3).id();
      JobPage ended = IngestJobsTest.awaitEnd(jobs, id);
      long chunks = ended.files().stream().mapToLong(f -> f.receipt().chunks()).sum();
      assertTrue(chunks > 3, "the files are several chunks each: " + chunks);
      JobView.Progress p = ended.job().progress();
      assertNotNull(p, "a job into an embedding corpus reports its progress");
      assertEquals(chunks, p.passagesEmbedded());
      assertEquals(chunks, p.passagesTotal());
      assertFalse(p.totalEstimated(), "every file has its outcome: the total is exact");
      assertNotNull(p.passagesPerSecond(), "this process ran the job: it measured its rate");
      assertTrue(p.passagesPerSecond() > 0);
      assertNull(p.secondsLeft(), "an ended job has no time left");
    }
  }

  @Test
  void lexicalJob_keepsItsViewWithoutProgress() throws Exception {
    try (IngestJobs jobs = IngestJobs.open(data, corpora, KEPT)) {
      String id = submit(jobs, "docs", 1).id();
      assertNull(IngestJobsTest.awaitEnd(jobs, id).job().progress());
    }
  }

  @Test
  void reopen_keepsThePassagesEmbedded_butShowsNoRateItDidNotMeasure() throws Exception {
    String id;
    JobView.Progress before;
    try (IngestJobs jobs = IngestJobs.open(data, corpora, KEPT)) {
      id = submit(jobs, "hybrid", 2).id();
      before = IngestJobsTest.awaitEnd(jobs, id).job().progress();
    }
    try (IngestJobs reopened = IngestJobs.open(data, corpora, KEPT)) {
      JobView.Progress after = reopened.read(ADMIN, id, -1, 10).job().progress();
      assertNotNull(after, "the job still reads as an embedding corpus's job (job.json says so)");
      assertEquals(
          before.passagesEmbedded(),
          after.passagesEmbedded(),
          "read back from the outcomes' receipts");
      assertEquals(before.passagesTotal(), after.passagesTotal());
      assertNull(after.passagesPerSecond(), "this process has indexed no file of the job: no rate");
      assertNull(after.secondsLeft());
    }
  }

  /** A job of four files of 1,000, 1,000, 2,000 and 4,000 bytes, as {@link IngestJob} holds it. */
  static IngestJob job() {
    IngestJob job = new IngestJob("job_x", "hybrid", "c1", ADMIN, T0, null, null, true, null);
    long[] sizes = {1000, 1000, 2000, 4000};
    for (int i = 0; i < sizes.length; i++) {
      job.files.add(
          new IngestJob.Entry(i, new JobFile("f" + i, null, null, null), "0".repeat(64), sizes[i]));
    }
    job.state = JobState.RUNNING;
    return job;
  }

  static void indexed(IngestJob job, int file, int chunks) {
    IngestJob.Entry e = job.files.get(file);
    e.status = FileStatus.INDEXED;
    e.receipt =
        new Receipt(
            "hybrid",
            "c1",
            e.spec.source(),
            1,
            1,
            Receipt.Status.INDEXED,
            "0".repeat(64),
            chunks,
            null);
  }

  @Test
  void progress_beforeAnyFileIsIndexed_knowsNoTotalNoRateNoTimeLeft() {
    IngestJob job = job();
    job.running(T0);
    JobView.Progress p = job.progress(T0.plusSeconds(5));
    assertEquals(new JobView.Progress(0, null, false, null, null), p);
  }

  @Test
  void
      progress_estimatesTheRestAtThePassagesPerByteOfTheFilesIndexed_andTheTimeLeftAtThisProcesssRate() {
    IngestJob job = job();
    job.running(T0);
    indexed(job, 0, 5);
    indexed(job, 1, 5); // 10 passages in 2,000 bytes; 6,000 bytes to go: about 30 more
    JobView.Progress p = job.progress(T0.plusSeconds(4));
    assertEquals(10, p.passagesEmbedded());
    assertEquals(40, p.passagesTotal());
    assertTrue(p.totalEstimated());
    assertEquals(2.5, p.passagesPerSecond(), 1e-9);
    assertEquals(12, p.secondsLeft(), "30 passages at 2.5 per second");
  }

  @Test
  void progress_ofAResumedJob_countsTheRateFromTheResumeOnly() {
    IngestJob job = job();
    indexed(job, 0, 5);
    indexed(job, 1, 5); // done by the process before the restart
    job.running(T0.plusSeconds(100)); // this process resumes the job
    assertNull(
        job.progress(T0.plusSeconds(110)).passagesPerSecond(), "nothing indexed since the resume");
    indexed(job, 2, 10);
    JobView.Progress p = job.progress(T0.plusSeconds(110));
    assertEquals(20, p.passagesEmbedded());
    assertEquals(
        1.0, p.passagesPerSecond(), 1e-9, "10 passages in the 10 s since the resume, not 20");
    assertEquals(20 + 20, p.passagesTotal(), "4,000 bytes left at 20 passages per 4,000 bytes");
    assertEquals(20, p.secondsLeft());
  }

  @Test
  void progress_filesFoundUnchangedOrFailed_embedNothing_andTheEndedJobsTotalIsExact() {
    IngestJob job = job();
    job.running(T0);
    indexed(job, 0, 5);
    job.files.get(1).status = FileStatus.UNCHANGED;
    job.files.get(2).status = FileStatus.FAILED;
    indexed(job, 3, 7);
    job.endedAt = T0.plusSeconds(6);
    job.state = JobState.COMPLETED;
    JobView.Progress p = job.progress(T0.plusSeconds(600));
    assertEquals(
        new JobView.Progress(12, 12L, false, 2.0, null),
        p,
        "the rate over the job's run, not until now");
  }
}
