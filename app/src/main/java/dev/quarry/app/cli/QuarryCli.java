package dev.quarry.app.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code quarry} command: {@code serve}, {@code demo}, {@code search}, {@code corpora},
 * {@code ingest}, {@code eval}.
 */
@Command(name = "quarry", mixinStandardHelpOptions = true, version = "quarry 0.1.0",
    description = "Quarry: retrieval and document ingestion with exact, durable corpus revisions.",
    subcommands = {ServeCommand.class, DemoCommand.class, SearchCommand.class, CorporaCommand.class,
        IngestCommand.class, EvalCommand.class})
public final class QuarryCli implements Runnable {

  public static void main(String[] args) {
    System.exit(new CommandLine(new QuarryCli()).execute(args));
  }

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }
}
