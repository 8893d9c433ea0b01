package dev.quarry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.testing.TestTokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quarry jobs} against a real server, through the client: every job the token may read,
 * newest first, one line each, narrowed by {@code --corpus} and {@code --state}; the server's
 * refusals are one line with exit code 1.
 */
class JobsCommandOverHttpTest {
  @TempDir static Path dir;
  @RegisterExtension static final RealServer.PerClass server = RealServer.perClass();
  static Job open;
  static Job cancelled;
  static Job done;

  @BeforeAll
  static void start() throws Exception {
    QuarryClient admin = server.client(TestTokens.ADMIN);
    admin.createCorpus("c1", null);
    admin.createCorpus("c2", null);
    open = admin.createJob("c1", null);
    cancelled = admin.cancelJob(admin.createJob("c2", null).id());
    Path text = Files.writeString(dir.resolve("leave.txt"), "Parental leave is twenty weeks.");
    Path binary =
        Files.write(dir.resolve("blob.bin"), new byte[] {0, 1, 2, 3, (byte) 0xff, 0, 0, 7});
    done =
        admin.submitJob(
            "c1", null, List.of(JobFile.of(text, "leave.txt"), JobFile.of(binary, "blob.bin")));
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (!admin.readJob(done.id(), null, 1).job().ended()) {
      assertTrue(System.nanoTime() < deadline, "the job did not end");
      Thread.sleep(50);
    }
  }

  static IngestCommandOverClientTest.Run jobs(String token, String... args) {
    List<String> all = new ArrayList<>(List.of("jobs", "--url", server.url(), "--token", token));
    all.addAll(Arrays.asList(args));
    return IngestCommandOverClientTest.quarry(all.toArray(String[]::new));
  }

  /** The job ids of the printed lines, in their order. */
  static List<String> ids(IngestCommandOverClientTest.Run run) {
    assertEquals(0, run.code(), run::toString);
    return run.out().lines().map(l -> l.split("\\s+")[0]).toList();
  }

  @Test
  void everyJob_newestFirst_oneLineEach() {
    IngestCommandOverClientTest.Run run = jobs(TestTokens.ADMIN);
    assertEquals(List.of(done.id(), cancelled.id(), open.id()), ids(run));
    List<String> lines = run.out().lines().toList();
    assertTrue(
        lines
            .get(0)
            .matches(done.id() + " +c1 +completed +2/2 files, 1 failed  created 20\\d\\d-.+"),
        lines.get(0));
    assertTrue(
        lines.get(1).matches(cancelled.id() + " +c2 +cancelled +0/0 files  created .+"),
        lines.get(1));
    assertTrue(lines.get(2).matches(open.id() + " +c1 +open +0/0 files  created .+"), lines.get(2));
  }

  @Test
  void corpusAndState_narrowTheList() {
    assertEquals(List.of(done.id(), open.id()), ids(jobs(TestTokens.ADMIN, "--corpus", "c1")));
    assertEquals(List.of(cancelled.id()), ids(jobs(TestTokens.ADMIN, "--state", "cancelled")));
    assertEquals(
        List.of(open.id()), ids(jobs(TestTokens.ADMIN, "--corpus", "c1", "--state", "open")));
    assertEquals(List.of(), ids(jobs(TestTokens.ADMIN, "--corpus", "c2", "--state", "open")));
    assertEquals(
        List.of(cancelled.id()),
        ids(jobs(TestTokens.C2_ONLY)),
        "every job of the corpus it manages, no other");
    assertEquals(
        List.of(), ids(jobs(TestTokens.SEARCH_C1)), "a token that may read no job gets none");
  }

  @Test
  void refusals_areOneLine_exitOne() {
    IngestCommandOverClientTest.Run forbidden = jobs(TestTokens.C2_ONLY, "--corpus", "c1");
    assertEquals(1, forbidden.code(), forbidden::toString);
    assertTrue(forbidden.err().startsWith("quarry jobs: FORBIDDEN: "), forbidden::toString);
    IngestCommandOverClientTest.Run badState = jobs(TestTokens.ADMIN, "--state", "paused");
    assertEquals(1, badState.code(), badState::toString);
    assertTrue(
        badState.err().startsWith("quarry jobs: INVALID_REQUEST: state must be one of"),
        badState::toString);
    IngestCommandOverClientTest.Run noToken =
        IngestCommandOverClientTest.quarry("jobs", "--url", server.url(), "--token", "");
    assertEquals(2, noToken.code(), noToken::toString);
    assertEquals(
        "quarry jobs: no token: pass --token TOKEN or set QUARRY_TOKEN", noToken.err().strip());
  }
}
