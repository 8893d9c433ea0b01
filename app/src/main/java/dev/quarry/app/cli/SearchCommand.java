package dev.quarry.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.client.SearchRequest;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code quarry search}: searches a corpus of a running server and prints, per hit, its source,
 * title, pages and score, and a snippet of its text with the matched words highlighted. A refusal
 * of the server is one line with its error code and exit code 1 ({@link QuarryCli}).
 */
@Command(name = "search", mixinStandardHelpOptions = true, description = "Search a corpus of a running server.")
final class SearchCommand implements Callable<Integer> {
  @Mixin
  RemoteOptions remote;

  @Option(names = "--corpus", required = true, paramLabel = "NAME")
  String corpus;

  @Option(names = "--top-k", defaultValue = "5", paramLabel = "N", description = "Default: ${DEFAULT-VALUE}.")
  int topK;

  @Option(names = "--revision", paramLabel = "R", description = "Answer at this past revision.")
  Long revision;

  @Option(names = "--json", description = "Print the server's JSON answer as it is.")
  boolean json;

  @Parameters(arity = "1..*", paramLabel = "QUERY")
  List<String> query;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    SearchRequest request = SearchRequest.of(corpus, String.join(" ", query)).withTopK(topK);
    if (revision != null) {
      request = request.withRevision(revision);
    }
    // The answer as the server wrote it: --json prints it whole, fields newer than the client's records included.
    JsonNode answer = remote.client().searchAsJson(request);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(new ObjectMapper().writeValueAsString(answer));
      return 0;
    }
    out.print(render(corpus, answer, Terminal.bold()));
    out.flush();
    return 0;
  }

  /** The answer of {@code search} as a person reads it. */
  static String render(String corpus, JsonNode result, boolean bold) {
    StringBuilder out = new StringBuilder();
    int count = result.get("results").size();
    out.append(corpus).append(" at revision ").append(result.get("revision").asLong()).append(": ")
        .append(count).append(count == 1 ? " result" : " results").append('\n');
    int rank = 0;
    for (JsonNode hit : result.get("results")) {
      out.append('\n').append(++rank).append(". ").append(hit.get("source").asText());
      JsonNode pages = hit.get("pages");
      if (pages != null && pages.hasNonNull("from")) {
        int from = pages.get("from").asInt();
        int to = pages.path("to").asInt(from);
        out.append(from == to ? "  page " + from : "  pages " + from + "-" + to);
      }
      out.append(String.format(java.util.Locale.ROOT, "  score %.3f%n", hit.get("score").asDouble()));
      if (hit.hasNonNull("title")) {
        out.append("   ").append(hit.get("title").asText()).append('\n');
      }
      out.append("   ").append(Snippet.of(hit.get("text").asText(), hit.get("highlights"), bold)).append('\n');
    }
    return out.toString();
  }
}
