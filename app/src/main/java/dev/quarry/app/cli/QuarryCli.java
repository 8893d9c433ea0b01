package dev.quarry.app.cli;

import dev.quarry.app.server.ServerVersion;
import dev.quarry.client.ApiException;
import dev.quarry.client.ProtocolException;
import dev.quarry.client.TransportException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.slf4j.bridge.SLF4JBridgeHandler;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code quarry} command: {@code serve}, {@code demo}, {@code search}, {@code corpora}, {@code
 * backup}, {@code restore}, {@code ingest}, {@code jobs}, {@code eval} and {@code help}. A user's
 * mistake (no token, no server at the URL, a URL that is not a Quarry server) is one line on stderr
 * and exit code 2; a refusal by the server (its error code and message) is one line and exit code
 * 1; only a fault of the program prints a stack trace.
 */
@Command(
    name = "quarry",
    mixinStandardHelpOptions = true,
    versionProvider = QuarryCli.Version.class,
    description = "Quarry: retrieval and document ingestion with exact, durable corpus revisions.",
    subcommands = {
      ServeCommand.class,
      DemoCommand.class,
      SearchCommand.class,
      CorporaCommand.class,
      IngestCommand.class,
      JobsCommand.class,
      EvalCommand.class,
      BackupCommand.class,
      RestoreCommand.class,
      CommandLine.HelpCommand.class
    },
    footer = {
      "",
      "From a source checkout, the ./quarry launcher also runs:",
      "  test     Run the test suite (Maven verify; arguments go to Maven).",
      "  build    Build without running the tests.",
      "",
      "Run 'quarry help COMMAND' for the options of a command."
    })
public final class QuarryCli implements Runnable {
  /**
   * Lucene reports at startup whether it uses the Vector API; the launcher decides that (it enables
   * the module for serve and eval), so the report is noise for a user. Held in a field: the logging
   * framework keeps only weak references to loggers, which would forget the level.
   */
  private static final Logger LUCENE_VECTORIZATION =
      Logger.getLogger("org.apache.lucene.internal.vectorization");

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The command line with its handling of mistakes and refusals, as {@link #main} runs it. */
  public static CommandLine commandLine() {
    // The engine and the corpora log through java.util.logging: their lines go to the same backend,
    // in the same format (text or JSON), as everything else.
    if (!SLF4JBridgeHandler.isInstalled()) {
      SLF4JBridgeHandler.removeHandlersForRootLogger();
      SLF4JBridgeHandler.install();
    }
    LUCENE_VECTORIZATION.setLevel(Level.SEVERE);
    CommandLine commandLine = new CommandLine(new QuarryCli());
    commandLine.setUsageHelpLongOptionsMaxWidth(30);
    // Every command's -V prints the one version, the build's, which the server reports too.
    commandLine
        .getSubcommands()
        .values()
        .forEach(sub -> sub.getCommandSpec().versionProvider(new Version()));
    commandLine.setParameterExceptionHandler(QuarryCli::mistakenArguments);
    commandLine.setExecutionExceptionHandler(
        (e, cmd, parsed) -> {
          if (e instanceof ApiException refused) {
            // The server answered and refused: its code, the field it names (a bad value's path in
            // the
            // request) unless its message already does, and its message, as the contract's envelope
            // gave them.
            String field = refused.error().field();
            String named =
                field == null || refused.error().message().contains(field)
                    ? ""
                    : " (" + field + ")";
            cmd.getErr()
                .println(
                    "quarry "
                        + cmd.getCommandName()
                        + ": "
                        + refused.code()
                        + named
                        + ": "
                        + refused.error().message());
            return 1;
          }
          String message = userMessage(e);
          if (message == null) {
            throw e;
          }
          cmd.getErr().println("quarry " + cmd.getCommandName() + ": " + message);
          return 2;
        });
    return commandLine;
  }

  /**
   * A command line that does not parse: what is wrong (the missing option, the unknown one with its
   * likely spelling) and where the options are listed, not the whole usage, which would bury the
   * one line that matters.
   */
  private static int mistakenArguments(CommandLine.ParameterException e, String[] args) {
    CommandLine cmd = e.getCommandLine();
    PrintWriter err = cmd.getErr();
    // Some of picocli's messages open with "Error: ", which the command's name already says.
    err.println(
        cmd.getCommandSpec().qualifiedName() + ": " + e.getMessage().replaceFirst("^Error: ", ""));
    CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
    err.println("Run '" + cmd.getCommandSpec().qualifiedName() + " --help' for its options.");
    return cmd.getCommandSpec().exitCodeOnInvalidInput();
  }

  /**
   * {@code quarry VERSION}: the project version the build wrote, as the server's {@code
   * /v1/protocol} reports it.
   */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"quarry " + ServerVersion.VERSION};
    }
  }

  /** The one line a user's mistake deserves, or null for a fault of the program. */
  private static String userMessage(Exception e) {
    if (e instanceof UsageException) {
      return e.getMessage();
    }
    if (e instanceof ConnectException || e.getCause() instanceof ConnectException) {
      return "no server answers at that URL (is it running? see --url or QUARRY_URL)";
    }
    if (e instanceof HttpTimeoutException || e.getCause() instanceof HttpTimeoutException) {
      return "the server did not answer in time";
    }
    if (e instanceof TransportException) {
      return "the connection to the server failed: " + e.getMessage();
    }
    if (e instanceof ProtocolException p) {
      // Not a Quarry server at that URL, or one of a wire version this command does not speak.
      return "the server at that URL does not answer as a Quarry server of wire version 1.0 does ("
          + p.getMessage()
          + ")";
    }
    return null;
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
