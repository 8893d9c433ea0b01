package dev.quarry.app.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quarry.app.cli.QuarryCli;
import dev.quarry.app.server.QuarryServer;
import dev.quarry.app.server.ServerConfig;
import dev.quarry.app.server.TokensFile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The folders the server and the command line create hold every corpus's text: on a POSIX file
 * system they are {@code rwx------} whatever the umask, from the data folder (and its missing
 * parents) to the ingestion jobs, the backup folder, each backup and a restored data folder.
 */
class PrivateFoldersOnDiskTest {
  private static final String TOKEN = "folders-token";
  private static final String TOKENS =
      """
      {"tokens": [{"subject": "ops", "token": "folders-token",
                   "grants": [{"corpus": "*", "scopes": ["search", "index", "manage"]}]}]}""";

  @TempDir Path dir;

  @Test
  void foldersTheServerCreates_areOwnerOnly() throws Exception {
    assumeTrue(
        dir.getFileSystem().supportedFileAttributeViews().contains("posix"),
        "no POSIX permissions here");
    Path data = dir.resolve("srv/data");
    Path backups = dir.resolve("backups");
    Path docs = Files.createDirectories(dir.resolve("docs"));
    Files.writeString(docs.resolve("leave.md"), "# Leave\n\nParental leave lasts sixteen weeks.\n");
    ServerConfig config =
        ServerConfig.parse(
            ("{\"backup\": {\"directory\": \"" + backups + "\"}}")
                .getBytes(StandardCharsets.UTF_8));
    try (QuarryServer server =
        QuarryServer.start(
            data,
            "127.0.0.1",
            0,
            TokensFile.parse(TOKENS.getBytes(StandardCharsets.UTF_8)),
            config)) {
      // A job (ingest-jobs/) into a corpus it creates (corpora/NAME), then a backup of it all.
      quarry(
          "ingest",
          "--url",
          server.url(),
          "--token",
          TOKEN,
          "--corpus",
          "docs",
          "--create",
          docs.toString());
      quarry("backup", "--url", server.url(), "--token", TOKEN, "nightly");
    }
    Path restored = dir.resolve("restored");
    quarry(
        "restore", "--from", backups.resolve("nightly").toString(), "--data", restored.toString());

    for (Path folder :
        List.of(
            dir.resolve("srv"),
            data,
            data.resolve("corpora"),
            data.resolve("trash"),
            data.resolve("corpora/docs"),
            data.resolve("ingest-jobs"),
            backups,
            backups.resolve("nightly"),
            restored)) {
      assertEquals(
          "rwx------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)),
          dir.relativize(folder).toString());
    }
  }

  private static void quarry(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        QuarryCli.commandLine()
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err))
            .execute(args);
    assertEquals(0, code, () -> String.join(" ", args) + "\nstdout:\n" + out + "\nstderr:\n" + err);
  }
}
