package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerProcess;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.OpenSearchNodes;
import dev.quarry.testing.TestTokens;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two servers (fronts) over one real three-node OpenSearch cluster, each shard with a replica:
 * concurrent writers on one corpus, a data node and the elected cluster manager killed (SIGKILL)
 * during ingestion, and a front killed in the middle of a batch. Each step is bounded by a number
 * of writes, never by a time.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FrontsOnClusterIT {
  static final String T = TestTokens.ADMIN;

  @TempDir static Path dir;
  static OpenSearchNodes cluster;
  static ServerProcess a;
  static ServerProcess b;
  static Path config;

  /** Why OpenSearch could not be started here, or null. */
  static String unavailable;

  @BeforeAll
  static void start() {
    try {
      cluster = ClusterConfig.trio();
    } catch (org.opentest4j.TestAbortedException e) {
      unavailable = e.getMessage();
      return; // every test then skips, saying why
    }
    config =
        ClusterConfig.write(dir, "cluster.json", cluster, ClusterConfig.newPrefix("fronts"), 1);
    Path tokens = TestTokens.write(dir);
    a = ServerProcess.serve(dir.resolve("a"), tokens, config);
    b = ServerProcess.serve(dir.resolve("b"), tokens, config);
  }

  @org.junit.jupiter.api.BeforeEach
  void requireCluster() {
    org.junit.jupiter.api.Assumptions.assumeTrue(unavailable == null, unavailable);
  }

  @AfterAll
  static void stop() {
    for (ServerProcess s : new ServerProcess[] {a, b}) {
      if (s != null && s.isAlive()) {
        s.close();
      }
    }
  }

  static String indexBody(String corpus, String source, String word) {
    return "{\"corpus\": \""
        + corpus
        + "\", \"source\": \""
        + source
        + "\", \"text\": \"a note that mentions "
        + word
        + "\"}";
  }

  static int hits(ApiClient api, String corpus, String word, Long revision) {
    return hits(api, corpus, word, revision, null);
  }

  /**
   * @param mode the search's mode, or null for the corpus's default
   */
  static int hits(ApiClient api, String corpus, String word, Long revision, String mode) {
    String pin = revision == null ? "" : ", \"revision\": " + revision;
    String in = mode == null ? "" : ", \"mode\": \"" + mode + "\"";
    return ok(api.retrieval(
            "search",
            T,
            "{\"corpus\": \"" + corpus + "\", \"query\": \"" + word + "\"" + pin + in + "}"))
        .get("results")
        .size();
  }

  /** The shipped model of the hybrid corpus: the smallest. */
  static final String HYBRID_MODEL = "all-minilm-l6-v2";

  /** A word no other document holds: letters only, so every analyzer keeps it whole. */
  static String word(String prefix, int i) {
    StringBuilder w = new StringBuilder(prefix);
    for (char c : Integer.toString(i).toCharArray()) {
      w.append((char) ('a' + (c - '0')));
    }
    return w.toString();
  }

  @Test
  @Order(1)
  void twoFrontsWritingOneCorpus_issueGapFreeRevisions_andEachReceiptIsVisibleOnTheOtherFront()
      throws Exception {
    ok(a.client().retrieval("corpora/create", T, "{\"corpus\": \"shared\"}"));
    int perFront = 12;
    List<Long> revisions = Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<?>> done = new ArrayList<>();
    for (int f = 0; f < 2; f++) {
      ApiClient writer = (f == 0 ? a : b).client();
      ApiClient other = (f == 0 ? b : a).client();
      String prefix = f == 0 ? "zqa" : "zqb";
      done.add(
          pool.submit(
              () -> {
                for (int i = 0; i < perFront; i++) {
                  String w = word(prefix, i);
                  JsonNode receipt =
                      ok(
                          writer.retrieval(
                              "sources/index", T, indexBody("shared", prefix + "/" + i, w)));
                  revisions.add(receipt.get("revision").asLong());
                  // Read-your-writes across fronts: once the receipt is back, the other front sees
                  // it.
                  assertEquals(
                      1,
                      hits(other, "shared", w, null),
                      "front " + prefix + " write " + i + " on the other front");
                  assertEquals(1, hits(other, "shared", w, receipt.get("revision").asLong()));
                }
                return null;
              }));
    }
    for (Future<?> d : done) {
      d.get(10, TimeUnit.MINUTES);
    }
    pool.shutdown();
    List<Long> sorted = new ArrayList<>(revisions);
    Collections.sort(sorted);
    List<Long> expected = new ArrayList<>();
    for (long r = 1; r <= 2L * perFront; r++) {
      expected.add(r);
    }
    assertEquals(expected, sorted, "every revision issued once, none skipped");
    JsonNode history =
        ok(b.client().retrieval("corpora/history", T, "{\"corpus\": \"shared\", \"limit\": 1000}"));
    assertEquals(2 * perFront, history.get("entries").size());

    // Exact scores on three nodes with a replica per shard: the nodes have the scoring plugin, and
    // every run of a pinned search, from either front (each may be answered by other copies), gives
    // the same hits with the same scores, to the bit.
    for (ServerProcess front : new ServerProcess[] {a, b}) {
      JsonNode store =
          ok(front.client().get("/v1/protocol").token(T).send()).path("server").path("store");
      assertTrue(store.path("exactScores").asBoolean(), "server.store.exactScores");
      assertTrue(
          store.path("semanticSearch").asBoolean(),
          "server.store.semanticSearch: the plugin scores dense searches");
    }
    String query =
        "{\"corpus\": \"shared\", \"query\": \"note mentions "
            + word("zqa", 3)
            + " "
            + word("zqb", 5)
            + "\", \"topK\": 5, \"revision\": "
            + 2 * perFront
            + "}";
    List<String> first = scored(ok(a.client().retrieval("search", T, query)));
    assertEquals(5, first.size());
    for (int run = 0; run < 6; run++) {
      assertEquals(
          first,
          scored(ok((run % 2 == 0 ? b : a).client().retrieval("search", T, query))),
          "run " + run);
    }
  }

  /** Each result's source, chunk and score (its bits). */
  static List<String> scored(JsonNode search) {
    List<String> out = new ArrayList<>();
    for (JsonNode r : search.get("results")) {
      out.add(
          r.get("source").asText()
              + "#"
              + r.get("chunk").asInt()
              + " "
              + Integer.toHexString(Float.floatToIntBits(r.get("score").floatValue())));
    }
    return out;
  }

  /** The node that is the elected cluster manager, as the cluster says. */
  static OpenSearchNodes.Node electedManager() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    for (OpenSearchNodes.Node n : cluster.nodes()) {
      if (!n.alive()) {
        continue;
      }
      try {
        String name =
            http.send(
                    HttpRequest.newBuilder(n.url().resolve("/_cat/cluster_manager?h=node"))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .body()
                .trim();
        for (OpenSearchNodes.Node m : cluster.nodes()) {
          if (m.name().equals(name)) {
            return m;
          }
        }
      } catch (java.io.IOException e) {
        // try the next node
      }
    }
    throw new IllegalStateException("no elected cluster manager");
  }

  @Test
  @Order(2)
  void killingADataNodeAndThenTheElectedManager_duringIngestionFromTwoFronts_losesNoReceipt()
      throws Exception {
    // A hybrid corpus: each front embeds its batches' chunks before it writes them, so a receipt
    // covers the vectors too.
    ok(
        a.client()
            .retrieval(
                "corpora/create",
                T,
                "{\"corpus\": \"faults\", \"settings\": {\"embedding\": {\"model\": \""
                    + HYBRID_MODEL
                    + "\"}}}"));
    Map<String, Long> acknowledged = new ConcurrentHashMap<>();
    List<String> acknowledgedSources = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger refused = new AtomicInteger();
    AtomicInteger searchFailures = new AtomicInteger();
    AtomicInteger searches = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    int perFront = 40;
    ExecutorService pool = Executors.newFixedThreadPool(3);
    List<Future<?>> writers = new ArrayList<>();
    for (int f = 0; f < 2; f++) {
      ApiClient writer = (f == 0 ? a : b).client();
      String prefix = f == 0 ? "kfa" : "kfb";
      writers.add(
          pool.submit(
              () -> {
                for (int i = 0; i < perFront; i++) {
                  String w = word(prefix, i);
                  Answer r =
                      writer.retrieval(
                          "sources/index", T, indexBody("faults", prefix + "/" + i, w));
                  if (r.status() == 200) {
                    acknowledged.put(w, r.json().get("revision").asLong());
                    acknowledgedSources.add(prefix + "/" + i);
                  } else {
                    refused.incrementAndGet(); // a typed refusal (503) while the cluster fails over
                  }
                }
                return null;
              }));
    }
    Future<?> reader =
        pool.submit(
            () -> {
              while (!stop.get()) {
                searches.incrementAndGet();
                // The corpus's default mode: hybrid.
                if (a.client()
                        .retrieval("search", T, "{\"corpus\": \"faults\", \"query\": \"note\"}")
                        .status()
                    != 200) {
                  searchFailures.incrementAndGet();
                }
              }
              return null;
            });
    // A data node that is not the manager, then (after it is back) the elected manager itself.
    awaitAcknowledged(acknowledged, 5);
    OpenSearchNodes.Node manager = electedManager();
    OpenSearchNodes.Node data =
        cluster.nodes().stream().filter(n -> n != manager).findFirst().orElseThrow();
    data.kill();
    awaitAcknowledged(acknowledged, 15);
    data.restart();
    cluster.awaitHealth(3, "yellow", Duration.ofMinutes(3));
    OpenSearchNodes.Node manager2 = electedManager();
    manager2.kill();
    awaitAcknowledged(acknowledged, 30);
    manager2.restart();
    for (Future<?> w : writers) {
      w.get(15, TimeUnit.MINUTES);
    }
    stop.set(true);
    reader.get(1, TimeUnit.MINUTES);
    pool.shutdown();
    cluster.awaitHealth(3, "green", Duration.ofMinutes(3));
    System.out.printf(
        "faults: %d acknowledged, %d refused, %d of %d searches failed%n",
        acknowledged.size(), refused.get(), searchFailures.get(), searches.get());
    // No acknowledged receipt lost, on either front, its text nor its vector; no revision issued
    // twice.
    for (Map.Entry<String, Long> e : acknowledged.entrySet()) {
      assertEquals(
          1,
          hits(b.client(), "faults", e.getKey(), null, "lexical"),
          "acknowledged " + e.getKey() + " lost");
    }
    for (String source : acknowledgedSources) {
      JsonNode semantic =
          ok(a.client()
                  .retrieval(
                      "search",
                      T,
                      "{\"corpus\": \"faults\", \"query\": \"a note\","
                          + " \"mode\": \"semantic\", \"sources\": [\""
                          + source
                          + "\"]}"))
              .get("results");
      assertEquals(1, semantic.size(), "the vector of acknowledged " + source + " lost");
    }
    assertEquals(
        acknowledged.size(),
        acknowledged.values().stream().distinct().count(),
        "a revision issued twice");
    long latest =
        ok(a.client().retrieval("corpora/read", T, "{\"corpus\": \"faults\"}"))
            .get("revision")
            .asLong();
    JsonNode history =
        ok(a.client().retrieval("corpora/history", T, "{\"corpus\": \"faults\", \"limit\": 1000}"));
    List<Long> revs = new ArrayList<>();
    history.get("entries").forEach(en -> revs.add(en.get("revision").asLong()));
    for (int i = 0; i < revs.size(); i++) {
      assertEquals(i + 1, revs.get(i), "history revisions gap-free");
    }
    assertEquals(latest, revs.size());
    assertTrue(acknowledged.size() >= 30);
  }

  private static void awaitAcknowledged(Map<String, Long> acknowledged, int n)
      throws InterruptedException {
    for (int i = 0; i < 6000 && acknowledged.size() < n; i++) {
      Thread.sleep(50);
    }
  }

  @Test
  @Order(3)
  void aFrontKilledMidBatch_leavesNothingHalfVisible_andTheOtherFrontWritesOn() throws Exception {
    ok(a.client().retrieval("corpora/create", T, "{\"corpus\": \"midbatch\"}"));
    ok(a.client().retrieval("sources/index", T, indexBody("midbatch", "before", "beforeword")));
    StringBuilder ops = new StringBuilder();
    int n = 300;
    for (int i = 0; i < n; i++) {
      ops.append(i == 0 ? "" : ",")
          .append("{\"index\": {\"source\": \"batch/")
          .append(i)
          .append("\", \"text\": \"batchword and some more words for chunk ")
          .append(word("x", i))
          .append("\"}}");
    }
    String batch = "{\"corpus\": \"midbatch\", \"operations\": [" + ops + "]}";
    ApiClient victim = b.client();
    Thread sender =
        new Thread(
            () -> {
              try {
                victim.retrieval("sources/batch", T, batch);
              } catch (RuntimeException expected) {
                // the server dies under it
              }
            });
    sender.start();
    Thread.sleep(300);
    b.signal("KILL");
    sender.join(60_000);
    // The other front writes on (once the dead front's lease expired), at the next revision after
    // whatever was published: the batch entirely, or not at all.
    JsonNode after =
        ok(a.client().retrieval("sources/index", T, indexBody("midbatch", "after", "afterword")));
    long visible = hits(a.client(), "midbatch", "batchword", null) > 0 ? 1 : 0;
    long revision = after.get("revision").asLong();
    JsonNode list =
        ok(a.client().retrieval("sources/list", T, "{\"corpus\": \"midbatch\", \"limit\": 1000}"));
    int batchSources = 0;
    for (JsonNode s : list.get("sources")) {
      if (s.get("source").asText().startsWith("batch/")) {
        batchSources++;
      }
    }
    assertTrue(batchSources == 0 || batchSources == n, "half a batch is visible: " + batchSources);
    assertEquals(batchSources == 0 ? 0 : 1, visible);
    assertEquals(batchSources == 0 ? 2 : 3, revision, "revisions gap-free after the takeover");
    System.out.printf(
        "mid-batch kill: the batch was %s%n",
        batchSources == 0 ? "rolled back" : "published before the kill");
    b = ServerProcess.serve(dir.resolve("b"), TestTokens.write(dir), config);
    assertEquals(1, hits(b.client(), "midbatch", "afterword", null));
  }
}
