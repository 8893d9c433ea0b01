package dev.quarry.app.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.app.ServerProcess;
import dev.quarry.app.backup.BackupMismatchException.Kind;
import dev.quarry.app.backup.BackupMismatchException.Mismatch;
import dev.quarry.app.server.ServerConfig;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.TestTokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore refuses a backup whose folder does not hold what its manifest says, before it writes
 * anything: the backups are real ones, written by a real server, then copied and changed the ways a
 * damaged or edited backup differs (a corpus folder added or removed, a file added, removed,
 * shortened or with other bytes, a link), and the target stays as it was.
 */
class RestoreRefusesTamperedBackupsIT {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir static Path shared;
  static Path backups;

  @TempDir Path dir;

  @BeforeAll
  static void backUpARealServer() throws Exception {
    backups = shared.resolve("backups");
    Path config =
        Files.writeString(shared.resolve("config.json"), ServerProcess.backupConfig(backups));
    try (ServerProcess server =
        ServerProcess.serve(shared.resolve("data"), TestTokens.write(shared), config)) {
      ApiClient api = server.client();
      for (String c : List.of("c1", "c2")) {
        ApiClient.ok(
            api.retrieval("corpora/create", TestTokens.ADMIN, "{\"corpus\": \"" + c + "\"}"));
        for (int i = 0; i < 3; i++) {
          ApiClient.ok(
              api.retrieval(
                  "sources/index",
                  TestTokens.ADMIN,
                  "{\"corpus\": \""
                      + c
                      + "\", \"source\": \"s"
                      + i
                      + "\", \"text\": \"tampered backup words of "
                      + c
                      + " number"
                      + i
                      + "\"}"));
        }
      }
      JsonNode named =
          ApiClient.ok(
              api.post("/v1/admin/backup")
                  .token(TestTokens.ADMIN)
                  .json("{\"name\": \"only-c1\", \"corpora\": [\"c1\"]}")
                  .send());
      assertFalse(named.has("contents"), "the endpoint answers without the file list: " + named);
      ApiClient.ok(
          api.post("/v1/admin/backup").token(TestTokens.ADMIN).json("{\"name\": \"all\"}").send());
    }
    BackupManifest manifest = BackupManifest.read(backups.resolve("only-c1"));
    assertTrue(
        manifest.contents() != null && !manifest.contents().files().isEmpty(), manifest::toString);
    assertEquals(manifest.bytes(), manifest.contents().bytes());
  }

  @Test
  void anIntactCopyRestores() throws IOException {
    Path backup = copyOf("only-c1");
    Path target = dir.resolve("restored");
    assertEquals(
        List.of("c1"),
        Restore.run(backup, target, ServerConfig.DEFAULT.engineConfig()).corpora().stream()
            .map(c -> c.corpus())
            .toList());
    assertTrue(Files.isDirectory(target.resolve("corpora/c1/index")));
  }

  @Test
  void aCorpusFolderTheManifestDoesNotList_isRefused() throws IOException {
    Path backup = copyOf("only-c1");
    FileCopies.copyTree(backups.resolve("all/corpora/c2"), backup.resolve("corpora/c2"));
    assertRefused(backup, new Mismatch(Kind.CORPUS_NOT_LISTED, "corpora/c2", ""));
  }

  @Test
  void aListedCorpusThatIsMissing_isRefused() throws IOException {
    Path backup = copyOf("all");
    FileCopies.delete(backup.resolve("corpora/c1"));
    List<Mismatch> found = assertRefused(backup);
    assertEquals(List.of(Kind.CORPUS_MISSING), kinds(found), found::toString);
    assertEquals("corpora/c1", found.get(0).path());
  }

  @Test
  void aFileAdded_isRefused() throws IOException {
    Path backup = copyOf("only-c1");
    Files.writeString(backup.resolve("corpora/c1/index/_extra.si"), "not from the server");
    assertRefused(backup, new Mismatch(Kind.NOT_LISTED, "corpora/c1/index/_extra.si", "19 bytes"));
  }

  @Test
  void anEntryBesideTheCorporaOfANamedBackup_isRefused() throws IOException {
    Path backup = copyOf("only-c1");
    Files.createDirectories(backup.resolve("ingest-jobs"));
    assertRefused(
        backup,
        new Mismatch(
            Kind.NOT_LISTED, "ingest-jobs", "a backup of named corpora holds only corpora/"));
  }

  @Test
  void aFileRemoved_isRefused() throws IOException {
    Path backup = copyOf("all");
    Path json = backup.resolve("corpora/c2/corpus.json");
    long size = Files.size(json);
    Files.delete(json);
    assertRefused(backup, new Mismatch(Kind.MISSING, "corpora/c2/corpus.json", size + " bytes"));
  }

  @Test
  void aFileWithOtherBytesOfTheSameSize_isRefused() throws IOException {
    Path backup = copyOf("only-c1");
    Path segments = largestIndexFile(backup.resolve("corpora/c1/index"));
    byte[] bytes = Files.readAllBytes(segments);
    bytes[bytes.length / 2] ^= 0x01;
    Files.write(segments, bytes);
    List<Mismatch> found = assertRefused(backup);
    assertEquals(List.of(Kind.CONTENT_CHANGED), kinds(found), found::toString);
    assertEquals(relative(backup, segments), found.get(0).path());
  }

  @Test
  void aFileGrown_isRefused() throws IOException {
    Path backup = copyOf("only-c1");
    Path segments = largestIndexFile(backup.resolve("corpora/c1/index"));
    long size = Files.size(segments);
    Files.write(segments, new byte[] {1, 2, 3}, StandardOpenOption.APPEND);
    assertRefused(
        backup,
        new Mismatch(
            Kind.SIZE_CHANGED,
            relative(backup, segments),
            (size + 3) + " bytes; the manifest says " + size));
  }

  @Test
  void aLink_isRefused() throws IOException {
    Path backup = copyOf("only-c1");
    Path outside = Files.writeString(dir.resolve("outside.txt"), "not in the backup");
    Files.createSymbolicLink(backup.resolve("corpora/c1/index/elsewhere"), outside);
    List<Mismatch> found = assertRefused(backup);
    assertTrue(
        found.contains(new Mismatch(Kind.NOT_A_FILE, "corpora/c1/index/elsewhere", "")),
        found::toString);
  }

  @Test
  void aManifestWithoutContents_isHeldToItsTotalSize() throws IOException {
    Path backup = copyOf("only-c1");
    ObjectNode manifest =
        (ObjectNode) MAPPER.readTree(backup.resolve(BackupManifest.FILE).toFile());
    manifest.remove("contents"); // as written before backups recorded their contents
    Files.write(backup.resolve(BackupManifest.FILE), MAPPER.writeValueAsBytes(manifest));
    Path intact = copyOf(backup);
    Restore.run(intact, dir.resolve("restored"), ServerConfig.DEFAULT.engineConfig());

    Files.write(
        largestIndexFile(backup.resolve("corpora/c1/index")),
        new byte[] {1},
        StandardOpenOption.APPEND);
    List<Mismatch> found = assertRefused(backup);
    assertEquals(List.of(Kind.TOTAL_SIZE_CHANGED), kinds(found), found::toString);
    FileCopies.copyTree(backups.resolve("all/corpora/c2"), backup.resolve("corpora/c2"));
    assertEquals(List.of(Kind.CORPUS_NOT_LISTED), kinds(assertRefused(backup)));
  }

  @Test
  void theCommandLine_printsTheDifferencesAndWritesNothing() throws IOException {
    Path backup = copyOf("only-c1");
    FileCopies.copyTree(backups.resolve("all/corpora/c2"), backup.resolve("corpora/c2"));
    Files.writeString(backup.resolve("corpora/c1/stray.txt"), "x");
    Path target = Files.createDirectories(dir.resolve("empty-target"));
    ServerProcess.Ended ended =
        ServerProcess.run(
            List.of("restore", "--from", backup.toString(), "--data", target.toString()));
    assertEquals(2, ended.exitCode(), ended::stderr);
    assertTrue(ended.stderr().contains("does not match its manifest"), ended::stderr);
    assertTrue(ended.stderr().contains("corpus not in the manifest: corpora/c2"), ended::stderr);
    assertTrue(ended.stderr().contains("not in the manifest: corpora/c1/stray.txt"), ended::stderr);
    assertEquals(List.of(), entries(target), "the target was written to");
  }

  /**
   * Restores {@code backup} into a new folder and into an empty one; both refused, neither written.
   */
  private List<Mismatch> assertRefused(Path backup) throws IOException {
    Path fresh = dir.resolve("new-" + UUID.randomUUID());
    BackupMismatchException e =
        assertThrows(
            BackupMismatchException.class,
            () -> Restore.run(backup, fresh, ServerConfig.DEFAULT.engineConfig()));
    assertFalse(Files.exists(fresh), "a refused restore created the target");
    Path empty = Files.createDirectories(dir.resolve("empty-" + UUID.randomUUID()));
    BackupMismatchException again =
        assertThrows(
            BackupMismatchException.class,
            () -> Restore.run(backup, empty, ServerConfig.DEFAULT.engineConfig()));
    assertEquals(List.of(), entries(empty), "a refused restore wrote into the target");
    assertEquals(e.mismatches(), again.mismatches());
    assertTrue(
        e.getMessage().startsWith("the backup " + backup + " does not match its manifest"),
        e::getMessage);
    assertFalse(e.mismatches().isEmpty());
    return e.mismatches();
  }

  private void assertRefused(Path backup, Mismatch expected) throws IOException {
    List<Mismatch> found = assertRefused(backup);
    assertEquals(List.of(expected), found);
    assertTrue(found.toString().contains(expected.path()));
  }

  private static List<Kind> kinds(List<Mismatch> mismatches) {
    return mismatches.stream().map(Mismatch::kind).distinct().toList();
  }

  private Path copyOf(String name) throws IOException {
    return copyOf(backups.resolve(name));
  }

  private Path copyOf(Path backup) throws IOException {
    Path copy = dir.resolve("backup-" + UUID.randomUUID());
    FileCopies.copyTree(backup, copy);
    return copy;
  }

  private static Path largestIndexFile(Path index) throws IOException {
    try (Stream<Path> files = Files.list(index)) {
      return files
          .filter(Files::isRegularFile)
          .max(java.util.Comparator.comparingLong(p -> p.toFile().length()))
          .orElseThrow();
    }
  }

  private static String relative(Path root, Path file) {
    return root.relativize(file).toString().replace(java.io.File.separatorChar, '/');
  }

  private static List<String> entries(Path folder) throws IOException {
    try (Stream<Path> s = Files.list(folder)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
