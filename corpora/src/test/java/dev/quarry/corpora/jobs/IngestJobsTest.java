package dev.quarry.corpora.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.corpora.ingest.OcrChoice;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Sha256;
import dev.quarry.extractors.Extractors;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link IngestJobs} over a real data folder and real extractors: recovery from what a crash leaves
 * on disk (a torn log line, an unacknowledged upload part), retention, and the bounds.
 */
class IngestJobsTest {
  static final Access ADMIN =
      new Access("admin", List.of(new Grant("*", null, EnumSet.allOf(Scope.class))));
  static final JobSettings SHORT =
      new JobSettings(3, 1 << 20, 4, 1000, 1L << 30, Duration.ofSeconds(1), Duration.ofHours(1), 1);

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
    corpora = Corpora.builder().dataDir(data).extractors(extractors).build();
    corpora.createCorpus(ADMIN, "docs", null);
  }

  @AfterEach
  void close() throws Exception {
    corpora.close();
  }

  static byte[] text(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Submits {@code files} as one job the way the HTTP endpoint does: parts written, then committed.
   */
  static JobView submit(IngestJobs jobs, List<String> sources, List<byte[]> bytes)
      throws Exception {
    List<JobFile> specs = sources.stream().map(s -> new JobFile(s, null, null, null)).toList();
    try (IngestJobs.Upload upload = jobs.submit(ADMIN, "docs", null, specs)) {
      List<IngestJobs.StoredFile> stored = new ArrayList<>();
      for (int i = 0; i < bytes.size(); i++) {
        Files.write(upload.part(i), bytes.get(i));
        stored.add(new IngestJobs.StoredFile(Sha256.of(bytes.get(i)), bytes.get(i).length));
      }
      return upload.commit(stored);
    }
  }

  static JobPage awaitEnd(IngestJobs jobs, String id) throws InterruptedException {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (true) {
      JobPage page = jobs.read(ADMIN, id, -1, 1000);
      if (page.job().endedAt() != null) {
        return page;
      }
      assertTrue(System.nanoTime() < deadline, "the job did not end: " + page.job());
      Thread.sleep(20);
    }
  }

  /**
   * {@code real}, whose {@code ingest} signals {@code entered} and then waits for {@code release}:
   * an extraction held open.
   */
  static Corpora holdingIngest(Corpora real, CountDownLatch entered, CountDownLatch release) {
    return (Corpora)
        Proxy.newProxyInstance(
            Corpora.class.getClassLoader(),
            new Class<?>[] {Corpora.class},
            (proxy, method, args) -> {
              if (method.getName().equals("ingest")) {
                entered.countDown();
                assertTrue(
                    release.await(60, TimeUnit.SECONDS), "the test never released the extraction");
              }
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @Test
  void cancel_whileAFileIsExtracted_readsRunningUntilTheWorkStops_thenCancelledWithEndedAt()
      throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (IngestJobs jobs = IngestJobs.open(data, holdingIngest(corpora, entered, release), SHORT)) {
      String id =
          submit(jobs, List.of("slow.txt"), List.of(text("A document still being extracted.")))
              .id();
      assertTrue(entered.await(60, TimeUnit.SECONDS), "the file's extraction never started");
      JobView answered = jobs.cancel(ADMIN, id);
      assertEquals(
          JobState.RUNNING,
          answered.state(),
          "not cancelled while a file is still extracted: " + answered);
      assertEquals(null, answered.endedAt(), answered::toString);
      assertEquals(1, answered.counts().extracting(), answered::toString);
      assertEquals(JobState.RUNNING, jobs.read(ADMIN, id, -1, 10).job().state());
      release.countDown();
      JobPage ended = awaitEnd(jobs, id);
      assertEquals(JobState.CANCELLED, ended.job().state(), ended.job()::toString);
      assertNotNull(ended.job().endedAt());
      assertEquals(
          FileStatus.CANCELLED, ended.files().get(0).status(), "the extracted file is kept out");
      assertEquals(
          JobState.CANCELLED, jobs.cancel(ADMIN, id).state(), "cancelling again changes nothing");
    }
  }

  @Test
  void reopen_ingestsWhatWasAcknowledged_andDropsATornLineAndUnacknowledgedParts()
      throws Exception {
    String id;
    Path folder;
    // A job whose runner never gets to run: closed at once, before the files could be ingested.
    IngestJobs first = IngestJobs.open(data, corpora, SHORT);
    first.close();
    // Its files are acknowledged (a closed IngestJobs still stores them), and never ingested.
    JobView job =
        submit(
            first,
            List.of("a.txt", "b.txt"),
            List.of(text("Alpha document.\n"), text("Beta document.\n")));
    id = job.id();
    folder = data.resolve(IngestJobs.FOLDER).resolve(id);
    assertEquals(2, job.counts().queued());
    // What a crash in the middle of the next upload leaves: a torn line and a part.
    Files.writeString(
        folder.resolve(JobFolder.FILES_LOG),
        "{\"index\": 2, \"sour",
        java.nio.file.StandardOpenOption.APPEND);
    Files.writeString(
        folder.resolve(JobFolder.FILES).resolve(JobFolder.PART_PREFIX + "x-0"), "unacknowledged");

    try (IngestJobs second = IngestJobs.open(data, corpora, SHORT)) {
      JobPage ended = awaitEnd(second, id);
      assertEquals(JobState.COMPLETED, ended.job().state());
      assertEquals(2, ended.job().counts().files(), "the torn line was never a file");
      assertEquals(2, ended.job().counts().indexed());
      assertTrue(
          Files.readString(folder.resolve(JobFolder.FILES_LOG)).endsWith("\n"),
          "the log was cut to whole lines");
      try (var parts = Files.list(folder.resolve(JobFolder.FILES))) {
        assertEquals(List.of(), parts.toList(), "no part and no ingested file's bytes are left");
      }
      assertEquals(
          Sha256.of(text("Beta document.\n")),
          corpora.readSource(ADMIN, "docs", "b.txt").state().contentSha256());
    }
  }

  /**
   * The job's OCR choice and a file's own are stored with the job and reach each file's extraction
   * after a reopen. These extractors have no OCR, so a file extracted with {@code auto} is refused
   * by the ingest path itself (INVALID_REQUEST naming {@code ocr}): proof that the reloaded choice
   * was the one used, while the file that overrides it with {@code off} is indexed.
   */
  @Test
  void reopen_keepsTheJobsAndEachFilesOcrChoice_andExtractsWithIt() throws Exception {
    IngestJobs first = IngestJobs.open(data, corpora, SHORT);
    first.close();
    List<JobFile> specs =
        List.of(
            new JobFile("auto.txt", null, null, null),
            new JobFile("off.txt", null, null, null).withOcr(OcrChoice.OFF));
    List<byte[]> bytes =
        List.of(text("Asks for recognition.\n"), text("Plain text, no recognition.\n"));
    String id;
    try (IngestJobs.Upload upload = first.submit(ADMIN, "docs", null, OcrChoice.AUTO, specs)) {
      List<IngestJobs.StoredFile> stored = new ArrayList<>();
      for (int i = 0; i < bytes.size(); i++) {
        Files.write(upload.part(i), bytes.get(i));
        stored.add(new IngestJobs.StoredFile(Sha256.of(bytes.get(i)), bytes.get(i).length));
      }
      JobView job = upload.commit(stored);
      id = job.id();
      assertEquals(2, job.counts().queued(), "acknowledged, never ingested by the closed runners");
      assertEquals(OcrChoice.AUTO, job.ocr());
    }

    try (IngestJobs second = IngestJobs.open(data, corpora, SHORT)) {
      JobPage ended = awaitEnd(second, id);
      assertEquals(OcrChoice.AUTO, ended.job().ocr(), "the job's choice read back from job.json");
      FileOutcome auto = ended.files().get(0);
      FileOutcome off = ended.files().get(1);
      assertEquals(OcrChoice.AUTO, auto.ocr(), "a file without its own choice takes the job's");
      assertEquals(
          OcrChoice.OFF,
          off.ocr(),
          "a file's own choice, read back from files.log, overrides the job's");
      assertEquals(FileStatus.FAILED, auto.status(), auto::toString);
      assertEquals(ErrorCode.INVALID_REQUEST, auto.errorCode(), auto::toString);
      assertTrue(auto.errorMessage().contains("OCR"), auto::toString);
      assertEquals(FileStatus.INDEXED, off.status(), off::toString);
    }
  }

  @Test
  void reopen_readsAnOutcomeBack_withItsWholeReceipt() throws Exception {
    JobSettings kept =
        new JobSettings(3, 1 << 20, 4, 1000, 1L << 30, Duration.ofHours(1), Duration.ofHours(1), 1);
    String id;
    FileOutcome before;
    try (IngestJobs jobs = IngestJobs.open(data, corpora, kept)) {
      id =
          submit(
                  jobs,
                  List.of("e.txt"),
                  List.of(text("Plain text in UTF-8: na\u00efve caf\u00e9.\n")))
              .id();
      before = awaitEnd(jobs, id).files().get(0);
    }
    assertEquals(FileStatus.INDEXED, before.status());
    assertEquals(
        "UTF-8",
        before.receipt().ingest().encoding(),
        "plain text reports the charset it was read in");
    try (IngestJobs reopened = IngestJobs.open(data, corpora, kept)) {
      FileOutcome after = reopened.read(ADMIN, id, -1, 10).files().get(0);
      assertEquals(
          before.receipt(),
          after.receipt(),
          "the receipt read back from outcomes.log, its ingest report whole");
    }
  }

  @Test
  void endedJobs_areRemoved_afterTheirRetention() throws Exception {
    try (IngestJobs jobs = IngestJobs.open(data, corpora, SHORT)) {
      String id = submit(jobs, List.of("r.txt"), List.of(text("Retained for a second.\n"))).id();
      JobView ended = awaitEnd(jobs, id).job();
      assertNotNull(ended.expiresAt());
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (Files.exists(data.resolve(IngestJobs.FOLDER).resolve(id))) {
        assertTrue(System.nanoTime() < deadline, "the job was not removed");
        Thread.sleep(100);
      }
      QuarryException gone =
          assertThrows(QuarryException.class, () -> jobs.read(ADMIN, id, -1, 10));
      assertEquals(ErrorCode.JOB_NOT_FOUND, gone.code());
      assertTrue(corpora.readSource(ADMIN, "docs", "r.txt").state() != null, "its sources stay");
    }
  }

  @Test
  void aFailedUpload_leavesNothing_andASubmitThatFailsLeavesNoJob() throws Exception {
    try (IngestJobs jobs = IngestJobs.open(data, corpora, SHORT)) {
      QuarryException tooMany =
          assertThrows(
              QuarryException.class,
              () ->
                  jobs.submit(
                      ADMIN,
                      "docs",
                      null,
                      List.of(
                          new JobFile("1", null, null, null),
                          new JobFile("2", null, null, null),
                          new JobFile("3", null, null, null),
                          new JobFile("4", null, null, null))));
      assertEquals(ErrorCode.JOB_TOO_LARGE, tooMany.code());
      IngestJobs.Upload abandoned =
          jobs.submit(ADMIN, "docs", null, List.of(new JobFile("x", null, null, null)));
      Files.write(abandoned.part(0), text("never committed"));
      abandoned.close();
      try (var left = Files.list(data.resolve(IngestJobs.FOLDER))) {
        assertFalse(left.findAny().isPresent(), "neither submit left a job behind");
      }
    }
  }

  /**
   * A crash in the middle of a submit (its job stored, its files arriving) leaves no job after the
   * restart: the submit was never answered. A crash mid-upload to a created job keeps that job.
   */
  @Test
  void reopen_afterACrashMidSubmit_leavesNoJob_butKeepsACreatedJob() throws Exception {
    IngestJobs first = IngestJobs.open(data, corpora, SHORT);
    first.close();
    String created = first.create(ADMIN, "docs", null).id();
    IngestJobs.Upload cutUpload =
        first.upload(ADMIN, created, List.of(new JobFile("u.txt", null, null, null)), false);
    Files.write(cutUpload.part(0), text("half an upl"));
    IngestJobs.Upload cutSubmit =
        first.submit(ADMIN, "docs", null, List.of(new JobFile("s.txt", null, null, null)));
    Files.write(cutSubmit.part(0), text("half a subm"));
    String submitted = cutSubmit.jobId();
    // Neither upload is committed nor closed: the process is gone.

    try (IngestJobs second = IngestJobs.open(data, corpora, SHORT)) {
      JobListPage listed = second.list(ADMIN, "docs", null, null, 10);
      assertEquals(
          List.of(created),
          listed.jobs().stream().map(JobView::id).toList(),
          "the created job stays (open, without the cut upload's file), the cut submit's is gone");
      assertEquals(JobState.OPEN, listed.jobs().get(0).state());
      assertEquals(0, listed.jobs().get(0).counts().files());
      assertFalse(
          Files.exists(data.resolve(IngestJobs.FOLDER).resolve(submitted)),
          "the cut submit's folder is removed");
      QuarryException gone =
          assertThrows(QuarryException.class, () -> second.read(ADMIN, submitted, -1, 10));
      assertEquals(ErrorCode.JOB_NOT_FOUND, gone.code());
    }
  }

  /**
   * A cancelled job reads back cancelled from its state alone; a job.json written by an earlier
   * version, which also stored a {@code cancelRequested} flag, still loads.
   */
  @Test
  void reopen_readsACancelledJobBack_alsoFromAnOlderJobJsonWithItsCancelFlag() throws Exception {
    String id;
    try (IngestJobs jobs = IngestJobs.open(data, corpora, SHORT)) {
      id = jobs.create(ADMIN, "docs", null).id();
      assertEquals(JobState.CANCELLED, jobs.cancel(ADMIN, id).state());
    }
    Path jobJson = data.resolve(IngestJobs.FOLDER).resolve(id).resolve(JobFolder.JOB_JSON);
    String written = Files.readString(jobJson);
    assertFalse(written.contains("cancelRequested"), written);
    Files.writeString(jobJson, written.replaceFirst("\\{", "{\n  \"cancelRequested\" : true,"));
    try (IngestJobs reopened = IngestJobs.open(data, corpora, SHORT)) {
      JobView view = reopened.read(ADMIN, id, -1, 10).job();
      assertEquals(JobState.CANCELLED, view.state(), view::toString);
      assertNotNull(view.endedAt(), view::toString);
    }
  }
}
