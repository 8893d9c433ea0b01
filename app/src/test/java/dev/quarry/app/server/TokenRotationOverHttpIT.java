package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.quarry.app.ServerProcess;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.TestTokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tokens file is reloaded on change and on SIGHUP; a bad new file leaves the old tokens in
 * force.
 */
class TokenRotationOverHttpIT {
  private static final String ROTATED =
      """
      {"tokens": [{"subject": "rotated", "token": "rotated-token",
                   "grants": [{"corpus": "*", "scopes": ["search"]}]}]}""";
  private static final String MALFORMED =
      """
      {"tokens": [{"subject": "bad", "token": "bad-token",
                   "grants": [{"corpus": "*", "scopes": ["admin"]}]}]}""";

  @TempDir Path dir;

  @Test
  void aChangedFileTakesEffectAndABadOneIsRefused() throws Exception {
    Path tokens = TestTokens.write(dir);
    try (ServerProcess server =
        ServerProcess.serve(
            dir.resolve("data"), tokens, null, List.of("--tokens-check-seconds", "1"))) {
      ApiClient api = server.client();
      assertEquals(200, status(api, TestTokens.ADMIN));
      replace(tokens, ROTATED);
      await(() -> status(api, "rotated-token") == 200, server);
      assertEquals(401, status(api, TestTokens.ADMIN), "a token removed from the file still works");

      replace(tokens, MALFORMED);
      await(() -> server.stderr().contains("refused the changed tokens file"), server);
      assertTrue(server.stderr().contains("tokens[0].grants[0].scopes[0]"), server.stderr());
      assertEquals(
          200, status(api, "rotated-token"), "the tokens in force were dropped for a bad file");
      assertEquals(401, status(api, "bad-token"));
    }
  }

  @Test
  void sighupReloadsAndDoesNotStopTheServer() throws Exception {
    Path tokens = TestTokens.write(dir);
    try (ServerProcess server =
        ServerProcess.serve(
            dir.resolve("data"), tokens, null, List.of("--tokens-check-seconds", "0"))) {
      // A child inherits an ignored SIGHUP (a build run under nohup): then no signal can reach it.
      assumeFalse(
          server.stderr().contains("SIGHUP is ignored"),
          "this test's process ignores SIGHUP, and so does the server it starts: skipped");
      ApiClient api = server.client();
      replace(tokens, MALFORMED);
      server.signal("HUP");
      await(() -> server.stderr().contains("refused the changed tokens file"), server);
      assertEquals(200, status(api, TestTokens.ADMIN), "a bad file replaced the tokens in force");

      replace(tokens, ROTATED);
      server.signal("HUP");
      await(() -> status(api, "rotated-token") == 200, server);
      assertEquals(401, status(api, TestTokens.ADMIN));
      assertTrue(server.isAlive(), "SIGHUP ended the server");
    }
  }

  private static int status(ApiClient api, String token) {
    return api.get("/v1/protocol").token(token).send().status();
  }

  /**
   * Replaces the file the way an operator's tooling should: a new file renamed over the old one.
   */
  private void replace(Path tokens, String content) throws IOException {
    Path next = Files.writeString(dir.resolve("tokens.json.next"), content);
    Files.move(next, tokens, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Waits (bounded, to end a hang) for the server to act on a change. */
  private static void await(BooleanSupplier condition, ServerProcess server)
      throws InterruptedException {
    for (int i = 0; i < 300; i++) {
      if (condition.getAsBoolean()) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the server did not take the change; its stderr:\n" + server.stderr());
  }
}
