package dev.quarry.app.backup;

import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.CorpusBackup;
import dev.quarry.corpora.CorpusDescription;
import dev.quarry.corpora.PrivateFolders;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.engine.EngineConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;

/**
 * Restores a backup into an empty data folder, with the server stopped: checks that the backup
 * folder holds what its manifest says and nothing more ({@link BackupCheck}), copies the backup's
 * files (everything but its manifest), then opens the folder as a server would and checks that
 * every corpus of the manifest is there with its corpusId at its revision. A backup of named
 * corpora restores the same way and holds just those corpora (the manifest lists them). A folder
 * that is not empty is refused before anything is written; a restore that fails removes what it
 * copied.
 */
public final class Restore {
  private Restore() {}

  /**
   * @return the manifest of the backup restored
   * @throws BackupMismatchException when the backup folder does not hold what its manifest says;
   *     nothing is written then
   * @throws IllegalArgumentException when {@code backupDir} is no complete backup, {@code dataDir}
   *     is not empty, or the restored folder does not hold what the manifest names
   */
  public static BackupManifest run(Path backupDir, Path dataDir, EngineConfig engineConfig)
      throws IOException {
    BackupManifest manifest = BackupManifest.read(backupDir);
    if (Files.exists(dataDir) && !isEmptyFolder(dataDir)) {
      throw new IllegalArgumentException(
          "the data folder "
              + dataDir
              + " is not empty; restore only into an empty "
              + "or new folder (move the old one aside first)");
    }
    BackupCheck.check(backupDir, manifest);
    boolean created = !Files.exists(dataDir);
    PrivateFolders.create(dataDir);
    boolean done = false;
    try {
      FileCopies.copyEntries(backupDir, dataDir, n -> !n.equals(BackupManifest.FILE));
      verify(manifest, dataDir, engineConfig);
      done = true;
      return manifest;
    } finally {
      if (!done) {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dataDir)) {
          for (Path p : s) {
            FileCopies.delete(p);
          }
        }
        if (created) {
          Files.deleteIfExists(dataDir);
        }
      }
    }
  }

  private static boolean isEmptyFolder(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      return !s.iterator().hasNext();
    }
  }

  /** Opens the restored folder and checks every corpus against the manifest. */
  private static void verify(BackupManifest manifest, Path dataDir, EngineConfig engineConfig) {
    Access everything =
        new Access(
            "restore", List.of(new Grant("*", Grant.EVERY_SOURCE, EnumSet.allOf(Scope.class))));
    try (Corpora corpora = Corpora.builder().dataDir(dataDir).engineConfig(engineConfig).build()) {
      for (CorpusBackup expected : manifest.corpora()) {
        CorpusDescription found = corpora.readCorpus(everything, expected.corpus());
        if (!found.info().corpusId().equals(expected.corpusId())
            || found.revision() != expected.revision()) {
          throw new IllegalArgumentException(
              "corpus '"
                  + expected.corpus()
                  + "' restored as corpusId "
                  + found.info().corpusId()
                  + " at revision "
                  + found.revision()
                  + ", but the backup names corpusId "
                  + expected.corpusId()
                  + " at revision "
                  + expected.revision()
                  + "; the backup is damaged");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
