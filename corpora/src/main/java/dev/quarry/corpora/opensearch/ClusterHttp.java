package dev.quarry.corpora.opensearch;

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
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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
 */
final class ClusterHttp {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private final List<URI> nodes;
  private final HttpClient client;
  private final Duration timeout;
  /** The node that answered last: tried first next time. */
  private final AtomicInteger preferred = new AtomicInteger();

  /** The {@code Authorization} header sent with every request; null for none. */
  private final String authorization;

  /** The longest one attempt of a request may take. */
  Duration timeout() {
    return timeout;
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
    HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).version(HttpClient.Version.HTTP_1_1);
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

    /** This answer when successful, else UNAVAILABLE naming {@code what}. */
    Answer require(String what) {
      if (!ok()) {
        throw new QuarryException(ErrorCode.UNAVAILABLE,
            what + " failed on the OpenSearch cluster: HTTP " + status + " " + abbreviate(body.toString()));
      }
      return this;
    }
  }

  Answer get(String path) {
    return send("GET", path, null, null);
  }

  Answer json(String method, String path, Object body) {
    try {
      return send(method, path, body == null ? null : MAPPER.writeValueAsBytes(body), "application/json");
    } catch (IOException e) {
      throw new IllegalStateException("cannot serialize a request body", e);
    }
  }

  Answer ndjson(String path, byte[] body) {
    return send("POST", path, body, "application/x-ndjson");
  }

  Answer send(String method, String path, byte[] body, String contentType) {
    IOException last = null;
    boolean mayHaveLanded = false;
    int start = preferred.get();
    for (int attempt = 0; attempt < nodes.size() * 2; attempt++) {
      int n = (start + attempt) % nodes.size();
      URI uri = nodes.get(n).resolve(path);
      HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout)
          .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
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
          last = new IOException("HTTP 503 from " + nodes.get(n));
          pause(attempt);
          continue;
        }
        preferred.set(n);
        JsonNode json = r.body().length == 0 ? MissingNode.getInstance() : MAPPER.readTree(r.body());
        return new Answer(r.statusCode(), json, mayHaveLanded);
      } catch (IOException e) {
        last = e;
        mayHaveLanded |= mayHaveLanded(e);
        pause(attempt);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new QuarryException(ErrorCode.UNAVAILABLE, "interrupted while talking to the OpenSearch cluster", e);
      }
    }
    throw new QuarryException(ErrorCode.UNAVAILABLE,
        "no OpenSearch node answered " + method + " " + path + ": " + (last == null ? "" : last.getMessage()), last);
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

  private void pause(int attempt) {
    if (attempt + 1 >= nodes.size()) {
      try {
        Thread.sleep(Math.min(2000, 100L << Math.min(attempt, 5)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  static String abbreviate(String s) {
    return s.length() > 300 ? s.substring(0, 300) + "..." : s;
  }
}
