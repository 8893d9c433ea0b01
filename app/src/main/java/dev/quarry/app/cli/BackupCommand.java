package dev.quarry.app.cli;

import dev.quarry.client.Backup;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code quarry backup NAME [--corpus C]...}: asks a running server to back up its data folder (or
 * only the corpora named) into its {@code backup.directory} as {@code NAME} ({@code POST
 * /v1/admin/backup}), waits until the backup is complete, and prints what it holds.
 */
@Command(
    name = "backup",
    mixinStandardHelpOptions = true,
    description = {
      "Back up a running server's data folder (every corpus at one revision each, while writes go on).",
      "The backup is written by the server, into the backup.directory of its config file, as NAME.",
      "With --corpus, only the corpora named (and nothing else of the data folder).",
      "The token needs the manage scope on every corpus (a grant on '*')."
    })
final class BackupCommand implements Callable<Integer> {
  @Mixin RemoteOptions remote;

  @Parameters(
      index = "0",
      paramLabel = "NAME",
      description = "The backup's name (A-Z a-z 0-9 . _ -), new.")
  String name;

  @Option(
      names = "--corpus",
      paramLabel = "CORPUS",
      description =
          "Back up only this corpus; repeat for more. Default: every corpus and the rest of the data folder.")
  List<String> corpora;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    // A refusal (ApiException) is printed as CODE: message with exit code 1 by the command line's
    // handler.
    Backup backup = remote.client().backup(name, corpora, Duration.ofHours(24));
    PrintWriter out = spec.commandLine().getOut();
    for (Backup.CorpusRevision c : backup.corpora()) {
      out.printf("%-32s revision %d%n", c.corpus(), c.revision());
    }
    out.printf(
        "backup %s complete: %d corpora, %d bytes%n",
        backup.name(), backup.corpora().size(), backup.bytes());
    return 0;
  }
}
