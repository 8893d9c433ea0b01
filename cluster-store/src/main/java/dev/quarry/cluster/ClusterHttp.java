package dev.quarry.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

/**
 * Plain JSON over HTTP to an OpenSearch cluster (the JDK client and Jackson, no cluster client
 * library). A request that cannot reach a node is tried on the next one, so one lost node costs a
 * retry, not an error; an answer, whatever its status, is the cluster's and is returned as it is.
 *
 * <p>A request sent again after an attempt that may have reached a node (its connection was open
 * when it failed: no answer, a timeout, a reset) may be applied twice: the answer says so ({@link
 * Answer#resent}), so that a conditional write refused on the second attempt can ask whether the
 * first one was applied instead of taking the refusal for "nothing was applied".
 *
 * <p>Every request is bounded by a deadline: the one of the store's operation whose cluster work
 * this thread does ({@link #within}: a search with its head read and facets, a read, a listing, a
 * change's own writes), so that all of its cluster requests, every attempt on every node, share the
 * configured timeout; else one timeout for this request with all its attempts. Each attempt waits
 * for its share of the time that remains: that time divided among the nodes not yet tried in this
 * round over them (never less than {@link #MIN_ATTEMPT}, unless less remains), so that a node that
 * hangs (a long GC pause, a stopped process) costs a share and the next node is still tried in
 * time. A node that gave no answer is no longer the one tried first.
 *
 * <p>A failure is UNAVAILABLE with fixed text for the client, naming what Quarry was doing; what
 * the cluster said (its error type and reason, which name indexes, nodes and ports) is the
 * exception's cause ({@link ClusterFault}), which the server logs under the request's id.
 */
final class ClusterHttp {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private final List<URI> nodes;
  private final HttpClient client;
  private final Duration timeout;

  /** The shortest wait for one attempt, when more time than that remains. */
  static final Duration MIN_ATTEMPT = Duration.ofSeconds(1);

  /** The node that answered last (or the one after a node that did not): tried first next time. */
  private final AtomicInteger preferred = new AtomicInteger();

  /** The {@code Authorization} header sent with every request; null for none. */
  private final String authorization;

  /**
   * The deadline of the operation whose cluster work the current thread does, or null when it does
   * none (start-up, background reclaims): each request then gets one timeout of its own.
   */
  private static final ThreadLocal<Deadline> BOUND = new ThreadLocal<>();

  /**
   * The longest one operation's cluster work may take: every request, attempt and node together.
   */
  Duration timeout() {
    return timeout;
  }

  /** A point in {@link System#nanoTime} time by which the cluster work must be done. */
  record Deadline(long atNanos) {
    static Deadline after(Duration d) {
      return new Deadline(System.nanoTime() + d.toNanos());
    }

    long remainingNanos() {
      return atNanos - System.nanoTime();
    }

    Deadline earlier(Deadline other) {
      return other == null || atNanos - other.atNanos <= 0 ? this : other;
    }
  }

  /**
   * Runs {@code work} as one operation's cluster work: every cluster request it sends on this
   * thread (and on the threads it hands requests to, see {@link #carried}) shares one timeout from
   * now, or the deadline already bound to this thread when that comes earlier (an operation inside
   * another, such as a search's read of the head, keeps the outer one's).
   */
  <T> T within(Supplier<T> work) {
    return bound(Deadline.after(timeout).earlier(BOUND.get()), work);
  }

  /**
   * Runs {@code work} with {@code deadline} bound to this thread, whatever was bound before
   * (restored after): for work with a budget of its own, such as deciding a publication that went
   * unanswered.
   */
  static <T> T bound(Deadline deadline, Supplier<T> work) {
    Deadline outer = BOUND.get();
    BOUND.set(deadline);
    try {
      return work.get();
    } finally {
      if (outer == null) {
        BOUND.remove();
      } else {
        BOUND.set(outer);
      }
    }
  }

  /**
   * {@code work} to run on another thread with the deadline bound to this one (if any): a request
   * sent beside another keeps the operation's deadline.
   */
  static <T> Supplier<T> carried(Supplier<T> work) {
    Deadline deadline = BOUND.get();
    return deadline == null ? work : () -> bound(deadline, work);
  }

  ClusterHttp(List<URI> nodes, Duration timeout) {
    this(nodes, timeout, ClusterSecurity.NONE);
  }

  ClusterHttp(OpenSearchSettings settings) {
    this(settings.urls(), settings.requestTimeout(), settings.security());
  }

  ClusterHttp(List<URI> nodes, Duration timeout, ClusterSecurity security) {
    this.nodes = List.copyOf(nodes);
    this.timeout = timeout;
    this.authorization = security.authorization();
    HttpClient.Builder b =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1);
    SSLContext tls = security.sslContext();
    if (tls != null) {
      b.sslContext(tls);
    }
    this.client = b.build();
  }

  /**
   * A cluster's answer: its status and JSON body (missing when empty), and whether it answers a
   * request that was sent again after an earlier attempt failed once it may have reached a node
   * ({@code resent}): that attempt may have been applied, so a conditional write refused now (a
   * version conflict, a document already there or gone) may have been refused because of it.
   */
  record Answer(int status, JsonNode body, boolean resent) {
    Answer(int status, JsonNode body) {
      this(status, body, false);
    }

    boolean ok() {
      return status >= 200 && status < 300;
    }

    /**
     * This answer when successful, else UNAVAILABLE naming {@code what} (Quarry's words: never an
     * index, node or OpenSearch error), with the cluster's answer as its cause, for the log.
     */
    Answer require(String what) {
      if (!ok()) {
        throw unavailable(
            what, new ClusterFault(what + ": HTTP " + status + " " + abbreviate(body.toString())));
      }
      return this;
    }
  }

  Answer get(String path) {
    return send("GET", path, null, null);
  }

  Answer json(String method, String path, Object body) {
    try {
      return send(
          method, path, body == null ? null : MAPPER.writeValueAsBytes(body), "application/json");
    } catch (IOException e) {
      throw new IllegalStateException("cannot serialize a request body", e);
    }
  }

  Answer ndjson(String path, byte[] body) {
    return send("POST", path, body, "application/x-ndjson");
  }

  /**
   * UNAVAILABLE for the client: fixed text naming {@code what}; the cluster's words only in {@code
   * cause}.
   */
  static QuarryException unavailable(String what, Throwable cause) {
    return new QuarryException(
        ErrorCode.UNAVAILABLE,
        "the OpenSearch cluster could not complete " + what + "; try again",
        cause);
  }

  Answer send(String method, String path, byte[] body, String contentType) {
    IOException last = null;
    boolean mayHaveLanded = false;
    int start = preferred.get();
    Deadline bound = BOUND.get();
    Deadline deadline = bound != null ? bound : Deadline.after(timeout);
    for (int attempt = 0; attempt < nodes.size() * 2; attempt++) {
      long remaining = deadline.remainingNanos();
      if (remaining <= 0) {
        break;
      }
      int n = (start + attempt) % nodes.size();
      URI uri = nodes.get(n).resolve(path);
      HttpRequest.Builder b =
          HttpRequest.newBuilder(uri)
              .timeout(Duration.ofNanos(attemptNanos(remaining, attempt)))
              .method(
                  method,
                  body == null
                      ? HttpRequest.BodyPublishers.noBody()
                      : HttpRequest.BodyPublishers.ofByteArray(body));
      if (contentType != null) {
        b.header("Content-Type", contentType);
      }
      if (authorization != null) {
        b.header("Authorization", authorization);
      }
      try {
        HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() == 503 && attempt + 1 < nodes.size() * 2) {
          // A node without an elected manager or still recovering: another one may answer.
          last =
              new IOException(
                  "HTTP 503 from "
                      + nodes.get(n)
                      + ": "
                      + abbreviate(new String(r.body(), StandardCharsets.UTF_8)));
          pause(attempt, deadline);
          continue;
        }
        preferred.set(n);
        JsonNode json =
            r.body().length == 0 ? MissingNode.getInstance() : MAPPER.readTree(r.body());
        return new Answer(r.statusCode(), json, mayHaveLanded);
      } catch (IOException e) {
        last = e;
        // A timeout included: the request may have reached the node, which may still apply it.
        mayHaveLanded |= mayHaveLanded(e);
        // The next request starts on the next node, unless another request found one that answers.
        preferred.compareAndSet(n, (n + 1) % nodes.size());
        pause(attempt, deadline);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new QuarryException(
            ErrorCode.UNAVAILABLE, "interrupted while talking to the OpenSearch cluster", e);
      }
    }
    String why =
        deadline.remainingNanos() <= 0
            ? "no OpenSearch node answered within the request's deadline of "
                + timeout.toSeconds()
                + " s"
            : "no OpenSearch node answered";
    throw new QuarryException(
        ErrorCode.UNAVAILABLE,
        "the OpenSearch cluster could not be reached in time; try again",
        new ClusterFault(
            why + ": " + method + " " + path + (last == null ? "" : ": " + last), last));
  }

  /**
   * How long attempt {@code attempt} may wait, {@code remaining} nanoseconds before the deadline:
   * an even share among the nodes this round over them has not tried yet (the last one gets all
   * that remains), at least {@link #MIN_ATTEMPT} when that much remains.
   */
  private long attemptNanos(long remaining, int attempt) {
    int untried = nodes.size() - attempt % nodes.size();
    return Math.max(remaining / untried, Math.min(remaining, MIN_ATTEMPT.toNanos()));
  }

  /**
   * Whether a request that failed with {@code e} may have reached a node: every failure but one to
   * open the connection (refused, or timed out while connecting), where nothing was sent. (The JDK
   * client sends a request that is not a GET or HEAD again only after such a failure to connect, so
   * every resend after a possible delivery is this class's, and is counted here.)
   */
  private static boolean mayHaveLanded(IOException e) {
    return !(e instanceof ConnectException || e instanceof HttpConnectTimeoutException);
  }

  /** A pause before the next round over the nodes, never past {@code deadline}. */
  private void pause(int attempt, Deadline deadline) {
    if (attempt + 1 >= nodes.size()) {
      try {
        long ms =
            Math.min(
                Math.min(2000, 100L << Math.min(attempt, 5)),
                deadline.remainingNanos() / 1_000_000);
        if (ms > 0) {
          Thread.sleep(ms);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  static String abbreviate(String s) {
    return s.length() > 300 ? s.substring(0, 300) + "..." : s;
  }
}
