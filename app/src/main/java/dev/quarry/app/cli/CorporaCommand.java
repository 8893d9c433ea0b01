package dev.quarry.app.cli;

import dev.quarry.client.Corpus;
import java.io.PrintWriter;
import java.util.Iterator;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code quarry corpora}: lists the corpora a token may see on a running server, every page of the
 * keyset listing, each line printed as its page arrives.
 */
@Command(
    name = "corpora",
    mixinStandardHelpOptions = true,
    description = "List the corpora of a running server.")
final class CorporaCommand implements Callable<Integer> {
  @Mixin RemoteOptions remote;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Iterator<Corpus> corpora = remote.client().corpora().iterator();
    while (corpora.hasNext()) {
      Corpus c = corpora.next();
      out.printf("%-32s revision %-8d sources %d%n", c.corpus(), c.revision(), c.sources());
      out.flush();
    }
    return 0;
  }
}
