package dev.quarry.api.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quarry.api.QuarryPlugin;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import io.javalin.Javalin;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plugin serves {@code POST /v1/runs} only when the host asks for it. */
class RunsOptionTest {
  static final Access ADMIN =
      new Access("admin", List.of(new Grant("*", null, EnumSet.allOf(Scope.class))));
  static final String RUN =
      """
      {"provider": "retrieval", "input": "stone", "retrieval": {"corpus": "quarry"}}""";

  @TempDir Path data;

  Answer runOnHost(boolean serveRuns) throws Exception {
    try (Corpora corpora = Corpora.builder().dataDir(data).build()) {
      corpora.createCorpus(ADMIN, "quarry", null);
      QuarryPlugin plugin =
          new QuarryPlugin(
              c -> c.corpora(corpora).authenticator(token -> Optional.of(ADMIN)).runs(serveRuns));
      Javalin app =
          Javalin.create(
                  config -> {
                    config.startup.showJavalinBanner = false;
                    config.registerPlugin(plugin);
                  })
              .start("127.0.0.1", 0);
      try {
        return new ApiClient("http://127.0.0.1:" + app.port())
            .post("/v1/runs")
            .token("any")
            .json(RUN)
            .send();
      } finally {
        app.stop();
      }
    }
  }

  @Test
  void runs_offByDefault_leaveTheHostsRoutesAlone() throws Exception {
    assertEquals(404, runOnHost(false).status());
  }

  @Test
  void runs_on_servesRunsOfTheRetrievalProvider() throws Exception {
    Answer a = runOnHost(true);
    assertEquals(200, a.status(), a::toString);
    assertEquals("quarry", a.json().path("result").path("corpus").asText());
  }
}
