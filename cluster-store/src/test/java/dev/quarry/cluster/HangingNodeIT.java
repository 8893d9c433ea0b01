package dev.quarry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.testing.OpenSearchNodes;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A node that takes connections and never answers (a long GC pause, a stopped process) listed
 * before the real test node: a request fails over to the real node within its deadline, is marked
 * as sent again after a possible delivery, and the next request starts on the node that answers.
 */
class HangingNodeIT {
  // Long enough that the real node's share (half, after the silent node's) holds an index creation
  // on a busy machine; the assertions compare with it, not with a fixed latency.
  private static final Duration TIMEOUT = Duration.ofSeconds(12);
  private static final Map<String, Object> NO_REPLICAS =
      Map.of("settings", Map.of("number_of_replicas", 0));

  ServerSocket silent;
  ClusterHttp http;
  String prefix;

  @BeforeEach
  void open() throws Exception {
    URI real = OpenSearchNodes.single().urls().get(0);
    // The kernel completes its connections; nothing ever reads or answers them.
    silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    http =
        new ClusterHttp(
            List.of(URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/"), real), TIMEOUT);
    prefix = TestIndexes.prefix("hanging");
  }

  @AfterEach
  void close() throws Exception {
    new ClusterHttp(OpenSearchNodes.single().urls(), TIMEOUT)
        .send("DELETE", "/" + prefix + "-*", null, null);
    silent.close();
  }

  @Test
  void aHangingFirstNode_failsOverWithinTheDeadline_andIsNotTriedFirstAgain() {
    long start = System.nanoTime();
    ClusterHttp.Answer put = http.json("PUT", "/" + prefix + "-x", NO_REPLICAS);
    long ms = (System.nanoTime() - start) / 1_000_000;
    assertTrue(put.ok(), put.body().toString());
    assertTrue(ms < TIMEOUT.toMillis(), "answered after " + ms + " ms");
    // The silent node may have received the write and may still apply it: the answer says so.
    assertTrue(put.resent(), "a write sent again after a timeout is marked as such");

    start = System.nanoTime();
    ClusterHttp.Answer read = http.get("/" + prefix + "-x/_settings");
    ms = (System.nanoTime() - start) / 1_000_000;
    assertEquals(200, read.status(), read.body().toString());
    assertFalse(read.resent());
    // Had the silent node been tried first, its share (half the timeout) would have been spent on
    // it.
    assertTrue(ms < TIMEOUT.toMillis() / 2, "the answering node is tried first now: " + ms + " ms");
  }

  @Test
  void everyAttemptWithinTheDeadline_boundOnce() {
    // One operation of several requests shares one deadline: the first fails over, the rest go
    // straight on.
    long start = System.nanoTime();
    ClusterHttp.Answer a =
        http.within(
            () -> {
              http.json("PUT", "/" + prefix + "-y", NO_REPLICAS).require("a test write");
              return http.get("/" + prefix + "-y/_settings");
            });
    long ms = (System.nanoTime() - start) / 1_000_000;
    assertEquals(200, a.status(), a.body().toString());
    assertTrue(ms < TIMEOUT.toMillis(), "answered after " + ms + " ms");
  }
}
