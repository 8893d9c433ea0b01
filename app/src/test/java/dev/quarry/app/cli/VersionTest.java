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
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One version everywhere: the Maven project version (the top pom's) is what {@code quarry -V}
 * prints, for every command, and what the server reports in {@code /v1/protocol}.
 */
class VersionTest {
  private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

  @TempDir Path dir;

  /** The top pom's own version: the first {@code <version>} after quarry-parent's artifactId. */
  static String projectVersion() throws Exception {
    String pom = Files.readString(ROOT.resolve("pom.xml"));
    Matcher m =
        Pattern.compile("<artifactId>quarry-parent</artifactId>\\s*<version>([^<]+)</version>")
            .matcher(pom);
    assertTrue(m.find(), "the top pom names its version");
    return m.group(1);
  }

  @Test
  void dashV_ofEveryCommand_printsTheProjectVersion() throws Exception {
    String expected = "quarry " + projectVersion();
    for (String[] args :
        new String[][] {
          {"-V"}, {"--version"}, {"serve", "-V"}, {"ingest", "-V"}, {"search", "-V"}
        }) {
      IngestCommandIT.Run run = IngestCommandIT.quarry(args);
      assertEquals(0, run.exitCode(), run::toString);
      assertEquals(expected, run.out().strip(), () -> String.join(" ", args));
    }
  }

  @Test
  void docs_nameTheProjectVersion() throws Exception {
    String expected = projectVersion();
    // The archive's name and folder, and the version examples of /v1/protocol and a backup
    // manifest.
    Pattern named =
        Pattern.compile(
            "quarry-(\\d+\\.\\d+\\.\\d+[A-Za-z0-9.-]*?)(?:\\.tar\\.gz|/|`|\\s|$)"
                + "|\"name\": \"quarry\", \"version\": \"([^\"]+)\"|\"serverVersion\": \"([^\"]+)\"",
            Pattern.MULTILINE);
    List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
    }
    int seen = 0;
    for (Path file : files) {
      Matcher m = named.matcher(Files.readString(file));
      while (m.find()) {
        String version =
            m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
        assertEquals(expected, version, () -> ROOT.relativize(file) + ": " + m.group());
        seen++;
      }
    }
    assertTrue(seen >= 5, "the README and docs/install.md name the release archive: " + seen);
  }

  @Test
  void protocol_reportsTheProjectVersion() throws Exception {
    String tokens =
        """
        {"tokens": [{"subject": "v", "token": "version-token", "grants": [{"corpus": "*", "scopes": ["search"]}]}]}""";
    try (QuarryServer server =
        QuarryServer.start(
            dir.resolve("data"),
            "127.0.0.1",
            0,
            TokensFile.parse(tokens.getBytes(StandardCharsets.UTF_8)),
            ServerConfig.DEFAULT)) {
      HttpResponse<String> protocol =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(server.url() + "/v1/protocol"))
                      .header("Authorization", "Bearer version-token")
                      .GET()
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(200, protocol.statusCode(), protocol.body());
      assertEquals(
          projectVersion(),
          new ObjectMapper().readTree(protocol.body()).at("/server/version").asText(),
          protocol.body());
    }
  }
}
