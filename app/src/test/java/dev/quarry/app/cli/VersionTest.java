package dev.quarry.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.app.server.QuarryServer;
import dev.quarry.app.server.ServerConfig;
import dev.quarry.app.server.TokensFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One version everywhere: the Maven project version (the top pom's) is what {@code quarry -V}
 * prints, for every command, and what the server reports in {@code /v1/protocol}.
 */
class VersionTest {
  private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

  @TempDir
  Path dir;

  /** The top pom's own version: the first {@code <version>} after quarry-parent's artifactId. */
  static String projectVersion() throws Exception {
    String pom = Files.readString(ROOT.resolve("pom.xml"));
    Matcher m = Pattern.compile("<artifactId>quarry-parent</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
    assertTrue(m.find(), "the top pom names its version");
    return m.group(1);
  }

  @Test
  void dashV_ofEveryCommand_printsTheProjectVersion() throws Exception {
    String expected = "quarry " + projectVersion();
    for (String[] args : new String[][] {{"-V"}, {"--version"}, {"serve", "-V"}, {"ingest", "-V"}, {"search", "-V"}}) {
      IngestCommandTest.Run run = IngestCommandTest.quarry(args);
      assertEquals(0, run.exitCode(), run::toString);
      assertEquals(expected, run.out().strip(), () -> String.join(" ", args));
    }
  }

  @Test
  void protocol_reportsTheProjectVersion() throws Exception {
    String tokens = """
        {"tokens": [{"subject": "v", "token": "version-token", "grants": [{"corpus": "*", "scopes": ["search"]}]}]}""";
    try (QuarryServer server = QuarryServer.start(dir.resolve("data"), "127.0.0.1", 0,
        TokensFile.parse(tokens.getBytes(StandardCharsets.UTF_8)), ServerConfig.DEFAULT)) {
      HttpResponse<String> protocol = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(server.url() + "/v1/protocol"))
              .header("Authorization", "Bearer version-token").GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, protocol.statusCode(), protocol.body());
      assertEquals(projectVersion(), new ObjectMapper().readTree(protocol.body()).at("/server/version").asText(),
          protocol.body());
    }
  }
}
