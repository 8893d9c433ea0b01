package dev.quarry.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code quarry corpora}: lists the corpora a token may see on a running server. */
@Command(name = "corpora", mixinStandardHelpOptions = true, description = "List the corpora of a running server.")
final class CorporaCommand implements Callable<Integer> {
  @Mixin
  RemoteOptions remote;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    PrintWriter out = spec.commandLine().getOut();
    String cursor = null;
    do {
      ObjectNode body = mapper.createObjectNode();
      if (cursor != null) {
        body.put("cursor", cursor);
      }
      RemoteOptions.Answer answer = remote.post("corpora/list", body, mapper);
      if (!answer.ok()) {
        spec.commandLine().getErr().println("quarry: " + answer.error());
        return 1;
      }
      for (JsonNode c : answer.body().get("corpora")) {
        out.printf("%-32s revision %-8d sources %d%n", c.get("corpus").asText(), c.get("revision").asLong(),
            c.get("sources").asLong());
      }
      cursor = answer.body().path("nextCursor").asText(null);
    } while (cursor != null);
    return 0;
  }
}
