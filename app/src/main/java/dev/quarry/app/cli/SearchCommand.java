package dev.quarry.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.client.SearchRequest;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code quarry search}: searches a corpus of a running server and prints, per hit, its source,
 * pages, score (with its lexical and semantic parts, when the search has them), title, and a
 * snippet of its text with the matched words highlighted; then the counts of each facet asked for.
 * The request's other parts are {@link SearchOptions}. A refusal of the server is one line with its
 * error code and exit code 1 ({@link QuarryCli}).
 */
@Command(
    name = "search",
    mixinStandardHelpOptions = true,
    description = "Search a corpus of a running server.",
    footer = {
      "",
      "Examples:",
      "  quarry search --corpus handbook parental leave",
      "  quarry search --corpus handbook --mode semantic time off after a baby is born",
      "  quarry search --corpus handbook --syntax operators '\"parental leave\" -travel'",
      "  quarry search --corpus handbook --fusion rrf --source 'policies/*' leave",
      "  quarry search --corpus company --filter '{\"department\": \"hr\"}' \\",
      "      --facet department --snippet leave"
    })
final class SearchCommand implements Callable<Integer> {
  @Mixin RemoteOptions remote;

  @Option(names = "--corpus", required = true, paramLabel = "NAME")
  String corpus;

  @Mixin SearchOptions options;

  @Option(names = "--json", description = "Print the server's JSON answer as it is.")
  boolean json;

  @Parameters(arity = "1..*", paramLabel = "QUERY")
  List<String> query;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    SearchRequest request = options.request(corpus, String.join(" ", query));
    // The answer as the server wrote it: --json prints it whole, fields newer than the client's
    // records included.
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
    out.append(corpus)
        .append(" at revision ")
        .append(result.get("revision").asLong())
        .append(": ")
        .append(count)
        .append(count == 1 ? " result" : " results")
        .append('\n');
    int rank = 0;
    for (JsonNode hit : result.get("results")) {
      out.append('\n').append(++rank).append(". ").append(hit.get("source").asText());
      JsonNode pages = hit.get("pages");
      if (pages != null && pages.hasNonNull("from")) {
        int from = pages.get("from").asInt();
        int to = pages.path("to").asInt(from);
        out.append(from == to ? "  page " + from : "  pages " + from + "-" + to);
      }
      out.append(String.format(Locale.ROOT, "  score %.3f", hit.get("score").asDouble()));
      JsonNode parts = hit.path("parts");
      part(out, "lexical", parts.get("lexical"));
      part(out, "semantic", parts.get("semantic"));
      out.append('\n');
      if (hit.hasNonNull("title")) {
        out.append("   ").append(hit.get("title").asText()).append('\n');
      }
      String text = hit.get("text").asText();
      out.append("   ")
          .append(
              hit.hasNonNull("snippet")
                  ? Snippet.ofServer(hit.get("snippet"), text.length(), bold)
                  : Snippet.of(text, hit.get("highlights"), bold))
          .append('\n');
    }
    if (result.hasNonNull("facets")) {
      result.get("facets").forEach(facet -> facet(out, facet));
    }
    return out.toString();
  }

  /**
   * One side of a hit's score: its exact score, and its rank among that side's candidates when it
   * has one.
   */
  private static void part(StringBuilder out, String side, JsonNode part) {
    if (part == null || !part.hasNonNull("score")) {
      return; // the chunk has no score on this side, or the search has no parts
    }
    out.append(String.format(Locale.ROOT, "  %s %.3f", side, part.get("score").asDouble()));
    if (part.hasNonNull("rank")) {
      out.append(" #").append(part.get("rank").asInt());
    }
  }

  /**
   * One facet: its field, how many distinct values the matches hold, then a value and its count per
   * line.
   */
  private static void facet(StringBuilder out, JsonNode facet) {
    JsonNode values = facet.path("values");
    long distinct = facet.path("distinctValues").asLong(values.size());
    out.append('\n')
        .append(facet.path("field").asText())
        .append(": ")
        .append(distinct)
        .append(distinct == 1 ? " value" : " values");
    if (distinct > values.size()) {
      out.append(", the ").append(values.size()).append(" most frequent");
    }
    out.append('\n');
    int width = 0;
    for (JsonNode v : values) {
      width = Math.max(width, Math.min(40, v.path("value").asText().length()));
    }
    for (JsonNode v : values) {
      out.append(
          String.format(
              Locale.ROOT,
              "   %-" + Math.max(1, width) + "s  %d%n",
              v.path("value").asText(),
              v.path("count").asLong()));
    }
  }
}
