package dev.quarry.cluster;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * A plain HTTP forwarder on loopback in front of a test node, which can lose one request's answer:
 * the request it is told to catch is forwarded to the node (which applies it) and its connection is
 * then closed without an answer, as when a node dies after applying a write or the network drops
 * the answer; or it is not forwarded at all, and the connection closed just the same (the front
 * cannot tell the two apart); once, or every time until told to stop. Every other request is
 * forwarded as it is.
 */
final class LosingProxy implements AutoCloseable {
  /** A request as the proxy saw it: its method, path with query, and body as text. */
  record Request(String method, String path, String body) {}

  /**
   * What to do with the next request that {@code which} matches, or with every one ({@code every}).
   */
  private record Rule(
      Predicate<Request> which, boolean forward, boolean every, Runnable meanwhile) {}

  private final URI node;
  private final HttpServer server;
  private final ExecutorService threads = Executors.newFixedThreadPool(4);
  private final HttpClient forward =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final AtomicReference<Rule> rule = new AtomicReference<>();
  private final AtomicInteger lost = new AtomicInteger();

  private LosingProxy(URI node) throws IOException {
    this.node = node;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(threads);
    server.start();
  }

  /** A proxy in front of {@code node}, started. */
  static LosingProxy before(URI node) throws IOException {
    return new LosingProxy(node);
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
  }

  /**
   * Forwards the next request {@code which} matches, once, and loses the node's answer: {@code
   * meanwhile} runs after the node answered and before the connection is closed.
   */
  void loseAnswerOfNext(Predicate<Request> which, Runnable meanwhile) {
    rule.set(new Rule(which, true, false, meanwhile));
  }

  void loseAnswerOfNext(Predicate<Request> which) {
    loseAnswerOfNext(which, () -> {});
  }

  /**
   * Closes the connection of the next request {@code which} matches, once, without forwarding it;
   * {@code meanwhile} runs first.
   */
  void dropNext(Predicate<Request> which, Runnable meanwhile) {
    rule.set(new Rule(which, false, false, meanwhile));
  }

  /** Forwards every request {@code which} matches and loses each answer, until {@link #stop}. */
  void loseAnswersOfEvery(Predicate<Request> which) {
    rule.set(new Rule(which, true, true, () -> {}));
  }

  /**
   * Closes the connection of every request {@code which} matches without forwarding it, until
   * {@link #stop}.
   */
  void dropEvery(Predicate<Request> which) {
    rule.set(new Rule(which, false, true, () -> {}));
  }

  /** Forwards every request as it is from now on. */
  void stop() {
    rule.set(null);
  }

  /** How many requests were caught so far (their answers lost, or never forwarded). */
  int caught() {
    return lost.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    byte[] body = exchange.getRequestBody().readAllBytes();
    Request seen =
        new Request(
            exchange.getRequestMethod(),
            exchange.getRequestURI().toString(),
            new String(body, StandardCharsets.UTF_8));
    Rule r = rule.get();
    boolean catchIt =
        r != null && r.which().test(seen) && (r.every() || rule.compareAndSet(r, null));
    HttpResponse<byte[]> answer = catchIt && !r.forward() ? null : send(exchange, body);
    if (catchIt) {
      lost.incrementAndGet();
      r.meanwhile().run();
      // Thrown out of the handler (the exchange left open), this closes the connection without an
      // answer.
      throw new IOException("the answer to " + seen.method() + " " + seen.path() + " is lost");
    }
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    byte[] out = seen.method().equals("HEAD") ? new byte[0] : answer.body();
    exchange.sendResponseHeaders(answer.statusCode(), out.length == 0 ? -1 : out.length);
    if (out.length > 0) {
      try (OutputStream o = exchange.getResponseBody()) {
        o.write(out);
      }
    }
    exchange.close();
  }

  /**
   * The request {@code exchange} received, with its {@code body}, addressed to {@code node}
   * instead.
   */
  static HttpRequest forwarded(HttpExchange exchange, URI node, byte[] body) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(node.resolve(exchange.getRequestURI().toString()))
            .method(
                exchange.getRequestMethod(),
                body.length == 0
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    String type = exchange.getRequestHeaders().getFirst("Content-Type");
    if (type != null) {
      b.header("Content-Type", type);
    }
    return b.build();
  }

  private HttpResponse<byte[]> send(HttpExchange exchange, byte[] body) throws IOException {
    try {
      return forward.send(forwarded(exchange, node, body), HttpResponse.BodyHandlers.ofByteArray());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
