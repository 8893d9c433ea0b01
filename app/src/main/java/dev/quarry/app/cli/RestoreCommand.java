package dev.quarry.app.cli;

import dev.quarry.app.backup.BackupManifest;
import dev.quarry.app.backup.Restore;
import dev.quarry.app.server.ServerConfig;
import dev.quarry.corpora.CorpusBackup;
import dev.quarry.engine.QuarryException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code quarry restore --from BACKUP --data DIR}: restores a backup into an empty (or new) data
 * folder, with no server running on it, once the backup is found to hold what its manifest says and
 * nothing more, and checks that every corpus opens with its corpusId at its backed-up revision. A
 * backup that differs from its manifest is refused (exit code 2) with every difference named.
 */
@Command(
    name = "restore",
    mixinStandardHelpOptions = true,
    description = {
      "Restore a backup into an empty data folder (no server may run on it).",
      "Every corpus keeps its corpusId, revisions, history and idempotency records."
    })
final class RestoreCommand implements Callable<Integer> {
  @Option(
      names = "--from",
      required = true,
      paramLabel = "BACKUP",
      description = "The backup folder (BACKUP_DIRECTORY/NAME, as written by 'quarry backup').")
  Path from;

  @Option(
      names = "--data",
      required = true,
      paramLabel = "DIR",
      description = "The data folder to restore into: empty or new.")
  Path data;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "The server's config file, for its retention settings (see docs/configuration.md).")
  Path config;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    ServerConfig settings = config == null ? ServerConfig.DEFAULT : ServerConfig.read(config);
    BackupManifest manifest;
    try {
      manifest = Restore.run(from, data, settings.engineConfig());
    } catch (IllegalArgumentException | QuarryException e) {
      throw new UsageException(e.getMessage());
    }
    PrintWriter out = spec.commandLine().getOut();
    for (CorpusBackup c : manifest.corpora()) {
      out.printf("%-32s revision %d%n", c.corpus(), c.revision());
    }
    out.printf(
        "restored backup %s (taken %s) into %s: %d corpora%s%n",
        manifest.name(),
        manifest.createdAt(),
        data,
        manifest.corpora().size(),
        manifest.allCorpora() ? "" : ", the ones named when it was taken");
    return 0;
  }
}
