package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.app.ServerProcess;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /readyz} against {@code GET /healthz}, over real HTTP. */
class ReadinessOverHttpIT {
  @TempDir Path dir;

  @Test
  void aStartedServerIsReadyWithoutAToken() {
    try (ServerProcess server =
        ServerProcess.serve(dir.resolve("data"), TestTokens.write(dir), null)) {
      Answer ready = server.client().get("/readyz").send();
      assertEquals(200, ready.status(), ready::toString);
      assertEquals("ready", ready.json().get("status").asText());
    }
  }

  @Test
  void tooLittleFreeDiskIsNotReadyButStillAlive() throws Exception {
    // More free space than any disk has: the threshold is never met.
    Path config =
        Files.writeString(
            dir.resolve("config.json"), "{\"readiness\": {\"minFreeDiskMiB\": 1099511627776}}");
    try (ServerProcess server =
        ServerProcess.serve(dir.resolve("data"), TestTokens.write(dir), config)) {
      Answer ready = server.client().get("/readyz").send();
      assertEquals(503, ready.status(), ready::toString);
      assertEquals("UNAVAILABLE", ready.code(), ready::toString);
      assertTrue(
          ready.json().at("/error/message").asText().contains("readiness.minFreeDiskMiB"),
          ready::toString);
      assertEquals(200, server.client().get("/healthz").send().status());
    }
  }

  @Test
  void theThresholdIsCheckedWhenTheConfigIsRead() {
    assertEquals(
        0,
        ServerConfig.parse(
                "{\"readiness\": {\"minFreeDiskMiB\": 0}}".getBytes(StandardCharsets.UTF_8))
            .minFreeDiskMiB());
    assertEquals(ServerConfig.DEFAULT_MIN_FREE_DISK_MIB, ServerConfig.DEFAULT.minFreeDiskMiB());
    IllegalArgumentException negative =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ServerConfig.parse(
                    "{\"readiness\": {\"minFreeDiskMiB\": -1}}".getBytes(StandardCharsets.UTF_8)));
    assertTrue(negative.getMessage().contains("readiness.minFreeDiskMiB"), negative.getMessage());
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ServerConfig.parse(
                    "{\"readiness\": {\"minFreeDisk\": 1}}".getBytes(StandardCharsets.UTF_8)));
    assertTrue(unknown.getMessage().contains("readiness.minFreeDisk"), unknown.getMessage());
  }

  @Test
  void aServerThatIsShuttingDownIsNotReady() {
    Readiness readiness = new Readiness(dir, 0);
    assertEquals("the server is starting", readiness.notReadyBecause().orElseThrow());
    readiness.started();
    assertTrue(readiness.notReadyBecause().isEmpty());
    readiness.stopping();
    assertEquals("the server is shutting down", readiness.notReadyBecause().orElseThrow());
  }
}
