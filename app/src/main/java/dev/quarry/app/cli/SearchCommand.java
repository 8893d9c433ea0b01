package dev.quarry.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code quarry search}: searches a corpus of a running server and prints the passages. */
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
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode body = mapper.createObjectNode().put("corpus", corpus).put("query", String.join(" ", query)).put("topK", topK);
    if (revision != null) {
      body.put("revision", revision);
    }
    RemoteOptions.Answer answer = remote.post("search", body, mapper);
    PrintWriter out = spec.commandLine().getOut();
    if (!answer.ok()) {
      spec.commandLine().getErr().println("quarry: " + answer.error());
      return 1;
    }
    if (json) {
      out.println(mapper.writeValueAsString(answer.body()));
      return 0;
    }
    JsonNode result = answer.body();
    out.printf("%s at revision %d: %d results%n", corpus, result.get("revision").asLong(), result.get("results").size());
    for (JsonNode hit : result.get("results")) {
      out.printf("%n%.3f  %s  (chunk %d)%n", hit.get("score").asDouble(), hit.get("source").asText(), hit.get("chunk").asInt());
      out.println("  " + hit.get("text").asText().replaceAll("\\s+", " "));
    }
    return 0;
  }
}
