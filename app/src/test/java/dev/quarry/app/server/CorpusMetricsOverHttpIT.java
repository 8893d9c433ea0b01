package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.app.ServerProcess;
import dev.quarry.engine.Sha256;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Series per corpus ({@code metrics.corpusLabels}) over real HTTP, against a server started as a
 * user starts it.
 */
class CorpusMetricsOverHttpIT {
  private static final String METRICS_TOKEN = "metrics-scraper-token";
  private static final Pattern CORPUS_LABEL = Pattern.compile("corpus=\"([^\"]*)\"");

  @TempDir Path dir;

  @Test
  void corpusLabels_nameTheLargestOpenCorporaAndSumTheRestUnderOther() throws Exception {
    try (ServerProcess server = metricsServer(", \"corpusLabels\": 2")) {
      ApiClient api = server.client();
      // Four corpora of clearly different sizes: 40, 16, 5 and 1 sources of the same size, in text
      // that does not compress, so that their sizes on disk are far apart whatever their segments.
      Map<String, Long> revisions = new LinkedHashMap<>();
      revisions.put("big", fill(api, "big", 40));
      revisions.put("mid", fill(api, "mid", 16));
      revisions.put("small", fill(api, "small", 5));
      revisions.put("tiny", fill(api, "tiny", 1));

      String text = scrape(api);
      assertEquals(Set.of("big", "mid", "_other"), corpusLabels(text), text);
      for (String family :
          List.of(
              "quarry_corpus_revision", "quarry_corpus_segments", "quarry_corpus_index_bytes")) {
        assertEquals(
            Set.of("big", "mid", "_other"), corpusLabels(text, family), family + " in\n" + text);
      }
      assertEquals(
          revisions.get("big"), value(text, "quarry_corpus_revision{corpus=\"big\"}"), text);
      assertEquals(
          revisions.get("mid"), value(text, "quarry_corpus_revision{corpus=\"mid\"}"), text);
      assertEquals(
          revisions.get("small") + revisions.get("tiny"),
          value(text, "quarry_corpus_revision{corpus=\"_other\"}"),
          text);
      // The series add up to the totals, read from the same reading.
      assertEquals(
          value(text, "quarry_corpora_index_bytes"),
          value(text, "quarry_corpus_index_bytes{corpus=\"big\"}")
              + value(text, "quarry_corpus_index_bytes{corpus=\"mid\"}")
              + value(text, "quarry_corpus_index_bytes{corpus=\"_other\"}"),
          text);
      assertEquals(
          value(text, "quarry_corpora_segments"),
          value(text, "quarry_corpus_segments{corpus=\"big\"}")
              + value(text, "quarry_corpus_segments{corpus=\"mid\"}")
              + value(text, "quarry_corpus_segments{corpus=\"_other\"}"),
          text);
      assertTrue(
          value(text, "quarry_corpus_index_bytes{corpus=\"big\"}")
              > value(text, "quarry_corpus_index_bytes{corpus=\"mid\"}"),
          text);

      // Writes move the revisions at the next reading (taken at most once a second).
      long bigRevision = fill(api, "big", 42);
      long tinyRevision = fill(api, "tiny", 2);
      Thread.sleep(1100);
      String after = scrape(api);
      assertEquals(bigRevision, value(after, "quarry_corpus_revision{corpus=\"big\"}"), after);
      assertEquals(
          revisions.get("small") + tinyRevision,
          value(after, "quarry_corpus_revision{corpus=\"_other\"}"),
          after);

      // A deleted corpus's series go, and its label goes to the largest corpus without one.
      ApiClient.ok(api.retrieval("corpora/delete", TestTokens.ADMIN, "{\"corpus\": \"mid\"}"));
      Thread.sleep(1100);
      String deleted = scrape(api);
      assertEquals(Set.of("big", "small", "_other"), corpusLabels(deleted), deleted);
      assertEquals(
          tinyRevision, value(deleted, "quarry_corpus_revision{corpus=\"_other\"}"), deleted);
    }
  }

  @Test
  void withoutCorpusLabels_noLabelNamesACorpus() throws Exception {
    try (ServerProcess server = metricsServer("")) {
      ApiClient api = server.client();
      fill(api, "alphacorpus", 2);
      fill(api, "betacorpus", 1);
      String text = scrape(api);
      assertEquals(2, value(text, "quarry_corpora_open"), text);
      assertEquals(Set.of(), corpusLabels(text), text);
      assertFalse(text.contains("quarry_corpus_"), text);
      assertFalse(
          text.contains("alphacorpus") || text.contains("betacorpus"), "no label names a corpus");
    }
  }

  @Test
  void corpusLabels_outOfRangeOrMistyped_isAConfigErrorNamingIt() {
    for (String bad : List.of("-1", "1001", "\"2\"", "1.5", "true", "null")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  parse(
                      "{\"metrics\": {\"tokenSha256\": \""
                          + "0".repeat(64)
                          + "\", \"corpusLabels\": "
                          + bad
                          + "}}"),
              bad);
      assertTrue(e.getMessage().startsWith("metrics.corpusLabels"), bad + ": " + e.getMessage());
    }
    assertEquals(
        0,
        parse("{\"metrics\": {\"tokenSha256\": \"" + "0".repeat(64) + "\"}}")
            .metricsCorpusLabels());
    assertEquals(0, parse("{}").metricsCorpusLabels());
    assertEquals(
        1000,
        parse(
                "{\"metrics\": {\"tokenSha256\": \""
                    + "0".repeat(64)
                    + "\", \"corpusLabels\": 1000}}")
            .metricsCorpusLabels());
    // Corpora on a cluster: the series could never appear, so the key is refused whatever its
    // value.
    for (String value : List.of("0", "5")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  parse(
                      "{\"metrics\": "
                          + "{\"tokenSha256\": \""
                          + "0".repeat(64)
                          + "\", \"corpusLabels\": "
                          + value
                          + "}, "
                          + "\"store\": {\"opensearch\": {\"urls\": [\"http://x:9200\"]}}}"));
      assertTrue(e.getMessage().startsWith("metrics.corpusLabels"), e.getMessage());
    }
  }

  @Test
  void corpusLabels_outOfRange_stopsStartUp() throws IOException {
    Path config =
        Files.writeString(
            dir.resolve("config.json"),
            "{\"metrics\": {\"tokenSha256\": \""
                + Sha256.ofUtf8(METRICS_TOKEN)
                + "\", \"corpusLabels\": 5000}}");
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
    assertTrue(ended.stderr().contains("metrics.corpusLabels"), ended.stderr());
  }

  /**
   * Creates {@code corpus} unless it exists and indexes sources 0..count-1, each 2,000 random words
   * (the same for the same corpus and source); the last revision.
   */
  private static long fill(ApiClient api, String corpus, int count) {
    Answer created =
        api.retrieval("corpora/create", TestTokens.ADMIN, "{\"corpus\": \"" + corpus + "\"}");
    if (created.status() != 409) {
      ApiClient.ok(created);
    }
    long revision = 0;
    for (int i = 0; i < count; i++) {
      java.util.Random random = new java.util.Random(corpus.hashCode() * 31L + i);
      StringBuilder text = new StringBuilder();
      for (int w = 0; w < 2000; w++) {
        for (int c = 0; c < 8; c++) {
          text.append((char) ('a' + random.nextInt(26)));
        }
        text.append(' ');
      }
      revision =
          ApiClient.ok(
                  api.retrieval(
                      "sources/index",
                      TestTokens.ADMIN,
                      "{\"corpus\": \""
                          + corpus
                          + "\", \"source\": \"s"
                          + i
                          + "\", \"text\": \""
                          + text
                          + "\"}"))
              .at("/revision")
              .asLong();
    }
    return revision;
  }

  private static String scrape(ApiClient api) {
    Answer a = api.get("/metrics").token(METRICS_TOKEN).send();
    assertEquals(200, a.status(), a::toString);
    return a.body();
  }

  /** The values of the {@code corpus} label in the samples of a scrape (comments left out). */
  private static Set<String> corpusLabels(String scrape) {
    return corpusLabels(scrape, "");
  }

  /** The same, in the samples of the metric {@code family} only. */
  private static Set<String> corpusLabels(String scrape, String family) {
    Set<String> labels = new TreeSet<>();
    scrape
        .lines()
        .filter(l -> !l.startsWith("#") && l.startsWith(family))
        .forEach(
            l -> {
              Matcher m = CORPUS_LABEL.matcher(l);
              while (m.find()) {
                labels.add(m.group(1));
              }
            });
    return labels;
  }

  /** The value of the sample {@code series} (a name with its labels, if any) in a scrape. */
  private static long value(String scrape, String series) {
    return scrape
        .lines()
        .filter(l -> l.startsWith(series + " "))
        .findFirst()
        .map(l -> (long) Double.parseDouble(l.substring(series.length() + 1).strip()))
        .orElseThrow(() -> new AssertionError("no " + series + " in:\n" + scrape));
  }

  private static ServerConfig parse(String json) {
    return ServerConfig.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * A server whose {@code /metrics} answers to {@link #METRICS_TOKEN}, with {@code moreMetrics} in
   * its metrics object.
   */
  private ServerProcess metricsServer(String moreMetrics) throws IOException {
    Path config =
        Files.writeString(
            dir.resolve("config.json"),
            "{\"metrics\": {\"tokenSha256\": \""
                + Sha256.ofUtf8(METRICS_TOKEN)
                + "\""
                + moreMetrics
                + "}}");
    return ServerProcess.serve(dir.resolve("data"), TestTokens.write(dir), config);
  }
}
