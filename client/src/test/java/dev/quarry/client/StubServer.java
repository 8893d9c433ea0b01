package dev.quarry.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A tiny server that answers what a test scripts, to show the client what a real Quarry server
 * never sends: other wire versions, fields and error codes from the future, broken event streams.
 */
final class StubServer implements AutoCloseable {
  /** A scripted answer. {@code version} null: no version header at all. */
  record Reply(int status, String version, String contentType, String body) {
    static Reply json(int status, String body) {
      return new Reply(status, "1.0", "application/json", body);
    }

    static Reply events(String... data) {
      StringBuilder sse = new StringBuilder(": a comment line\n\n");
      for (int i = 0; i < data.length; i++) {
        sse.append("id: ")
            .append(i + 1)
            .append('\n')
            .append("data: ")
            .append(data[i])
            .append("\n\n");
      }
      return new Reply(200, "1.0", "text/event-stream", sse.toString());
    }
  }

  /** What the stub received. */
  record Received(String method, String path, Map<String, List<String>> headers, String body) {
    String header(String name) {
      List<String> v = headers.get(name);
      return v == null ? null : v.get(0);
    }
  }

  private final HttpServer server;
  private final Map<String, Function<Received, Reply>> routes = new ConcurrentHashMap<>();
  final List<Received> received = new CopyOnWriteArrayList<>();

  StubServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  StubServer on(String path, Function<Received, Reply> reply) {
    routes.put(path, reply);
    return this;
  }

  StubServer on(String path, Reply reply) {
    return on(path, r -> reply);
  }

  private void handle(HttpExchange ex) throws IOException {
    String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    Received r =
        new Received(
            ex.getRequestMethod(),
            ex.getRequestURI().getPath(),
            Map.copyOf(ex.getRequestHeaders()),
            body);
    received.add(r);
    Function<Received, Reply> route = routes.get(r.path());
    Reply reply =
        route == null
            ? Reply.json(
                404,
                "{\"error\": {\"code\": \"NOT_FOUND\", \"message\": \"stub\", \"retryable\": false}}")
            : route.apply(r);
    if (reply.version() != null) {
      ex.getResponseHeaders().add("AgenticDriver-Version", reply.version());
    }
    ex.getResponseHeaders().add("Content-Type", reply.contentType());
    byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
    ex.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
