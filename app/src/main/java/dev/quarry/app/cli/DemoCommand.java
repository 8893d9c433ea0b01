package dev.quarry.app.cli;

import dev.quarry.app.server.QuarryServer;
import dev.quarry.app.server.ServerConfig;
import dev.quarry.app.server.TokenAuthenticator;
import dev.quarry.client.ApiException;
import dev.quarry.client.Document;
import dev.quarry.client.QuarryClient;
import dev.quarry.client.Settings;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.embeddings.Models;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quarry demo}: a server with a small sample corpus ({@code handbook}) indexed, a freshly
 * minted token with every scope, and ready-to-paste curl commands. The sample is loaded through the
 * Java client (the server's own HTTP API), the way an application would, before the {@code
 * listening on} line is printed.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = "Start a server with a sample corpus and print curl commands to try it.")
final class DemoCommand implements Callable<Integer> {
  static final String CORPUS = "handbook";

  @Option(
      names = "--data",
      paramLabel = "DIR",
      description = "The data folder. Default: a new temporary folder.")
  Path data;

  @Option(
      names = "--port",
      defaultValue = "8080",
      paramLabel = "PORT",
      description = "Port; 0 picks a free one. Default: ${DEFAULT-VALUE}.")
  int port;

  @Option(
      names = "--token",
      paramLabel = "TOKEN",
      description =
          "The token to accept (for example the README's change-me). Default: a new random one.")
  String token;

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (token != null && (token.isBlank() || !token.chars().allMatch(c -> c > ' ' && c < 127))) {
      throw new UsageException("--token must be printable ASCII without spaces");
    }
    String bearer = token != null ? token : mintToken();
    // A folder the demo made is the demo's to remove; a folder given with --data is the user's.
    Path dir = data != null ? data : Files.createTempDirectory("quarry-demo-");
    Runnable cleanUp = data != null ? () -> {} : () -> deleteTree(dir);
    Access everything =
        new Access("demo", List.of(new Grant("*", List.of("*"), EnumSet.allOf(Scope.class))));
    TokenAuthenticator tokens = TokenAuthenticator.single(bearer, everything);
    return Serving.serveUntilStopped(
        () -> QuarryServer.start(dir, "127.0.0.1", port, tokens, ServerConfig.DEFAULT),
        server -> {
          // on stderr: stdout's first line stays "listening on", printed once the sample is in
          System.err.println("quarry demo: indexing the sample corpus '" + CORPUS + "'...");
          try {
            loadSample(server.url(), bearer);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          return instructions(server.url(), server.consoleUrl(), bearer, dir, data == null);
        },
        cleanUp);
  }

  private static void deleteTree(Path dir) {
    try (var paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      System.err.println("quarry demo: could not remove " + dir + ": " + e.getMessage());
    }
  }

  private static String mintToken() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return "qd_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /**
   * Creates the sample corpus (unless it exists) and indexes the bundled documents in one batch,
   * through the client.
   */
  private static void loadSample(String url, String token) throws IOException {
    // Embedding the sample takes a while on a small machine: no bound on the wait but the server's.
    QuarryClient client = QuarryClient.builder(url).token(token).timeout(null).build();
    try {
      // A hybrid corpus: the sample shows search by meaning beside search by words.
      client.createCorpus(
          CORPUS, new Settings(null, null, null, Settings.Embedding.of(Models.DEFAULT_MODEL)));
    } catch (ApiException.ConflictException exists) {
      // a data folder given with --data may hold the sample already: it is indexed again, unchanged
    }
    List<QuarryClient.BatchOperation> operations = new ArrayList<>();
    for (String name : resource("demo/index.txt").lines().filter(l -> !l.isBlank()).toList()) {
      String text = resource("demo/" + name);
      String title = text.lines().findFirst().orElse(name).replaceFirst("^#\\s*", "");
      operations.add(
          QuarryClient.BatchOperation.index(
              Document.text(name, text).withTitle(title).withMediaType("text/markdown")));
    }
    client.batch(CORPUS, operations);
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = DemoCommand.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException("missing bundled resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  static String instructions(
      String url, String consoleUrl, String token, Path dir, boolean temporary) {
    String auth = "-H 'Authorization: Bearer " + token + "' -H 'Content-Type: application/json'";
    String post = "curl -s " + auth + " " + url + "/v1/retrieval/";
    return String.join(
        "\n",
        "",
        "Quarry demo: corpus '"
            + CORPUS
            + "' is indexed; data in "
            + dir
            + (temporary ? " (removed when the demo stops)" : ""),
        "Token (every scope on every corpus): " + token,
        "",
        "# What this server offers",
        "curl -s -H 'Authorization: Bearer " + token + "' " + url + "/v1/protocol",
        "# Search (hybrid: words and meaning; each hit's parts say which side found it)",
        post + "search -d '{\"corpus\":\"handbook\",\"query\":\"parental leave\",\"topK\":3}'",
        "# Search by meaning: no word of this query is in the passage that answers it",
        post
            + "search -d '{\"corpus\":\"handbook\",\"query\":\"time off after a baby is born\",\"mode\":\"semantic\",\"topK\":3}'",
        "# Index a source (the receipt names the new revision)",
        post
            + "sources/index -d '{\"corpus\":\"handbook\",\"source\":\"policies/remote.md\",\"title\":\"Remote work\","
            + "\"text\":\"Employees may work remotely up to three days a week.\"}'",
        "# Search pinned to revision 1 (before that index): same answer every time",
        post + "search -d '{\"corpus\":\"handbook\",\"query\":\"remote work\",\"revision\":1}'",
        "# Delete a source, then read the history",
        post + "sources/delete -d '{\"corpus\":\"handbook\",\"source\":\"policies/remote.md\"}'",
        post + "corpora/history -d '{\"corpus\":\"handbook\"}'",
        "",
        "Web console: " + consoleUrl + " (sign in with the token above)",
        "Stop with Ctrl-C.");
  }
}
