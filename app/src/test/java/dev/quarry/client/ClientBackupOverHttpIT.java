package dev.quarry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.app.ServerProcess;
import dev.quarry.app.cli.QuarryCli;
import dev.quarry.app.server.ServerConfig;
import dev.quarry.testing.TestTokens;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code POST /v1/admin/backup} through the client, and {@code quarry backup}, which uses it. */
class ClientBackupOverHttpIT {
  @TempDir Path dir;

  /** A server config whose backups go into {@code backups}. */
  static ServerConfig backupsIn(Path backups) {
    return ServerConfig.parse(ServerProcess.backupConfig(backups).getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void backup_writesEveryCorpusAtItsRevision_andRefusalsAreTyped() throws Exception {
    Path backups = dir.resolve("backups");
    try (RealServer server = new RealServer(dir.resolve("server"), backupsIn(backups))) {
      QuarryClient admin = server.client(TestTokens.ADMIN);
      admin.createCorpus("c1", null);
      long revision = admin.index("c1", Document.text("a.md", "Backed up text.")).revision();

      Backup backup = admin.backup("b1", Duration.ofMinutes(5));
      assertEquals("b1", backup.name());
      assertEquals(1, backup.corpora().size());
      assertEquals("c1", backup.corpora().get(0).corpus());
      assertEquals(revision, backup.corpora().get(0).revision());
      assertTrue(backup.bytes() > 0);
      assertTrue(Files.isDirectory(backups.resolve("b1")));

      assertEquals(
          "BACKUP_EXISTS",
          assertThrows(ApiException.ConflictException.class, () -> admin.backup("b1", null))
              .code());
      assertEquals(
          "name",
          assertThrows(
                  ApiException.InvalidRequestException.class, () -> admin.backup("../up", null))
              .field());
      assertThrows(
          ApiException.ForbiddenException.class,
          () -> server.client(TestTokens.C2_ONLY).backup("mine", null));

      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int code =
          QuarryCli.commandLine()
              .setOut(new PrintWriter(out))
              .setErr(new PrintWriter(err))
              .execute("backup", "--url", server.url(), "--token", TestTokens.ADMIN, "b2");
      assertEquals(0, code, err::toString);
      assertTrue(out.toString().contains("backup b2 complete: 1 corpora"), out::toString);
      StringWriter again = new StringWriter();
      int refused =
          QuarryCli.commandLine()
              .setOut(new PrintWriter(new StringWriter()))
              .setErr(new PrintWriter(again))
              .execute("backup", "--url", server.url(), "--token", TestTokens.ADMIN, "b2");
      assertEquals(1, refused);
      assertTrue(again.toString().startsWith("quarry backup: BACKUP_EXISTS: "), again::toString);
    }
  }

  @Test
  void backupOfSomeCorpora_holdsOnlyThose_throughTheClientAndTheCommand() throws Exception {
    Path backups = dir.resolve("backups");
    try (RealServer server = new RealServer(dir.resolve("server"), backupsIn(backups))) {
      QuarryClient admin = server.client(TestTokens.ADMIN);
      admin.createCorpus("c1", null);
      admin.createCorpus("c2", null);
      long revision = admin.index("c2", Document.text("b.md", "Only this corpus.")).revision();

      Backup only = admin.backup("only-c2", List.of("c2"), Duration.ofMinutes(5));
      assertEquals(
          List.of(new Backup.CorpusRevision("c2", admin.readCorpus("c2").corpusId(), revision)),
          only.corpora());
      assertEquals(
          "CORPUS_NOT_FOUND",
          assertThrows(
                  ApiException.NotFoundException.class,
                  () -> admin.backup("missing", List.of("c2", "nope"), null))
              .code());
      assertFalse(Files.exists(backups.resolve("missing")), "a refused backup writes nothing");

      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int code =
          QuarryCli.commandLine()
              .setOut(new PrintWriter(out))
              .setErr(new PrintWriter(err))
              .execute(
                  "backup",
                  "--url",
                  server.url(),
                  "--token",
                  TestTokens.ADMIN,
                  "--corpus",
                  "c1",
                  "only-c1");
      assertEquals(0, code, err::toString);
      assertTrue(out.toString().contains("backup only-c1 complete: 1 corpora"), out::toString);
      assertTrue(out.toString().startsWith("c1 "), out::toString);
    }
  }
}
