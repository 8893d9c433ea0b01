package dev.quarry.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerProcess;
import dev.quarry.testing.ApiClient;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandIT {
  @TempDir Path dir;

  @Test
  void demo_servesTheSampleCorpusWithThePrintedToken() throws InterruptedException {
    try (ServerProcess demo = ServerProcess.demo(dir.resolve("data"))) {
      String token = null;
      for (int i = 0;
          i < 3000 && token == null;
          i++) { // the sample is embedded first: slow on a loaded machine
        for (String line : demo.laterStdout()) {
          Matcher m =
              Pattern.compile("Token \\(every scope on every corpus\\): (\\S+)").matcher(line);
          if (m.find()) {
            token = m.group(1);
          }
        }
        if (token == null) {
          Thread.sleep(100);
        }
      }
      assertNotNull(
          token, () -> "no token printed; stdout: " + demo.laterStdout() + "\n" + demo.stderr());
      String printed = token;
      assertTrue(
          demo.laterStdout().stream().anyMatch(l -> l.startsWith("curl ") && l.contains(printed)));
      JsonNode found =
          new ApiClient(demo.url())
              .retrieval(
                  "search",
                  printed,
                  "{\"corpus\": \"handbook\", \"query\": \"parental leave\", \"topK\": 1}")
              .json();
      assertEquals("policies/leave.md", found.at("/results/0/source").asText(), found::toString);
      JsonNode byMeaning =
          new ApiClient(demo.url())
              .retrieval(
                  "search",
                  printed,
                  "{\"corpus\": \"handbook\","
                      + " \"query\": \"time off after a baby is born\", \"mode\": \"semantic\", \"topK\": 1}")
              .json();
      assertEquals(
          "policies/leave.md",
          byMeaning.at("/results/0/source").asText(),
          "the demo corpus is hybrid, and the printed semantic query finds the leave policy: "
              + byMeaning);
      assertTrue(
          demo.laterStdout().stream().anyMatch(l -> l.contains("time off after a baby is born")));
    }
  }
}
