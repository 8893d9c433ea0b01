package dev.quarry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.Sha256;
import dev.quarry.testing.TestTokens;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ingestion jobs through the client against a real server: submit, create/upload/close, read,
 * cancel, refusals.
 */
class ClientJobsOverHttpTest {
  @TempDir static Path dir;
  @RegisterExtension static final RealServer.PerClass server = RealServer.perClass();
  static QuarryClient admin;

  @BeforeAll
  static void start() {
    admin = server.client(TestTokens.ADMIN);
    admin.createCorpus("c1", null);
  }

  static Path file(String name, String text) throws Exception {
    Path f = dir.resolve(name);
    Files.createDirectories(f.getParent());
    return Files.writeString(f, text, StandardCharsets.UTF_8);
  }

  /**
   * Reads the job until it has ended; fails after two minutes (a bound on a hang, not on speed).
   */
  static Job awaitEnd(String job) throws InterruptedException {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (true) {
      Job j = admin.readJob(job, null, 1).job();
      if (j.ended()) {
        return j;
      }
      assertTrue(System.nanoTime() < deadline, "the job did not end: " + j);
      Thread.sleep(50);
    }
  }

  @Test
  void submit_ingestsEveryFile_andItsFilesReadPageByPage() throws Exception {
    List<String> texts =
        List.of(
            "<!-- a note -->\n# Leave\n\nParental leave is twenty weeks.\n",
            "Travel is booked two weeks ahead.",
            "Expenses are filed within thirty days.");
    List<JobFile> files =
        List.of(
            JobFile.of(file("submit/leave.md", texts.get(0)), "public/leave.md")
                .withTitle("Leave")
                .withMetadata(Map.of("dept", "hr")),
            JobFile.of(file("submit/travel.txt", texts.get(1)), "public/travel.txt"),
            JobFile.of(file("submit/expenses.txt", texts.get(2)), "public/expenses.txt")
                .withMediaType("text/plain"));
    Job submitted = admin.submitJob("c1", null, files);
    assertTrue(submitted.id().startsWith("job_"), submitted::id);
    assertEquals("c1", submitted.corpus());
    assertEquals(3, submitted.counts().files());
    assertNotNull(submitted.closedAt(), "a submitted job is closed at once");
    Job ended = awaitEnd(submitted.id());
    assertEquals("completed", ended.state());
    assertEquals(3, ended.counts().indexed());
    assertEquals(3, ended.counts().done());
    assertNotNull(ended.expiresAt());

    JobPage first = admin.readJob(submitted.id(), null, 2);
    assertEquals(2, first.files().size());
    assertNotNull(first.nextCursor());
    JobPage second = admin.readJob(submitted.id(), first.nextCursor(), 2);
    assertEquals(1, second.files().size());
    assertNull(second.nextCursor());
    List<JobPage.FileOutcome> all = admin.jobFiles(submitted.id()).toList();
    assertEquals(3, all.size());
    for (int i = 0; i < 3; i++) {
      JobPage.FileOutcome f = all.get(i);
      assertEquals(i, f.index());
      assertEquals(files.get(i).source(), f.source());
      assertEquals(Sha256.of(texts.get(i).getBytes(StandardCharsets.UTF_8)), f.contentSha256());
      assertEquals("indexed", f.status());
      assertEquals("indexed", f.receipt().status());
      assertNull(f.error());
    }
    assertEquals(
        "text/markdown",
        all.get(0).receipt().mediaType(),
        "the file's name reaches the server as a hint");
    Hit hit =
        admin
            .search(
                SearchRequest.of("c1", "parental leave")
                    .withFilter(SearchFilter.equal("dept", "hr")))
            .results()
            .get(0);
    assertEquals("public/leave.md", hit.source());
    assertEquals("Leave", hit.title());
  }

  @Test
  void createUploadClose_thenTheJobTakesNoMoreFiles() throws Exception {
    Job created = admin.createJob("c1", admin.readCorpus("c1").corpusId());
    assertEquals("open", created.state());
    assertEquals(0, created.counts().files());
    Job once =
        admin.uploadToJob(
            created.id(), List.of(JobFile.of(file("up/a.txt", "Alpha text."), "up/a.txt")), false);
    assertEquals("open", once.state());
    assertEquals(1, once.counts().files());
    Job closed =
        admin.uploadToJob(
            created.id(),
            List.of(
                JobFile.of(file("up/b.txt", "Beta text."), "up/b.txt"),
                JobFile.of(file("up/c.txt", "Gamma text."), "up/c.txt")),
            true);
    assertEquals(3, closed.counts().files());
    assertNotNull(closed.closedAt());
    ApiException.ConflictException after =
        assertThrows(
            ApiException.ConflictException.class,
            () ->
                admin.uploadToJob(
                    created.id(),
                    List.of(JobFile.of(file("up/d.txt", "Delta."), "up/d.txt")),
                    false));
    assertEquals("JOB_CLOSED", after.code());
    assertEquals("completed", awaitEnd(created.id()).state());
    assertEquals(
        Set.of("indexed"),
        Set.copyOf(admin.jobFiles(created.id()).map(JobPage.FileOutcome::status).toList()));
  }

  @Test
  void ocrChoice_ofTheJobAndOfAFile_isSentAndShown_andAutoIsRefusedWithoutTheFeature()
      throws Exception {
    Job job = admin.createJob("c1", null, "off");
    assertEquals("off", job.ocr());
    admin.uploadToJob(
        job.id(), List.of(JobFile.of(file("ocr/a.txt", "Alpha text."), "ocr/a.txt")), true);
    awaitEnd(job.id());
    assertEquals(List.of("off"), admin.jobFiles(job.id()).map(JobPage.FileOutcome::ocr).toList());
    assertNull(admin.createJob("c1", null).ocr(), "no choice: the server's setting");
    ApiException.InvalidRequestException auto =
        assertThrows(
            ApiException.InvalidRequestException.class, () -> admin.createJob("c1", null, "auto"));
    assertEquals("ocr", auto.field(), auto::getMessage);
    Path b = file("ocr/b.txt", "Beta text.");
    ApiException.InvalidRequestException fileAuto =
        assertThrows(
            ApiException.InvalidRequestException.class,
            () ->
                admin.submitJob(
                    "c1", null, "off", List.of(JobFile.of(b, "ocr/b.txt").withOcr("auto"))));
    assertEquals("files[0].ocr", fileAuto.field(), fileAuto::getMessage);
  }

  @Test
  void cancel_endsTheJob_andKeepsWhatWasIndexed() throws Exception {
    Job job = admin.createJob("c1", null);
    admin.uploadToJob(
        job.id(),
        List.of(JobFile.of(file("cancel/a.txt", "Cancelled maybe."), "cancel/a.txt")),
        false);
    Job cancelled = admin.cancelJob(job.id());
    // "cancelled" once the work has stopped, with endedAt; "running" while the file is still
    // extracted.
    assertEquals(
        cancelled.endedAt() != null ? "cancelled" : "running",
        cancelled.state(),
        cancelled::toString);
    assertEquals(0, cancelled.counts().queued(), "nothing waits to be ingested any more");
    Job ended = awaitEnd(job.id());
    assertEquals("cancelled", ended.state());
    assertEquals(1, ended.counts().indexed() + ended.counts().cancelled(), ended::toString);
    Job closedJob = admin.createJob("c1", null);
    Job closed = admin.closeJob(closedJob.id());
    assertNotNull(closed.closedAt());
    assertTrue(Set.of("running", "completed").contains(closed.state()), closed::toString);
  }

  @Test
  void refusals_areTyped_withTheServersCodeAndField() throws Exception {
    Path a = file("refused/a.txt", "A.");
    Job job = admin.createJob("c1", null);
    ApiException.NotFoundException notYours =
        assertThrows(
            ApiException.NotFoundException.class,
            () -> server.client(TestTokens.C2_ONLY).readJob(job.id(), null, null));
    assertEquals(
        "JOB_NOT_FOUND",
        notYours.code(),
        "another subject's job is as unknown as one that never existed");
    assertEquals(
        "JOB_NOT_FOUND",
        assertThrows(
                ApiException.NotFoundException.class,
                () -> server.client(TestTokens.C2_ONLY).cancelJob(job.id()))
            .code());
    assertEquals(
        "CORPUS_NOT_FOUND",
        assertThrows(
                ApiException.NotFoundException.class, () -> admin.createJob("no-such-corpus", null))
            .code());
    assertEquals(
        "CORPUS_REPLACED",
        assertThrows(
                ApiException.ConflictException.class, () -> admin.createJob("c1", "not-the-id"))
            .code());
    assertEquals(
        "FORBIDDEN",
        assertThrows(
                ApiException.ForbiddenException.class,
                () ->
                    server
                        .client(TestTokens.PUBLIC_C1)
                        .submitJob("c1", null, List.of(JobFile.of(a, "private/a.txt"))))
            .code());
    ApiException.InvalidRequestException badSource =
        assertThrows(
            ApiException.InvalidRequestException.class,
            () ->
                admin.uploadToJob(
                    job.id(),
                    List.of(JobFile.of(a, "ok.txt"), JobFile.of(a, " padded.txt")),
                    false));
    assertEquals("files[1].source", badSource.field(), badSource::getMessage);
    ApiException.InvalidRequestException badId =
        assertThrows(
            ApiException.InvalidRequestException.class, () -> admin.readJob("JOB!", null, null));
    assertEquals("job", badId.field());
    assertEquals(
        "cursor",
        assertThrows(
                ApiException.InvalidRequestException.class,
                () -> admin.readJob(job.id(), "bm90LWEtY3Vyc29y", null))
            .field());
    // A missing file fails before anything is sent: the job still holds nothing.
    assertThrows(
        UncheckedIOException.class,
        () ->
            admin.uploadToJob(
                job.id(),
                List.of(
                    JobFile.of(a, "a.txt"),
                    JobFile.of(dir.resolve("refused/none.txt"), "none.txt")),
                false));
    assertEquals(0, admin.readJob(job.id(), null, null).job().counts().files());
    admin.cancelJob(job.id());
  }

  @Test
  void listJobs_pageByPage_narrowedByCorpusAndState_onlyTheTokensOwn() {
    admin.createCorpus("listed", null);
    Job first = admin.createJob("listed", null);
    Job second = admin.createJob("listed", null);
    Job third = admin.createJob("listed", null);
    admin.cancelJob(second.id());
    try {
      Page<Job> page = admin.listJobs("listed", null, null, 2);
      assertEquals(2, page.items().size());
      assertNotNull(page.next(), "a third job follows");
      Page<Job> rest = admin.listJobs("listed", null, page.next(), 2);
      assertEquals(1, rest.items().size());
      assertNull(rest.next(), "the last page");
      List<Job> all = admin.jobs("listed", null).toList();
      assertEquals(
          Set.of(first.id(), second.id(), third.id()),
          Set.copyOf(all.stream().map(Job::id).toList()));
      assertEquals(3, all.size(), "each job once");
      for (int i = 1; i < all.size(); i++) {
        assertFalse(
            Instant.parse(all.get(i).createdAt())
                .isAfter(Instant.parse(all.get(i - 1).createdAt())),
            "newest first: " + all);
      }
      assertEquals(
          all,
          java.util.stream.Stream.concat(page.items().stream(), rest.items().stream()).toList(),
          "the stream reads the same pages");
      Job cancelled = admin.jobs("listed", "cancelled").findFirst().orElseThrow();
      assertEquals(second.id(), cancelled.id());
      assertEquals("cancelled", cancelled.state());
      assertEquals(
          Set.of(first.id(), third.id()),
          Set.copyOf(admin.jobs("listed", "open").map(Job::id).toList()));
      assertTrue(
          admin
              .jobs(null, "open")
              .map(Job::id)
              .toList()
              .containsAll(List.of(first.id(), third.id())),
          "without a corpus: every corpus");

      QuarryClient other = server.client(TestTokens.C2_ONLY);
      assertEquals(
          "FORBIDDEN",
          assertThrows(
                  ApiException.ForbiddenException.class,
                  () -> other.listJobs("listed", null, null, null))
              .code(),
          "a corpus outside the grants");
      assertTrue(
          other.jobs(null, null).noneMatch(j -> j.corpus().equals("listed")),
          "another subject's jobs stay unseen");
      assertEquals(
          "state",
          assertThrows(
                  ApiException.InvalidRequestException.class,
                  () -> admin.listJobs(null, "paused", null, null))
              .field());
    } finally {
      admin.cancelJob(first.id());
      admin.cancelJob(third.id());
    }
  }
}
