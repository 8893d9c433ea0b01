package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerProcess;
import dev.quarry.app.backup.BackupManifest;
import dev.quarry.corpora.CorpusBackup;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backups of named corpora ({@code "corpora"} of {@code POST /v1/admin/backup}, {@code quarry
 * backup --corpus}): refused in the contract's order with the field's path, holding only the
 * corpora named (the manifest lists them), and restored by {@code quarry restore} into a new data
 * folder that a new server serves with each corpus's corpusId, revision and content.
 */
class CorpusBackupOverHttpIT {
  @TempDir Path dir;

  @Test
  void aBackupOfNamedCorporaHoldsThemAloneAndRestoresIntoANewDataFolder() throws Exception {
    Path backups = dir.resolve("backups");
    Path config =
        Files.writeString(dir.resolve("config.json"), ServerProcess.backupConfig(backups));
    Path tokens = TestTokens.write(dir);
    Map<String, JsonNode> before = new HashMap<>();
    try (ServerProcess server = ServerProcess.serve(dir.resolve("data"), tokens, config)) {
      ApiClient api = server.client();
      for (String c : List.of("c1", "c2", "c3")) {
        ApiClient.ok(
            api.retrieval("corpora/create", TestTokens.ADMIN, "{\"corpus\": \"" + c + "\"}"));
        for (int i = 0; i <= c.charAt(1) - '0'; i++) {
          ApiClient.ok(
              api.retrieval(
                  "sources/index",
                  TestTokens.ADMIN,
                  "{\"corpus\": \""
                      + c
                      + "\", \"source\": \"s"
                      + i
                      + "\", \"text\": \"named backup words of "
                      + c
                      + " number"
                      + i
                      + "\"}"));
        }
        before.put(
            c,
            ApiClient.ok(
                api.retrieval("corpora/read", TestTokens.ADMIN, "{\"corpus\": \"" + c + "\"}")));
      }

      assertInvalid(backup(api, TestTokens.ADMIN, "{\"name\": \"b\", \"corpora\": []}"), "corpora");
      assertInvalid(
          backup(api, TestTokens.ADMIN, "{\"name\": \"b\", \"corpora\": \"c1\"}"), "corpora");
      assertInvalid(
          backup(api, TestTokens.ADMIN, "{\"name\": \"b\", \"corpora\": [\"c1\", 2]}"),
          "corpora[1]");
      assertInvalid(
          backup(api, TestTokens.ADMIN, "{\"name\": \"b\", \"corpora\": [\"c1\", \"Not A Name\"]}"),
          "corpora[1]");
      assertInvalid(
          backup(api, TestTokens.ADMIN, "{\"name\": \"b\", \"corpora\": [\"c1\", \"c2\", \"c1\"]}"),
          "corpora[2]");
      assertInvalid(
          backup(api, TestTokens.ADMIN, "{\"name\": \"b\", \"corpora\": [\"c1\"], \"colour\": 1}"),
          "colour");
      // A backup is the server's: manage on the one corpus named is not enough, and a token
      // without a grant on every corpus learns nothing of which corpora exist.
      assertStatus(
          backup(api, TestTokens.C2_ONLY, "{\"name\": \"b\", \"corpora\": [\"c2\"]}"),
          403,
          "FORBIDDEN");
      assertStatus(
          backup(api, TestTokens.C2_ONLY, "{\"name\": \"b\", \"corpora\": [\"nope\"]}"),
          403,
          "FORBIDDEN");
      // The caller's grants cover every name: a corpus that does not exist is named as such, and
      // nothing is written (the name stays free).
      Answer missing =
          backup(api, TestTokens.ADMIN, "{\"name\": \"b\", \"corpora\": [\"c1\", \"nope\"]}");
      assertStatus(missing, 404, "CORPUS_NOT_FOUND");
      assertTrue(missing.json().at("/error/message").asText().contains("nope"), missing::toString);
      assertFalse(Files.exists(backups.resolve("b")), "a refused backup left a folder");

      JsonNode manifest =
          ApiClient.ok(
              backup(api, TestTokens.ADMIN, "{\"name\": \"b\", \"corpora\": [\"c3\", \"c1\"]}"));
      assertFalse(manifest.get("allCorpora").asBoolean(), manifest::toString);
      assertEquals(
          List.of("c1", "c3"),
          corpusNames(manifest),
          "the manifest lists the corpora it holds, in name order");
      for (JsonNode c : manifest.get("corpora")) {
        JsonNode original = before.get(c.get("corpus").asText());
        assertEquals(original.get("corpusId").asText(), c.get("corpusId").asText());
        assertEquals(original.get("revision").asLong(), c.get("revision").asLong());
      }
      assertTrue(
          ApiClient.ok(backup(api, TestTokens.ADMIN, "{\"name\": \"all\"}"))
              .get("allCorpora")
              .asBoolean());

      ServerProcess.Ended cli =
          ServerProcess.run(
              List.of(
                  "backup",
                  "--url",
                  server.url(),
                  "--token",
                  TestTokens.ADMIN,
                  "--corpus",
                  "c2",
                  "cli-b"));
      assertEquals(0, cli.exitCode(), cli::stderr);
    }
    BackupManifest byCli = BackupManifest.read(backups.resolve("cli-b"));
    assertEquals(List.of("c2"), byCli.corpora().stream().map(CorpusBackup::corpus).toList());
    assertFalse(byCli.allCorpora());
    assertEquals(
        List.of("corpora"),
        entries(backups.resolve("b")).stream().filter(n -> !n.equals(BackupManifest.FILE)).toList(),
        "a backup of named corpora holds nothing else of the data folder");
    assertEquals(List.of("c1", "c3"), entries(backups.resolve("b").resolve("corpora")));

    Path restored = dir.resolve("restored");
    ServerProcess.Ended restore =
        ServerProcess.run(
            List.of(
                "restore",
                "--from",
                backups.resolve("b").toString(),
                "--data",
                restored.toString()));
    assertEquals(0, restore.exitCode(), restore::stderr);
    try (ServerProcess server = ServerProcess.serve(restored, tokens, null)) {
      ApiClient api = server.client();
      JsonNode list = ApiClient.ok(api.retrieval("corpora/list", TestTokens.ADMIN, "{}"));
      List<String> names = new ArrayList<>();
      list.get("corpora").forEach(c -> names.add(c.get("corpus").asText()));
      assertEquals(List.of("c1", "c3"), names, list::toString);
      for (String c : names) {
        JsonNode read =
            ApiClient.ok(
                api.retrieval("corpora/read", TestTokens.ADMIN, "{\"corpus\": \"" + c + "\"}"));
        assertEquals(
            before.get(c).get("corpusId").asText(),
            read.get("corpusId").asText(),
            "the corpusId is kept");
        assertEquals(before.get(c).get("revision").asLong(), read.get("revision").asLong());
        assertEquals(before.get(c).get("sources").asLong(), read.get("sources").asLong());
        JsonNode found =
            ApiClient.ok(
                api.retrieval(
                    "search",
                    TestTokens.ADMIN,
                    "{\"corpus\": \""
                        + c
                        + "\", \"query\": \"number1\", \"revision\": "
                        + read.get("revision").asLong()
                        + "}"));
        assertEquals("s1", found.at("/results/0/source").asText(), found::toString);
      }
      assertStatus(
          api.retrieval("corpora/read", TestTokens.ADMIN, "{\"corpus\": \"c2\"}"),
          404,
          "CORPUS_NOT_FOUND");
    }
  }

  private static Answer backup(ApiClient api, String token, String body) {
    return api.post("/v1/admin/backup").token(token).json(body).send();
  }

  private static void assertInvalid(Answer a, String field) {
    assertStatus(a, 400, "INVALID_REQUEST");
    assertEquals(field, a.field(), a::toString);
  }

  private static void assertStatus(Answer a, int status, String code) {
    assertEquals(status, a.status(), a::toString);
    assertEquals(code, a.code(), a::toString);
  }

  private static List<String> corpusNames(JsonNode manifest) {
    List<String> names = new ArrayList<>();
    manifest.get("corpora").forEach(c -> names.add(c.get("corpus").asText()));
    return names;
  }

  private static List<String> entries(Path folder) throws java.io.IOException {
    try (var s = Files.list(folder)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
