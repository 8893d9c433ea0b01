package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.app.backup.Backups;
import dev.quarry.cluster.OpenSearchCorpusStore;
import dev.quarry.cluster.OpenSearchSettings;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backups of a server whose corpora live on a real OpenSearch node: refused for good before any
 * work, even when there is no corpus to copy (a backup holding nothing would look like a success).
 */
class BackupsOnClusterIT {
  static final Access ADMIN =
      new Access("admin", List.of(new Grant("*", null, EnumSet.allOf(Scope.class))));

  @Test
  void withNoCorpora_aBackupIsRefusedForGood_andWritesNothing(@TempDir Path dir) throws Exception {
    OpenSearchSettings settings =
        OpenSearchSettings.of(ClusterConfig.single().urls())
            .withReplicas(0)
            .withPrefix(ClusterConfig.newPrefix("backups"));
    Path backups = Files.createDirectories(dir.resolve("backups"));
    try (Corpora corpora =
        Corpora.builder()
            .store(new OpenSearchCorpusStore(settings, EngineConfig.defaults()))
            .build()) {
      assertFalse(corpora.backsUp());
      Backups b =
          new Backups(
              corpora,
              Files.createDirectories(dir.resolve("data")),
              backups,
              "test",
              Clock.systemUTC());
      QuarryException e =
          assertThrows(QuarryException.class, () -> b.create(ADMIN, "nightly", null));
      assertEquals(ErrorCode.BACKUP_UNAVAILABLE, e.code(), e.getMessage());
      assertFalse(e.code().retryable());
      assertTrue(e.getMessage().contains("snapshots"), e.getMessage());
      try (Stream<Path> left = Files.list(backups)) {
        assertEquals(List.of(), left.toList(), "no backup, no partial folder");
      }
    }
  }
}
