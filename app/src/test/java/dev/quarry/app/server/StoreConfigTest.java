package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.corpora.opensearch.OpenSearchSettings;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The config file's {@code store}: the data folder by default, an OpenSearch cluster when named. */
class StoreConfigTest {
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
    OpenSearchSettings s = parse("""
        {"store": {"opensearch": {"urls": ["http://10.0.0.1:9200", "https://search.example:443/"]}}}""").openSearch();
    assertEquals(List.of(URI.create("http://10.0.0.1:9200/"), URI.create("https://search.example:443/")), s.urls());
    assertEquals("quarry", s.indexPrefix());
    assertEquals(1, s.shards());
    assertEquals(1, s.replicas());
    assertEquals(Duration.ofSeconds(30), s.leaseTtl());
    OpenSearchSettings t = parse("""
        {"store": {"opensearch": {"urls": ["http://a:9200"], "indexPrefix": "prod-1", "shards": 4, "replicas": 2,
          "leaseTtlSeconds": 60, "requestTimeoutSeconds": 20}}}""").openSearch();
    assertEquals("prod-1", t.indexPrefix());
    assertEquals(4, t.shards());
    assertEquals(2, t.replicas());
    assertEquals(Duration.ofSeconds(60), t.leaseTtl());
    assertEquals(Duration.ofSeconds(20), t.requestTimeout());
  }

  @Test
  void badStores_nameTheKey() {
    assertTrue(problem("{\"store\": {\"elastic\": {}}}").contains("store.elastic"), problem("{\"store\": {\"elastic\": {}}}"));
    assertTrue(problem("{\"store\": {\"opensearch\": {}}}").contains("store.opensearch.urls"));
    assertTrue(problem("{\"store\": {\"opensearch\": {\"urls\": []}}}").contains("store.opensearch.urls"));
    assertTrue(problem("{\"store\": {\"opensearch\": {\"urls\": [\"ftp://x\"]}}}").contains("store.opensearch.urls[0]"));
    assertTrue(problem("{\"store\": {\"opensearch\": {\"urls\": [\"http://x:9200/path\"]}}}")
        .contains("store.opensearch.urls[0]"));
    assertTrue(problem("{\"store\": {\"opensearch\": {\"urls\": [\"http://x\"], \"indexPrefix\": \"Bad Prefix\"}}}")
        .contains("store.opensearch.indexPrefix"));
    assertTrue(problem("{\"store\": {\"opensearch\": {\"urls\": [\"http://x\"], \"shards\": 0}}}")
        .contains("store.opensearch.shards"));
    assertTrue(problem("{\"store\": {\"opensearch\": {\"urls\": [\"http://x\"], \"colour\": 1}}}")
        .contains("store.opensearch.colour"));
  }
}
