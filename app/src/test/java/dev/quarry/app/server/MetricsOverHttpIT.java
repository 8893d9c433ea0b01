package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.api.wire.ProtocolHeaders;
import dev.quarry.app.ServerProcess;
import dev.quarry.corpora.Corpora;
import dev.quarry.engine.Sha256;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.OpenApiContract;
import dev.quarry.testing.TestSeed;
import dev.quarry.testing.TestTokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /metrics} over real HTTP: its token, its content, and labels bounded whatever clients
 * send.
 */
class MetricsOverHttpIT {
  private static final String METRICS_TOKEN = "metrics-scraper-token";

  @TempDir Path dir;

  @Test
  @ExtendWith(TestSeed.class)
  void theScrapeCountsRequestsByEndpointWithBoundedLabels(Random random) throws Exception {
    try (ServerProcess server = metricsServer()) {
      ApiClient api = server.client();
      assertEquals(401, api.get("/metrics").send().status());
      assertEquals(
          401,
          api.get("/metrics").token(TestTokens.ADMIN).send().status(),
          "a data token is not the metrics token");
      api.get("/healthz").send();
      assertEquals(
          401, api.retrieval("search", "wrong", "{\"corpus\": \"c1\", \"query\": \"x\"}").status());
      for (int i = 0; i < 30; i++) {
        // Unknown paths, some refused before routing (a bad version): none may become a label.
        String path = "/v1/retrieval/x" + Long.toHexString(random.nextLong());
        api.post(path)
            .header(ProtocolHeaders.VERSION_HEADER, i % 2 == 0 ? "999" : ProtocolHeaders.VERSION)
            .json("{}")
            .send();
      }

      Answer scrape = api.get("/metrics").token(METRICS_TOKEN).send();
      assertEquals(200, scrape.status(), scrape::toString);
      assertTrue(
          scrape.header("Content-Type").startsWith("text/plain"), scrape.header("Content-Type"));
      String text = scrape.body();
      assertTrue(
          text.contains(
              "quarry_http_requests_seconds_count{endpoint=\"/healthz\",method=\"GET\",status=\"200\"} 1"),
          text);
      assertTrue(
          text.contains(
              "quarry_http_requests_seconds_count{endpoint=\"/v1/retrieval/search\",method=\"POST\","
                  + "status=\"401\"} 1"),
          text);
      assertTrue(
          text.contains(
              "quarry_http_requests_seconds_count{endpoint=\"other\",method=\"POST\",status=\"404\"} 15"),
          text);
      assertTrue(
          text.contains(
              "quarry_http_requests_seconds_count{endpoint=\"other\",method=\"POST\",status=\"400\"} 15"),
          text);
      assertTrue(
          text.contains(
              "quarry_http_requests_seconds_bucket{endpoint=\"/healthz\",method=\"GET\",status=\"200\","
                  + "le=\"0.1\"}"),
          text);
      assertFalse(text.contains("/v1/retrieval/x"), "a client's path became a label");
      // The scrape itself is in flight while it is taken.
      assertTrue(text.contains("quarry_http_requests_in_flight 1.0\n"), text);
      assertTrue(text.contains("quarry_data_disk_free_bytes "), text);
      assertTrue(text.contains("jvm_memory_used_bytes{"), text);
      assertTrue(text.contains("jvm_threads_live_threads "), text);
      assertTrue(text.contains("process_files_open_files "), text);
    }
  }

  /** Each endpoint of openapi.yaml is its own label: none is counted as "other". */
  @Test
  void everyDocumentedPath_isItsOwnEndpointLabel() throws Exception {
    Set<String> documented = new TreeSet<>();
    OpenApiContract.get().document().path("paths").fieldNames().forEachRemaining(documented::add);
    try (Corpora corpora = Corpora.builder().dataDir(dir.resolve("data")).build()) {
      Set<String> labelled = QuarryServer.endpoints(corpora);
      Set<String> missing = new TreeSet<>(documented);
      missing.removeAll(labelled);
      assertEquals(Set.of(), missing, "documented endpoints the metrics count as \"other\"");
    }
  }

  @Test
  void theEngineReportsCommitsRefreshesAndSearchesByMode() throws Exception {
    try (ServerProcess server = metricsServer()) {
      ApiClient api = server.client();
      ApiClient.ok(api.retrieval("corpora/create", TestTokens.ADMIN, "{\"corpus\": \"c1\"}"));
      for (int i = 0; i < 3; i++) {
        ApiClient.ok(
            api.retrieval(
                "sources/index",
                TestTokens.ADMIN,
                "{\"corpus\": \"c1\", \"source\": \"s"
                    + i
                    + "\", \"text\": \"engine metrics words "
                    + i
                    + "\"}"));
      }
      for (String mode : new String[] {"\"lexical\"", "\"lexical\"", null}) {
        ApiClient.ok(
            api.retrieval(
                "search",
                TestTokens.ADMIN,
                "{\"corpus\": \"c1\", \"query\": \"words\""
                    + (mode == null ? "" : ", \"mode\": " + mode)
                    + "}"));
      }
      String text = api.get("/metrics").token(METRICS_TOKEN).send().body();
      assertTrue(text.contains("quarry_engine_search_seconds_count{mode=\"lexical\"} 2"), text);
      assertTrue(text.contains("quarry_engine_search_seconds_count{mode=\"default\"} 1"), text);
      assertTrue(
          text.contains("quarry_engine_search_seconds_bucket{mode=\"lexical\",le=\"0.005\"}"),
          text);
      assertTrue(text.contains("quarry_engine_commit_seconds_count 3"), text);
      assertTrue(text.contains("quarry_engine_commit_mutations_sum 3"), text);
      assertTrue(text.contains("quarry_engine_refresh_seconds_count 3"), text);
      assertTrue(text.contains("quarry_engine_merge_seconds_count "), text);
      assertFalse(text.contains("c1"), "no label names a corpus");
    }
  }

  @Test
  void theScrapeReportsOpenCorporaTheirSegmentsAndBytesAndTheExtractionPool() throws Exception {
    // One extraction place and no queue: a document arriving while another is extracted is refused.
    try (ServerProcess server =
        metricsServer(", \"extraction\": {\"workers\": 1, \"queueCapacity\": 0}")) {
      ApiClient api = server.client();
      for (String c : List.of("c1", "c2")) {
        ApiClient.ok(
            api.retrieval("corpora/create", TestTokens.ADMIN, "{\"corpus\": \"" + c + "\"}"));
        for (int i = 0; i < 3; i++) {
          ApiClient.ok(
              api.retrieval(
                  "sources/index",
                  TestTokens.ADMIN,
                  "{\"corpus\": \""
                      + c
                      + "\", \"source\": \"s"
                      + i
                      + "\", \"text\": \"segment and byte metrics words "
                      + i
                      + "\"}"));
        }
      }
      long refusedSeen = 0;
      int uploaded = 0;
      // Rounds of simultaneous uploads until one met a busy worker (the first round nearly always
      // does: it starts the worker process); every refusal must be counted, none invented.
      for (int round = 0; round < 20 && refusedSeen == 0; round++) {
        List<Answer> answers = uploadAtOnce(server.url(), 4, round);
        for (Answer a : answers) {
          if (a.status() == 429) {
            assertEquals("CAPACITY", a.code(), a::toString);
            refusedSeen++;
          } else {
            ApiClient.ok(a);
            uploaded++;
          }
        }
      }
      assertTrue(refusedSeen > 0, "no upload met a busy extraction worker in 20 rounds");
      assertTrue(uploaded > 0);

      String text = api.get("/metrics").token(METRICS_TOKEN).send().body();
      assertEquals(2, value(text, "quarry_corpora_open"), text);
      assertEquals(1, value(text, "quarry_extraction_workers"), text);
      assertEquals(0, value(text, "quarry_extraction_workers_busy"), text);
      assertEquals(0, value(text, "quarry_extraction_queued"), text);
      assertEquals(refusedSeen, value(text, "quarry_extraction_refused_total"), text);

      // The open corpora's published segments: at least one each, no more than the segments on
      // disk.
      long segments = (long) value(text, "quarry_corpora_segments");
      long largestSegments = (long) value(text, "quarry_corpora_segments_largest");
      long onDisk = countFiles(dir.resolve("data/corpora"), ".si");
      assertTrue(
          segments >= 2 && segments <= onDisk,
          () -> segments + " segments, " + onDisk + " on disk");
      assertTrue(largestSegments >= 1 && largestSegments <= segments, text);
      // Their bytes: some, and no more than the index folders hold.
      long bytes = (long) value(text, "quarry_corpora_index_bytes");
      long largestBytes = (long) value(text, "quarry_corpora_index_largest_bytes");
      long folders = sizeOf(dir.resolve("data/corpora"));
      assertTrue(
          bytes > 0 && bytes <= folders, () -> bytes + " bytes, the folders hold " + folders);
      assertTrue(largestBytes > 0 && largestBytes <= bytes && 2 * largestBytes >= bytes, text);
      assertFalse(text.contains("c1") || text.contains("c2"), "no label names a corpus");
    }
  }

  @Test
  void cacheHitsMissesAndEvictionsMoveWithRequests() throws Exception {
    // One corpus open at a time: using the other closes the first (an eviction).
    try (ServerProcess server = metricsServer(", \"maxOpenCorpora\": 1")) {
      ApiClient api = server.client();
      ApiClient.ok(
          api.retrieval(
              "corpora/create",
              TestTokens.ADMIN,
              "{\"corpus\": \"cachedvectors\", \"settings\": "
                  + "{\"embedding\": {\"model\": \"all-minilm-l6-v2\"}}}"));
      ApiClient.ok(
          api.retrieval("corpora/create", TestTokens.ADMIN, "{\"corpus\": \"cachedwords\"}"));
      CacheReading start = CacheReading.of(scrape(api));

      // The same text twice: the second passage comes from the cache, the model does not run.
      String text = "a cat sleeps on the warm windowsill all afternoon";
      index(api, "cachedvectors", "first", text);
      CacheReading once = CacheReading.of(scrape(api));
      assertTrue(once.passages.misses > start.passages.misses, () -> once + " after " + start);
      assertEquals(start.passages.hits, once.passages.hits, () -> once + " after " + start);
      index(api, "cachedvectors", "second", text);
      CacheReading twice = CacheReading.of(scrape(api));
      assertEquals(once.passages.misses, twice.passages.misses, () -> twice + " after " + once);
      assertEquals(
          once.passages.misses - start.passages.misses,
          twice.passages.hits - once.passages.hits,
          () -> "every passage of the same text is a hit: " + twice + " after " + once);
      assertTrue(twice.passages.size >= 1, twice::toString);

      // The same semantic query twice: the second search embeds nothing.
      String search =
          "{\"corpus\": \"cachedvectors\", \"query\": \"a sleeping cat\", \"mode\": \"semantic\"}";
      ApiClient.ok(api.retrieval("search", TestTokens.ADMIN, search));
      CacheReading searched = CacheReading.of(scrape(api));
      assertTrue(
          searched.queries.misses > twice.queries.misses, () -> searched + " after " + twice);
      ApiClient.ok(api.retrieval("search", TestTokens.ADMIN, search));
      CacheReading again = CacheReading.of(scrape(api));
      assertEquals(
          searched.queries.misses, again.queries.misses, () -> again + " after " + searched);
      assertTrue(again.queries.hits > searched.queries.hits, () -> again + " after " + searched);

      // The open corpora: uses of the corpus already open are hits; the other corpus is opened (a
      // miss), which closes the first (an eviction), and the first is opened again (a miss).
      assertTrue(again.corpora.hits > start.corpora.hits, again::toString);
      index(api, "cachedwords", "words", "a lexical corpus takes its turn");
      index(api, "cachedvectors", "third", "and the first corpus opens again");
      CacheReading reopened = CacheReading.of(scrape(api));
      assertTrue(
          reopened.corpora.misses >= again.corpora.misses + 2, () -> reopened + " after " + again);
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
      CacheReading evicted = reopened;
      // The bound is kept by the cache's maintenance, which may run just after the request.
      while (evicted.corpora.evictions < again.corpora.evictions + 2
          && System.nanoTime() < deadline) {
        Thread.sleep(50);
        evicted = CacheReading.of(scrape(api));
      }
      assertTrue(evicted.corpora.evictions >= again.corpora.evictions + 2, evicted::toString);
      assertEquals(1, evicted.corpora.size, evicted::toString);

      String last = scrape(api);
      assertFalse(
          last.contains("cachedvectors") || last.contains("cachedwords"),
          "no label names a corpus");
      assertTrue(last.contains("# HELP quarry_cache_gets_total"), last);
    }
  }

  @Test
  void theSearchCachesCountReusedRevisionsAndSegments() throws Exception {
    try (ServerProcess server = metricsServer()) {
      ApiClient api = server.client();
      ApiClient.ok(api.retrieval("corpora/create", TestTokens.ADMIN, "{\"corpus\": \"cached\"}"));
      index(api, "cached", "first", "searched words");
      String search = "{\"corpus\": \"cached\", \"query\": \"words\", \"mode\": \"lexical\"}";
      ApiClient.ok(api.retrieval("search", TestTokens.ADMIN, search));
      String text = scrape(api);
      CacheSeries views = CacheSeries.of(text, "revision-views");
      CacheSeries terms = CacheSeries.of(text, "term-statistics");
      CacheSeries segments = CacheSeries.of(text, "segment-visibility");
      assertTrue(views.misses >= 1 && views.size >= 1, views::toString);
      assertTrue(segments.misses >= 1 && segments.size >= 1, segments::toString);
      assertTrue(terms.misses >= 1 && terms.size >= 1, terms::toString);

      // The same revision again: its view is reused.
      ApiClient.ok(api.retrieval("search", TestTokens.ADMIN, search));
      String again = scrape(api);
      CacheSeries viewsAgain = CacheSeries.of(again, "revision-views");
      assertEquals(views.misses, viewsAgain.misses, viewsAgain::toString);
      assertEquals(views.hits + 1, viewsAgain.hits, viewsAgain::toString);
      CacheSeries termsAgain = CacheSeries.of(again, "term-statistics");
      assertEquals(terms.misses, termsAgain.misses, termsAgain::toString);
      assertTrue(termsAgain.hits > terms.hits, () -> termsAgain + " after " + terms);

      // Another source is a new segment and a new revision: the old segment's visibility is reused.
      index(api, "cached", "second", "more words");
      ApiClient.ok(api.retrieval("search", TestTokens.ADMIN, search));
      String after = scrape(api);
      CacheSeries segmentsAgain = CacheSeries.of(after, "segment-visibility");
      assertTrue(segmentsAgain.hits > segments.hits, () -> segmentsAgain + " after " + segments);
      assertTrue(CacheSeries.of(after, "revision-views").misses > viewsAgain.misses, after);
      CacheSeries lucene = CacheSeries.of(after, "lucene-queries");
      assertTrue(lucene.hits >= 0 && lucene.size >= 0, lucene::toString);
      assertFalse(after.contains("cached\""), "no label names a corpus");
    }
  }

  private static void index(ApiClient api, String corpus, String source, String text) {
    ApiClient.ok(
        api.retrieval(
            "sources/index",
            TestTokens.ADMIN,
            "{\"corpus\": \""
                + corpus
                + "\", \"source\": \""
                + source
                + "\", \"text\": \""
                + text
                + "\"}"));
  }

  private static String scrape(ApiClient api) {
    Answer a = api.get("/metrics").token(METRICS_TOKEN).send();
    assertEquals(200, a.status(), a::toString);
    return a.body();
  }

  /** One cache's series in a scrape. */
  private record CacheSeries(long hits, long misses, long evictions, long size) {
    static CacheSeries of(String scrape, String cache) {
      return new CacheSeries(
          (long) value(scrape, "quarry_cache_gets_total{cache=\"" + cache + "\",result=\"hit\"}"),
          (long) value(scrape, "quarry_cache_gets_total{cache=\"" + cache + "\",result=\"miss\"}"),
          (long) value(scrape, "quarry_cache_evictions_total{cache=\"" + cache + "\"}"),
          (long) value(scrape, "quarry_cache_size{cache=\"" + cache + "\"}"));
    }
  }

  /** The three caches' series in a scrape. */
  private record CacheReading(CacheSeries corpora, CacheSeries passages, CacheSeries queries) {
    static CacheReading of(String scrape) {
      return new CacheReading(
          CacheSeries.of(scrape, "open-corpora"),
          CacheSeries.of(scrape, "passage-embeddings"),
          CacheSeries.of(scrape, "query-embeddings"));
    }
  }

  /**
   * {@code count} uploads of a small document, each on its own connection, sent at once; their
   * answers.
   */
  private static List<Answer> uploadAtOnce(String url, int count, int round) throws Exception {
    java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
    List<java.util.concurrent.Future<Answer>> sent = new java.util.ArrayList<>();
    try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < count; i++) {
        String source = "doc-" + round + "-" + i + ".txt";
        ApiClient own = new ApiClient(url);
        sent.add(
            threads.submit(
                () -> {
                  go.await();
                  return dev.quarry.testing.Upload.send(
                      own,
                      TestTokens.ADMIN,
                      "{\"corpus\": \"c1\", \"source\": \"" + source + "\"}",
                      source,
                      ("an uploaded document " + source).getBytes(StandardCharsets.UTF_8));
                }));
      }
      go.countDown();
      List<Answer> answers = new java.util.ArrayList<>();
      for (var f : sent) {
        answers.add(f.get(5, java.util.concurrent.TimeUnit.MINUTES));
      }
      return answers;
    }
  }

  /** The value of the sample {@code series} (a name with its labels, if any) in a scrape. */
  private static double value(String scrape, String series) {
    return scrape
        .lines()
        .filter(l -> l.startsWith(series + " "))
        .findFirst()
        .map(l -> Double.parseDouble(l.substring(series.length() + 1).strip()))
        .orElseThrow(() -> new AssertionError("no " + series + " in:\n" + scrape));
  }

  private static long countFiles(Path folder, String suffix) throws IOException {
    try (var files = Files.walk(folder)) {
      return files.filter(p -> p.getFileName().toString().endsWith(suffix)).count();
    }
  }

  private static long sizeOf(Path folder) throws IOException {
    try (var files = Files.walk(folder)) {
      long total = 0;
      for (Path p : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        total += Files.size(p);
      }
      return total;
    }
  }

  /** A server whose {@code /metrics} answers to {@link #METRICS_TOKEN}. */
  private ServerProcess metricsServer() throws IOException {
    return metricsServer("");
  }

  /** The same, with {@code moreConfig} (", key: value" pairs) in its config file. */
  private ServerProcess metricsServer(String moreConfig) throws IOException {
    Path config =
        Files.writeString(
            dir.resolve("config.json"),
            "{\"metrics\": {\"tokenSha256\": \""
                + Sha256.ofUtf8(METRICS_TOKEN)
                + "\"}"
                + moreConfig
                + "}");
    return ServerProcess.serve(dir.resolve("data"), TestTokens.write(dir), config);
  }

  @Test
  void withoutATokenConfiguredMetricsAreOff() {
    try (ServerProcess server =
        ServerProcess.serve(dir.resolve("data"), TestTokens.write(dir), null)) {
      Answer a = server.client().get("/metrics").token(TestTokens.ADMIN).send();
      assertEquals(404, a.status(), a::toString);
      assertTrue(
          a.json().at("/error/message").asText().contains("metrics.tokenSha256"), a::toString);
    }
  }

  @Test
  void theMetricsTokenIsCheckedWhenTheConfigIsRead() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ServerConfig.parse(
                    "{\"metrics\": {\"tokenSha256\": \"not-hex\"}}"
                        .getBytes(StandardCharsets.UTF_8)));
    assertTrue(e.getMessage().contains("metrics.tokenSha256"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> ServerConfig.parse("{\"metrics\": {}}".getBytes(StandardCharsets.UTF_8)));
  }
}
