package dev.quarry.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.testing.OpenApiContract;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The HttpClient of the client's tests against a real server: it passes every answer through
 * unchanged, as the client reads it (streamed), and holds it to openapi.yaml once it has arrived
 * whole, as {@code ApiClient} does for the API's tests. A violation is kept (an answer completes on
 * the HttpClient's own threads, where a thrown error would be lost) and {@link #assertNoViolations}
 * fails the test class with it.
 */
final class ContractCheckingHttpClient extends HttpClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient delegate;
  private final List<String> violations = new CopyOnWriteArrayList<>();

  ContractCheckingHttpClient(HttpClient delegate) {
    this.delegate = delegate;
  }

  /** A client as {@link QuarryClient.Builder#build} makes one by default. */
  static ContractCheckingHttpClient standard() {
    return new ContractCheckingHttpClient(
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10))
            .version(HttpClient.Version.HTTP_1_1)
            .build());
  }

  void assertNoViolations() {
    if (!violations.isEmpty()) {
      throw new AssertionError(
          "answers the client received that openapi.yaml does not describe:\n"
              + String.join("\n", violations));
    }
  }

  @Override
  public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
      throws IOException, InterruptedException {
    return delegate.send(request, checking(request, handler));
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    return delegate.sendAsync(request, checking(request, handler));
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpRequest request,
      HttpResponse.BodyHandler<T> handler,
      HttpResponse.PushPromiseHandler<T> push) {
    return delegate.sendAsync(request, checking(request, handler), push);
  }

  private <T> HttpResponse.BodyHandler<T> checking(
      HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    return info -> new Tee<>(handler.apply(info), bytes -> check(request, info, bytes));
  }

  private void check(HttpRequest request, HttpResponse.ResponseInfo info, byte[] body) {
    String contentType = info.headers().firstValue("Content-Type").orElse(null);
    String path = request.uri().getPath();
    try {
      JsonNode json = null;
      if (contentType != null && contentType.startsWith("application/json") && body.length > 0) {
        json = JSON.readTree(body);
      }
      OpenApiContract.get().check(request.method(), path, info.statusCode(), contentType, json);
      OpenApiContract.get()
          .checkEvents(
              request.method(),
              path,
              info.statusCode(),
              contentType,
              new String(body, StandardCharsets.UTF_8));
    } catch (AssertionError | IOException e) {
      violations.add(e.getMessage());
    }
  }

  /**
   * Hands every buffer on to the client's own subscriber, keeping a copy; checks the copy at the
   * end.
   */
  private static final class Tee<T> implements HttpResponse.BodySubscriber<T> {
    private final HttpResponse.BodySubscriber<T> downstream;
    private final java.util.function.Consumer<byte[]> whole;
    private final ByteArrayOutputStream copy = new ByteArrayOutputStream();

    Tee(HttpResponse.BodySubscriber<T> downstream, java.util.function.Consumer<byte[]> whole) {
      this.downstream = downstream;
      this.whole = whole;
    }

    @Override
    public CompletionStage<T> getBody() {
      return downstream.getBody();
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      downstream.onSubscribe(subscription);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
      synchronized (copy) {
        for (ByteBuffer b : buffers) {
          ByteBuffer view = b.duplicate();
          byte[] bytes = new byte[view.remaining()];
          view.get(bytes);
          copy.writeBytes(bytes);
        }
      }
      downstream.onNext(buffers);
    }

    @Override
    public void onError(Throwable error) {
      downstream.onError(error); // an answer cut short (a cancelled run) is not checked
    }

    @Override
    public void onComplete() {
      byte[] bytes;
      synchronized (copy) {
        bytes = copy.toByteArray();
      }
      whole.accept(bytes);
      downstream.onComplete();
    }
  }

  // ----- the rest is the delegate's

  @Override
  public Optional<CookieHandler> cookieHandler() {
    return delegate.cookieHandler();
  }

  @Override
  public Optional<Duration> connectTimeout() {
    return delegate.connectTimeout();
  }

  @Override
  public Redirect followRedirects() {
    return delegate.followRedirects();
  }

  @Override
  public Optional<ProxySelector> proxy() {
    return delegate.proxy();
  }

  @Override
  public SSLContext sslContext() {
    return delegate.sslContext();
  }

  @Override
  public SSLParameters sslParameters() {
    return delegate.sslParameters();
  }

  @Override
  public Optional<Authenticator> authenticator() {
    return delegate.authenticator();
  }

  @Override
  public Version version() {
    return delegate.version();
  }

  @Override
  public Optional<Executor> executor() {
    return delegate.executor();
  }
}
