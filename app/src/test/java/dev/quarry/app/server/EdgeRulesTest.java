package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.corpora.Corpora;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Proxy;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rules every request meets before any corpus is touched: version, routing, authentication,
 * features, content type, size, strict bodies, CORS. The server runs over a {@code Corpora} that
 * fails every call, so each test also proves the request was refused before reaching the corpora.
 */
class EdgeRulesTest {
  static final String TOKEN = "edge-token";
  static final String TOKENS =
      """
      {"tokens": [{"subject": "edge", "token": "edge-token",
                   "grants": [{"corpus": "*", "scopes": ["search", "index", "manage"]}]}]}""";
  static QuarryServer server;
  static QuarryServer noSearchServer;
  static QuarryServer oneAtATimeServer;
  static final HeldSearch HELD_SEARCH = new HeldSearch();
  static ApiClient api;
  static ApiClient noSearch;

  @BeforeAll
  static void start() {
    TokenAuthenticator tokens = TokensFile.parse(TOKENS.getBytes(StandardCharsets.UTF_8));
    ServerConfig config =
        ServerConfig.parse(
            """
        {"cors": {"allowedOrigins": ["https://app.example"]}, "limits": {"maxRequestBytes": 4096}}"""
                .getBytes(StandardCharsets.UTF_8));
    server = QuarryServer.start(unreachableCorpora(), "127.0.0.1", 0, tokens, config);
    api = new ApiClient(server.url());
    ServerConfig off =
        ServerConfig.parse(
            "{\"features\": {\"scoped-retrieval\": false}}".getBytes(StandardCharsets.UTF_8));
    noSearchServer = QuarryServer.start(unreachableCorpora(), "127.0.0.1", 0, tokens, off);
    noSearch = new ApiClient(noSearchServer.url());
    ServerConfig oneAtATime =
        ServerConfig.parse(
            "{\"capacity\": {\"maxInFlight\": 1, \"maxWaiting\": 0}}"
                .getBytes(StandardCharsets.UTF_8));
    oneAtATimeServer =
        QuarryServer.start(HELD_SEARCH.corpora(), "127.0.0.1", 0, tokens, oneAtATime);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (noSearchServer != null) {
      noSearchServer.close();
    }
    if (oneAtATimeServer != null) {
      oneAtATimeServer.close();
    }
  }

  /** A Corpora every call of which fails the test: reaching it means a check came too late. */
  static Corpora unreachableCorpora() {
    return (Corpora)
        Proxy.newProxyInstance(
            Corpora.class.getClassLoader(),
            new Class<?>[] {Corpora.class},
            (proxy, method, args) -> {
              if (method.getName().equals("close")) {
                return null;
              }
              if (method.getName().equals("ingestsDocuments")
                  || method.getName().equals("ingestsPdf")) {
                return false;
              }
              if (method.getName().equals("scoresExactly")) {
                return true; // what the store promises, which /v1/protocol advertises
              }
              throw new AssertionError("the request reached Corpora." + method.getName());
            });
  }

  static void assertError(Answer a, int status, String code) {
    assertEquals(status, a.status(), a::toString);
    assertEquals(code, a.code(), a::toString);
    assertEquals("1.0", a.header("AgenticDriver-Version"), "version header on " + a);
    assertTrue(a.header("Content-Type").startsWith("application/json"), a::toString);
    JsonNode error = a.json().get("error");
    assertTrue(error.get("message").isTextual());
    assertTrue(error.get("retryable").isBoolean());
  }

  @Test
  void protocol_listsVersionFeaturesAndLimits() {
    Answer a = api.get("/v1/protocol").token(TOKEN).send();
    assertEquals(200, a.status(), a::toString);
    assertEquals("1.0", a.header("AgenticDriver-Version"));
    assertEquals("1.0", a.json().get("version").asText());
    assertEquals("[\"1.0\"]", a.json().get("supportedVersions").toString());
    assertEquals(
        List.of("scoped-retrieval", "retrieval-indexing"),
        ApiClient.JSON.convertValue(a.json().get("features"), List.class));
    JsonNode limits = a.json().get("limits");
    for (String name :
        List.of(
            "maxRequestBytes",
            "maxQueryChars",
            "maxTopK",
            "maxSourcesPerSearch",
            "maxTextChars",
            "maxMetadataEntries",
            "maxBatchOperations",
            "maxDocumentBytes",
            "maxDocumentPages",
            "maxExtractedChars")) {
      assertTrue(limits.get(name).isIntegralNumber(), name + " in " + limits);
    }
    assertEquals(4096, limits.get("maxRequestBytes").asLong());
  }

  @Test
  void protocol_withoutToken_isUnauthenticated() {
    assertError(api.get("/v1/protocol").send(), 401, "UNAUTHENTICATED");
  }

  @Test
  void healthz_needsNoToken() {
    Answer a = api.get("/healthz").send();
    assertEquals(200, a.status());
    assertEquals("ok", a.json().get("status").asText());
    assertEquals("1.0", a.header("AgenticDriver-Version"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "1", "1.0.0", "garbage", "0.1"})
  void unsupportedVersion_isRefusedBeforeAuthAndBody(String version) {
    Answer a =
        api.post("/v1/retrieval/search")
            .header("AgenticDriver-Version", version)
            .json("{not json")
            .send();
    assertError(a, 400, "UNSUPPORTED_PROTOCOL_VERSION");
  }

  @Test
  void unsupportedVersion_onUnknownRoute_winsOverNotFound() {
    assertError(
        api.get("/v1/nothing-here").header("AgenticDriver-Version", "2.0").send(),
        400,
        "UNSUPPORTED_PROTOCOL_VERSION");
  }

  @Test
  void explicitVersion10_isAccepted() {
    Answer a = api.get("/v1/protocol").token(TOKEN).header("AgenticDriver-Version", "1.0").send();
    assertEquals(200, a.status(), a::toString);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"/v1/nothing-here", "/", "/v1/retrieval/nothing", "/v1/retrieval/sources/nothing"})
  void unknownRoute_isNotFoundInTheEnvelope(String path) {
    assertError(api.post(path).json("{}").send(), 404, "NOT_FOUND");
  }

  @Test
  void unknownRoute_isNotFoundBeforeAuthentication() {
    assertError(api.get("/v1/retrieval/nothing").send(), 404, "NOT_FOUND");
  }

  @Test
  void wrongMethod_onAnEndpoint_isNotFound() {
    assertError(api.get("/v1/retrieval/search").token(TOKEN).send(), 404, "NOT_FOUND");
  }

  @Test
  void missingToken_isUnauthenticated() {
    Answer a = api.post("/v1/retrieval/search").json("{}").send();
    assertError(a, 401, "UNAUTHENTICATED");
    assertNotNull(a.header("WWW-Authenticate"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Bearer nope",
        "Bearer ",
        "Basic ZWRnZTplZGdl",
        "edge-token",
        "Bearer edge-token2"
      })
  void unknownOrMalformedToken_isUnauthenticated(String header) {
    assertError(
        api.post("/v1/retrieval/search").header("Authorization", header).json("{}").send(),
        401,
        "UNAUTHENTICATED");
  }

  @Test
  void authentication_comesBeforeValidation() {
    assertError(api.post("/v1/retrieval/search").json("{not json").send(), 401, "UNAUTHENTICATED");
  }

  @Test
  void switchedOffFeature_isUnavailableAfterAuthBeforeValidation() {
    assertError(
        noSearch.post("/v1/retrieval/search").token(TOKEN).json("{not json").send(),
        400,
        "RETRIEVAL_UNAVAILABLE");
    assertError(noSearch.post("/v1/retrieval/search").json("{}").send(), 401, "UNAUTHENTICATED");
  }

  @Test
  void switchedOffFeature_isNotAdvertised() {
    JsonNode features = noSearch.get("/v1/protocol").token(TOKEN).send().json().get("features");
    assertEquals("[\"retrieval-indexing\"]", features.toString());
  }

  @Test
  void ingest_withoutExtractors_isUnavailable() {
    assertError(
        api.post("/v1/retrieval/ingest").token(TOKEN).json("{}").send(),
        400,
        "INGESTION_UNAVAILABLE");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/json; charset=latin1",
        "multipart/form-data; boundary=x"
      })
  void wrongContentType_isUnsupportedMediaType(String type) {
    Answer a =
        api.post("/v1/retrieval/search")
            .token(TOKEN)
            .header("Content-Type", type)
            .bytes("{\"corpus\":\"a\",\"query\":\"q\"}".getBytes(StandardCharsets.UTF_8))
            .send();
    assertError(a, 415, "UNSUPPORTED_MEDIA_TYPE");
  }

  @Test
  void declaredLengthOverTheLimit_isTooLarge() {
    String big = "{\"corpus\":\"a\",\"query\":\"" + "x".repeat(5000) + "\"}";
    assertError(api.retrieval("search", TOKEN, big), 413, "REQUEST_TOO_LARGE");
  }

  /** The head of a search request whose body follows in chunks. */
  static final byte[] CHUNKED_SEARCH_HEAD =
      ("POST /v1/retrieval/search HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
              + TOKEN
              + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII);

  @Test
  void chunkedBodyOverTheLimit_isTooLarge() throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      OutputStream out = socket.getOutputStream();
      out.write(CHUNKED_SEARCH_HEAD);
      byte[] chunk = "x".repeat(1000).getBytes(StandardCharsets.US_ASCII);
      try {
        for (int i = 0; i < 10; i++) {
          out.write(("3e8\r\n").getBytes(StandardCharsets.US_ASCII));
          out.write(chunk);
          out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
          out.flush();
        }
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
      } catch (IOException closedEarly) {
        // the server may stop reading once the bound is passed; its answer is still there
      }
      InputStream in = socket.getInputStream();
      String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(response.startsWith("HTTP/1.1 413"), response);
      assertTrue(response.contains("REQUEST_TOO_LARGE"), response);
      assertTrue(response.contains("AgenticDriver-Version: 1.0"), response);
    }
  }

  /**
   * A chunked body that passes the bound while arriving, and goes on arriving after a pause: the
   * endpoint, reading on to drop the rest, must see it. Handed on inside Jetty's demand callback,
   * its read waited for a callback that could not run, and the request never answered.
   */
  @Test
  void chunkedBodyOverTheLimit_stillArriving_isAnsweredTooLarge() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(20_000);
      OutputStream out = socket.getOutputStream();
      out.write(CHUNKED_SEARCH_HEAD);
      // One chunk, then a pause: the server waits for the rest in a demand callback. Then four
      // (5,000 bytes, past the 4,096 bound) and a pause: the request is handed on from that
      // callback, and the endpoint reads on while nothing arrives. Then the rest.
      for (int[] burst : new int[][] {{1, 300}, {4, 500}, {5, 0}}) {
        try {
          for (int i = 0; i < burst[0]; i++) {
            out.write(("3e8\r\n" + "x".repeat(1000) + "\r\n").getBytes(StandardCharsets.US_ASCII));
          }
          if (burst[1] == 0) {
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
          }
          out.flush();
        } catch (IOException closedEarly) {
          break; // the server may stop reading once it has dropped enough; its answer is there
        }
        Thread.sleep(burst[1]);
      }
      String response;
      try {
        response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      } catch (SocketTimeoutException e) {
        throw new AssertionError(
            "no answer in 20 s: the endpoint's read of the body never returned");
      }
      assertTrue(response.startsWith("HTTP/1.1 413"), response);
      assertTrue(response.contains("REQUEST_TOO_LARGE"), response);
    }
  }

  static String raw(byte[] request) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.getOutputStream().write(request);
      socket.getOutputStream().flush();
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void malformedHttp_isAnsweredInTheEnvelopeNotHtml() throws IOException {
    for (String request :
        List.of(
            "GARBAGE\r\n\r\n",
            "GET /v1/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: "
                + "a".repeat(20_000)
                + "\r\nConnection: close\r\n\r\n")) {
      String response = raw(request.getBytes(StandardCharsets.US_ASCII));
      assertTrue(response.startsWith("HTTP/1.1 4"), response);
      assertTrue(response.contains("AgenticDriver-Version: 1.0"), response);
      assertTrue(response.contains("{\"error\":{\"code\":"), response);
      assertFalse(response.contains("<html"), response);
    }
  }

  @Test
  void fullCapacity_isRetryable429() throws Exception {
    ApiClient one = new ApiClient(oneAtATimeServer.url());
    // A search held inside the corpora takes the only place in the gate. Nothing probes the gate
    // before the holder is inside: a probe is itself a search and takes the only place while it
    // runs, so a holder arriving meanwhile is refused 429 at once and the gate is never seen full
    // (this, not a request waiting for a thread, is what once looked like an undispatched holder).
    CompletableFuture<Answer> holder =
        CompletableFuture.supplyAsync(
            () -> one.retrieval("search", TOKEN, "{\"corpus\": \"held\", \"query\": \"q\"}"));
    try {
      assertTrue(
          HELD_SEARCH.entered.await(60, TimeUnit.SECONDS),
          "the held search never reached the corpora");
      Answer refused = one.retrieval("search", TOKEN, "{\"corpus\": \"other\", \"query\": \"q\"}");
      assertError(refused, 429, "CAPACITY");
      assertTrue(refused.json().at("/error/retryable").asBoolean());
      // reads are not gated
      assertError(one.retrieval("corpora/read", TOKEN, "{}"), 400, "INVALID_REQUEST");
    } finally {
      HELD_SEARCH.release.countDown();
    }
    assertError(holder.get(60, TimeUnit.SECONDS), 503, "UNAVAILABLE");
  }

  /**
   * Holds the first search that reaches it until released, then refuses it; any other call fails
   * the test.
   */
  static final class HeldSearch {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    Corpora corpora() {
      Corpora unreachable = unreachableCorpora();
      return (Corpora)
          Proxy.newProxyInstance(
              Corpora.class.getClassLoader(),
              new Class<?>[] {Corpora.class},
              (proxy, method, args) -> {
                if (!method.getName().equals("search")) {
                  try {
                    return method.invoke(unreachable, args);
                  } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                  }
                }
                entered.countDown();
                release.await(60, TimeUnit.SECONDS);
                throw new QuarryException(ErrorCode.UNAVAILABLE, "held by the test");
              });
    }
  }

  @Test
  void overlongIdempotencyKey_isInvalidNamingTheHeader() {
    Answer a =
        api.post("/v1/retrieval/sources/index")
            .token(TOKEN)
            .header("Idempotency-Key", "k".repeat(300))
            .json("{\"corpus\": \"c1\", \"source\": \"a\", \"text\": \"x\"}")
            .send();
    assertError(a, 400, "INVALID_REQUEST");
    assertEquals("Idempotency-Key", a.field());
  }

  @Test
  void malformedJson_namesTheBody() {
    Answer a = api.retrieval("search", TOKEN, "{\"corpus\": ");
    assertError(a, 400, "INVALID_REQUEST");
    assertEquals("$", a.field());
  }

  @Test
  void noStackTraceOrHtml_inAnyError() {
    for (Answer a :
        List.of(
            api.retrieval("search", TOKEN, "[1,2]"),
            api.get("/nope").send(),
            api.retrieval("search", "bad", "{}"))) {
      assertFalse(a.body().contains("<html"), a::toString);
      assertFalse(a.body().contains("at dev.quarry"), a::toString);
    }
  }

  @Test
  void corsPreflight_fromAnAllowedOrigin_allowsTheContractHeaders() {
    Answer a =
        api.request("OPTIONS", "/v1/retrieval/search")
            .header("Origin", "https://app.example")
            .header("Access-Control-Request-Method", "POST")
            .header(
                "Access-Control-Request-Headers",
                "authorization, content-type, agenticdriver-version")
            .send();
    assertEquals(204, a.status(), a::toString);
    assertEquals("1.0", a.header("AgenticDriver-Version"));
    assertEquals("https://app.example", a.header("Access-Control-Allow-Origin"));
    String allowed = a.header("Access-Control-Allow-Headers");
    for (String h :
        List.of(
            "Authorization",
            "Content-Type",
            "AgenticDriver-Version",
            "AgenticDriver-Accept-Optional-Events",
            "Idempotency-Key")) {
      assertTrue(allowed.contains(h), allowed);
    }
  }

  @Test
  void corsResponse_exposesTheVersionHeader() {
    Answer a = api.get("/v1/protocol").token(TOKEN).header("Origin", "https://app.example").send();
    assertEquals("https://app.example", a.header("Access-Control-Allow-Origin"));
    assertTrue(a.header("Access-Control-Expose-Headers").contains("AgenticDriver-Version"));
  }

  @Test
  void corsPreflight_fromAnotherOrigin_getsNoAllowance() {
    Answer a =
        api.request("OPTIONS", "/v1/retrieval/search")
            .header("Origin", "https://evil.example")
            .header("Access-Control-Request-Method", "POST")
            .send();
    assertEquals("1.0", a.header("AgenticDriver-Version"));
    assertNull(a.header("Access-Control-Allow-Origin"));
  }
}
