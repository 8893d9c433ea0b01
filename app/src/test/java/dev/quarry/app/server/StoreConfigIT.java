package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.app.ServerProcess;
import dev.quarry.cluster.OpenSearchSettings;
import dev.quarry.testing.TestTokens;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The config file's {@code store}: the data folder by default, an OpenSearch cluster when named.
 */
class StoreConfigIT {
  static ServerConfig parse(String json) {
    return ServerConfig.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  static String problem(String json) {
    return assertThrows(IllegalArgumentException.class, () -> parse(json)).getMessage();
  }

  @Test
  void noStore_isTheDataFolder() {
    assertNull(parse("{}").openSearch());
    assertNull(parse("{\"store\": {}}").openSearch());
  }

  @Test
  void openSearch_isReadWithItsDefaults() {
    OpenSearchSettings s =
        parse(
                """
        {"store": {"opensearch": {"urls": ["http://10.0.0.1:9200", "https://search.example:443/"]}}}""")
            .openSearch();
    assertEquals(
        List.of(URI.create("http://10.0.0.1:9200/"), URI.create("https://search.example:443/")),
        s.urls());
    assertEquals("quarry", s.indexPrefix());
    assertEquals(1, s.shards());
    assertEquals(1, s.replicas());
    assertEquals(Duration.ofSeconds(30), s.leaseTtl());
    OpenSearchSettings t =
        parse(
                """
        {"store": {"opensearch": {"urls": ["http://a:9200"], "indexPrefix": "prod-1", "shards": 4, "replicas": 2,
          "leaseTtlSeconds": 60, "requestTimeoutSeconds": 20}}}""")
            .openSearch();
    assertEquals("prod-1", t.indexPrefix());
    assertEquals(4, t.shards());
    assertEquals(2, t.replicas());
    assertEquals(Duration.ofSeconds(60), t.leaseTtl());
    assertEquals(Duration.ofSeconds(20), t.requestTimeout());
  }

  @Test
  void badStores_nameTheKey() {
    assertTrue(
        problem("{\"store\": {\"elastic\": {}}}").contains("store.elastic"),
        problem("{\"store\": {\"elastic\": {}}}"));
    assertTrue(problem("{\"store\": {\"opensearch\": {}}}").contains("store.opensearch.urls"));
    assertTrue(
        problem("{\"store\": {\"opensearch\": {\"urls\": []}}}").contains("store.opensearch.urls"));
    assertTrue(
        problem("{\"store\": {\"opensearch\": {\"urls\": [\"ftp://x\"]}}}")
            .contains("store.opensearch.urls[0]"));
    assertTrue(
        problem("{\"store\": {\"opensearch\": {\"urls\": [\"http://x:9200/path\"]}}}")
            .contains("store.opensearch.urls[0]"));
    assertTrue(
        problem(
                "{\"store\": {\"opensearch\": {\"urls\": [\"http://x\"], \"indexPrefix\": \"Bad Prefix\"}}}")
            .contains("store.opensearch.indexPrefix"));
    assertTrue(
        problem("{\"store\": {\"opensearch\": {\"urls\": [\"http://x\"], \"shards\": 0}}}")
            .contains("store.opensearch.shards"));
    assertTrue(
        problem("{\"store\": {\"opensearch\": {\"urls\": [\"http://x\"], \"colour\": 1}}}")
            .contains("store.opensearch.colour"));
  }

  @Test
  void theWriteDiskFloor_isRefusedWithAClusterStore_namingTheKey() {
    String both =
        """
        {"storage": {"minFreeDiskMiB": 512}, "store": {"opensearch": {"urls": ["http://x:9200"]}}}""";
    String message = problem(both);
    assertTrue(message.startsWith("storage.minFreeDiskMiB"), message);
    assertTrue(message.contains("store.opensearch"), message);
    // Even 0 (off) is refused: the key means nothing there, whatever its value.
    assertTrue(
        problem(
                """
        {"storage": {"minFreeDiskMiB": 0}, "store": {"opensearch": {"urls": ["http://x:9200"]}}}""")
            .startsWith("storage.minFreeDiskMiB"));
    // Either alone is fine, and so is the readiness floor, which watches the data folder a cluster
    // server still keeps (ingestion jobs).
    assertEquals(512, parse("{\"storage\": {\"minFreeDiskMiB\": 512}}").writeMinFreeDiskMiB());
    assertEquals(
        ServerConfig.DEFAULT_WRITE_MIN_FREE_DISK_MIB,
        parse(
                """
        {"store": {"opensearch": {"urls": ["http://x:9200"]}}}""")
            .writeMinFreeDiskMiB());
    assertEquals(
        64,
        parse(
                """
        {"readiness": {"minFreeDiskMiB": 64}, "store": {"opensearch": {"urls": ["http://x:9200"]}}}""")
            .minFreeDiskMiB());
  }

  @Test
  void theWriteDiskFloor_withAClusterStore_stopsStartUp(@TempDir Path dir) throws IOException {
    Path config =
        Files.writeString(
            dir.resolve("config.json"),
            """
        {"storage": {"minFreeDiskMiB": 512}, "store": {"opensearch": {"urls": ["http://127.0.0.1:9"]}}}""");
    ServerProcess.Ended ended =
        ServerProcess.run(
            List.of(
                "serve",
                "--data",
                dir.resolve("data").toString(),
                "--port",
                "0",
                "--tokens",
                TestTokens.write(dir).toString(),
                "--config",
                config.toString()));
    assertEquals(2, ended.exitCode(), ended.stderr());
    assertTrue(ended.stderr().contains("storage.minFreeDiskMiB has no effect"), ended.stderr());
    assertFalse(Files.exists(dir.resolve("data")), "a refused config created the data folder");
  }

  @Test
  void credentialsAndTrustedAuthorities_areReadFromFiles_namingTheKeyOfABadOne(@TempDir Path dir)
      throws Exception {
    Path password = Files.writeString(dir.resolve("password"), "p4ss:word\n");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    Path keystore = dir.resolve("ca.p12");
    Path ca = dir.resolve("ca.pem");
    for (List<String> command :
        List.of(
            List.of(
                keytool,
                "-genkeypair",
                "-alias",
                "ca",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=ca",
                "-validity",
                "2",
                "-keystore",
                keystore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                "changeit"),
            List.of(
                keytool,
                "-exportcert",
                "-rfc",
                "-alias",
                "ca",
                "-keystore",
                keystore.toString(),
                "-storepass",
                "changeit",
                "-file",
                ca.toString()))) {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(0, p.waitFor(), out);
    }
    String pw = json(password);
    String caPath = json(ca);
    OpenSearchSettings s =
        parse(
                """
        {"store": {"opensearch": {"urls": ["https://a:9200"], "username": "quarry", "passwordFile": %s,
          "caFile": %s}}}"""
                    .formatted(pw, caPath))
            .openSearch();
    assertEquals("quarry", s.security().username());
    assertEquals("p4ss:word", s.security().password(), "one trailing line break is not part of it");
    assertEquals(ca, s.security().caFile());
    assertFalse(s.toString().contains("p4ss"), s.toString());
    assertNull(
        parse("{\"store\": {\"opensearch\": {\"urls\": [\"http://a:9200\"]}}}")
            .openSearch()
            .security()
            .username());

    String urls = "\"urls\": [\"https://a:9200\"]";
    assertTrue(
        problem("{\"store\": {\"opensearch\": {" + urls + ", \"username\": \"quarry\"}}}")
            .startsWith("store.opensearch.passwordFile"));
    assertTrue(
        problem("{\"store\": {\"opensearch\": {" + urls + ", \"passwordFile\": " + pw + "}}}")
            .startsWith("store.opensearch.username"));
    assertTrue(
        problem(
                "{\"store\": {\"opensearch\": {"
                    + urls
                    + ", \"username\": \"a:b\", \"passwordFile\": "
                    + pw
                    + "}}}")
            .startsWith("store.opensearch.username"));
    String missing =
        problem(
            "{\"store\": {\"opensearch\": {"
                + urls
                + ", \"username\": \"quarry\", \"passwordFile\": "
                + json(dir.resolve("nope"))
                + "}}}");
    assertTrue(missing.startsWith("store.opensearch.passwordFile"), missing);
    Path empty = Files.writeString(dir.resolve("empty"), "");
    assertTrue(
        problem(
                "{\"store\": {\"opensearch\": {"
                    + urls
                    + ", \"username\": \"quarry\", \"passwordFile\": "
                    + json(empty)
                    + "}}}")
            .startsWith("store.opensearch.passwordFile"));
    assertTrue(
        problem(
                "{\"store\": {\"opensearch\": {\"urls\": [\"http://a:9200\"], \"caFile\": "
                    + caPath
                    + "}}}")
            .startsWith("store.opensearch.caFile"),
        "a CA file means nothing without an https node");
    String notPem =
        problem("{\"store\": {\"opensearch\": {" + urls + ", \"caFile\": " + pw + "}}}");
    assertTrue(notPem.startsWith("store.opensearch.caFile"), notPem);
    assertFalse(notPem.contains("p4ss"), "never the content of a file: " + notPem);
  }

  /**
   * A server whose {@code retainedRevisions} differs from the one recorded on the cluster (by the
   * first server of the deployment) does not start, and says which key and which values.
   */
  @Test
  void anotherRetentionThanTheClusterRecorded_stopsStartUp_namingTheKey(@TempDir Path dir)
      throws Exception {
    var nodes = ClusterConfig.single();
    String prefix = ClusterConfig.newPrefix("retention");
    try (var first =
        new dev.quarry.cluster.OpenSearchCorpusStore(
            OpenSearchSettings.of(nodes.urls()).withPrefix(prefix).withReplicas(0),
            dev.quarry.engine.EngineConfig.builder().retainedRevisions(1000).build())) {
      String urls =
          nodes.urls().stream()
              .map(u -> "\"" + u + "\"")
              .collect(java.util.stream.Collectors.joining(", "));
      Path config =
          Files.writeString(
              dir.resolve("config.json"),
              """
          {"retainedRevisions": 2000, "store": {"opensearch": {"urls": [%s], "indexPrefix": "%s", "replicas": 0}}}"""
                  .formatted(urls, prefix));
      ServerProcess.Ended ended =
          ServerProcess.run(
              List.of(
                  "serve",
                  "--data",
                  dir.resolve("data").toString(),
                  "--port",
                  "0",
                  "--tokens",
                  TestTokens.write(dir).toString(),
                  "--config",
                  config.toString()));
      assertEquals(2, ended.exitCode(), "a config error: " + ended.stderr());
      assertTrue(
          ended.stderr().contains("retainedRevisions is 2000")
              && ended.stderr().contains("kept with 1000"),
          ended.stderr());
    }
  }

  private static String json(Path p) {
    return "\"" + p.toString().replace("\\", "\\\\") + "\"";
  }
}
