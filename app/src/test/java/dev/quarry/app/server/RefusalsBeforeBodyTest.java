package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.testing.TestTokens;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Over raw sockets on loopback: a request refused by a check that needs only its headers is
 * answered at once, whether or not its body ever comes; a body that stops arriving is {@code 408
 * IDLE_TIMEOUT} in the envelope; and requests Jetty itself refuses while reading them carry a
 * request id like every other answer. The servers run over corpora that fail every call, so no
 * refusal here reached them.
 */
class RefusalsBeforeBodyTest {
  /**
   * Far under the 30 s idle timeout the refusals used to wait for, and far over what answering a
   * refusal takes on a loaded machine: a functional bound, not a speed measure.
   */
  static final long AT_ONCE_MILLIS = 10_000;

  /**
   * The idle timeout of the server that sees stalled bodies: short, so the test does not wait 30 s.
   */
  static final Duration SHORT_IDLE = Duration.ofSeconds(2);

  /** A declared body within maxRequestBytes, of which nothing is sent. */
  static final String NEVER_SENT = "Content-Length: 1000000\r\n";

  static final Pattern REQUEST_ID = Pattern.compile("\r\nX-Request-Id: [0-9a-zA-Z._-]{1,128}\r\n");

  static QuarryServer server;
  static QuarryServer noSearchServer;
  static QuarryServer shortIdleServer;
  static QuarryServer ingestingServer;
  @TempDir static Path dir;

  @BeforeAll
  static void start() throws IOException {
    TokenAuthenticator tokens =
        TokensFile.parse(EdgeRulesTest.TOKENS.getBytes(StandardCharsets.UTF_8));
    server =
        QuarryServer.start(
            EdgeRulesTest.unreachableCorpora(), "127.0.0.1", 0, tokens, ServerConfig.DEFAULT);
    noSearchServer =
        QuarryServer.start(
            EdgeRulesTest.unreachableCorpora(),
            "127.0.0.1",
            0,
            tokens,
            ServerConfig.parse(
                "{\"features\": {\"scoped-retrieval\": false}}".getBytes(StandardCharsets.UTF_8)));
    // These two over real corpora, with extractors and jobs: the multipart endpoints and OpenAI's
    // API are on.
    TokenAuthenticator testTokens = TokensFile.read(TestTokens.write(dir));
    shortIdleServer =
        QuarryServer.start(
            dir.resolve("short-idle"),
            "127.0.0.1",
            0,
            testTokens,
            ServerConfig.DEFAULT,
            SHORT_IDLE);
    ingestingServer =
        QuarryServer.start(dir.resolve("data"), "127.0.0.1", 0, testTokens, ServerConfig.DEFAULT);
  }

  @AfterAll
  static void stop() {
    for (QuarryServer s :
        new QuarryServer[] {server, noSearchServer, shortIdleServer, ingestingServer}) {
      if (s != null) {
        s.close();
      }
    }
  }

  /** A search's headers, with {@code extra} header lines, declaring a body that is never sent. */
  static String headersOnly(String path, String extra) {
    return "POST " + path + " HTTP/1.1\r\nHost: x\r\n" + extra + NEVER_SENT + "\r\n";
  }

  static final String AUTH = "Authorization: Bearer " + EdgeRulesTest.TOKEN + "\r\n";
  static final String ADMIN = "Authorization: Bearer " + TestTokens.ADMIN + "\r\n";
  static final String JSON = "Content-Type: application/json\r\n";
  static final String MCP_ACCEPT = "Accept: application/json, text/event-stream\r\n";

  @Test
  void unsupportedVersion_isAnsweredAtOnce_withoutTheBody() throws IOException {
    assertRefusedAtOnce(
        server,
        headersOnly("/v1/retrieval/search", "AgenticDriver-Version: 2.0\r\n" + AUTH + JSON),
        400,
        "UNSUPPORTED_PROTOCOL_VERSION");
  }

  @Test
  void unknownRoute_isAnsweredAtOnce_withoutTheBody() throws IOException {
    assertRefusedAtOnce(
        server, headersOnly("/v1/retrieval/no-such-endpoint", AUTH + JSON), 404, "NOT_FOUND");
    assertRefusedAtOnce(server, headersOnly("/no/such/path", AUTH + JSON), 404, "NOT_FOUND");
  }

  @Test
  void missingOrUnknownToken_isAnsweredAtOnce_withoutTheBody() throws IOException {
    assertRefusedAtOnce(server, headersOnly("/v1/retrieval/search", JSON), 401, "UNAUTHENTICATED");
    assertRefusedAtOnce(
        server,
        headersOnly("/v1/retrieval/search", "Authorization: Bearer nope\r\n" + JSON),
        401,
        "UNAUTHENTICATED");
    assertRefusedAtOnce(server, headersOnly("/v1/admin/backup", JSON), 401, "UNAUTHENTICATED");
  }

  @Test
  void switchedOffFeature_isAnsweredAtOnce_withoutTheBody() throws IOException {
    assertRefusedAtOnce(
        noSearchServer,
        headersOnly("/v1/retrieval/search", AUTH + JSON),
        400,
        "RETRIEVAL_UNAVAILABLE");
  }

  @Test
  void wrongContentType_isAnsweredAtOnce_withoutTheBody() throws IOException {
    assertRefusedAtOnce(
        server,
        headersOnly("/v1/retrieval/search", AUTH + "Content-Type: text/plain\r\n"),
        415,
        "UNSUPPORTED_MEDIA_TYPE");
  }

  @Test
  void jsonToAMultipartEndpoint_isAnsweredAtOnce_withoutTheBody() throws IOException {
    String auth = "Authorization: Bearer " + TestTokens.ADMIN + "\r\n";
    for (String path :
        List.of("/v1/retrieval/ingest", "/v1/retrieval/jobs/upload", "/v1/retrieval/jobs/submit")) {
      assertRefusedAtOnce(
          ingestingServer, headersOnly(path, auth + JSON), 415, "UNSUPPORTED_MEDIA_TYPE");
    }
  }

  @Test
  void aTrailingSlash_isRoutedAsWithout_beforeTheBodyToo() throws IOException {
    assertRefusedAtOnce(
        server,
        headersOnly("/v1/retrieval/search/", AUTH + "Content-Type: text/plain\r\n"),
        415,
        "UNSUPPORTED_MEDIA_TYPE");
    assertRefusedAtOnce(server, headersOnly("/v1/admin/backup/", AUTH + JSON), 404, "NOT_FOUND");
  }

  @Test
  void backupsOff_isAnsweredAtOnce_withoutTheBody() throws IOException {
    assertRefusedAtOnce(server, headersOnly("/v1/admin/backup", AUTH + JSON), 404, "NOT_FOUND");
  }

  @Test
  void mcpAndOpenAiWithoutAToken_areAnsweredAtOnce_withoutTheBody() throws IOException {
    // Neither is an Endpoint: /mcp is a servlet outside Javalin's routes, OpenAI's API has handlers
    // of its own.
    assertRefusedAtOnce(
        ingestingServer, headersOnly("/mcp", JSON + MCP_ACCEPT), 401, "UNAUTHENTICATED");
    assertRefusedAtOnce(
        ingestingServer, headersOnly("/openai/v1/vector_stores", JSON), 401, "invalid_api_key");
  }

  @Test
  void requestsThatPassTheChecks_keepTheirConnection() throws IOException {
    String auth = "Authorization: Bearer " + TestTokens.ADMIN + "\r\n";
    String initialize =
        """
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25",
         "capabilities": {}, "clientInfo": {"name": "keep-alive", "version": "1"}}}""";
    String search = "{\"query\": \"anything\"}";
    // Each answered on the connection the one before it used, and none says the connection ends.
    try (Socket s = new Socket("127.0.0.1", ingestingServer.port())) {
      s.setSoTimeout((int) AT_ONCE_MILLIS);
      for (String request :
          List.of(
              post("/mcp", auth + JSON + MCP_ACCEPT, initialize),
              post("/mcp", auth + JSON + MCP_ACCEPT, initialize),
              post("/openai/v1/vector_stores", auth + JSON, "{\"name\": \"keep-alive\"}"),
              post("/v1/retrieval/whoami", auth + JSON, "{}"),
              post("/mcp", auth + JSON + MCP_ACCEPT, initialize))) {
        s.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
        s.getOutputStream().flush();
        String head = readAnswer(s.getInputStream());
        assertTrue(head.startsWith("HTTP/1.1 200"), request + " -> " + head);
        assertFalse(
            head.toLowerCase(Locale.ROOT).contains("\r\nconnection: close"),
            request + " -> " + head);
      }
    }
  }

  @Test
  void aRequestThatPassesTheChecks_stillWaitsForItsBody() throws IOException {
    // The checks let it through, so the body is collected first: no answer until it comes.
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.getOutputStream()
          .write(
              headersOnly("/v1/retrieval/whoami", AUTH + JSON).getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      s.setSoTimeout(1000);
      InputStream in = s.getInputStream();
      try {
        int first = in.read();
        throw new AssertionError("answered before its body arrived: " + (char) first);
      } catch (SocketTimeoutException expected) {
        // still waiting for the body, as it should
      }
    }
  }

  @Test
  void stalledBody_isIdleTimeout408_inTheEnvelope() throws IOException {
    try (Socket s = new Socket("127.0.0.1", shortIdleServer.port())) {
      s.getOutputStream()
          .write(
              ("POST /v1/retrieval/search HTTP/1.1\r\nHost: x\r\n"
                      + ADMIN
                      + JSON
                      + "Content-Length: 100\r\n\r\n{\"corpus\": ")
                  .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      s.setSoTimeout((int) (SHORT_IDLE.toMillis() + AT_ONCE_MILLIS));
      String answer = readAll(s.getInputStream());
      assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
      assertTrue(answer.contains("\"code\":\"IDLE_TIMEOUT\""), answer);
      assertTrue(answer.contains("AgenticDriver-Version: 1.0"), answer);
      assertTrue(REQUEST_ID.matcher(answer).find(), answer);
      ClientText.assertNoInternals(body(answer), () -> "a stalled body");
    }
  }

  @Test
  void stalledMcpAndOpenAiBodies_areIdleTimeout408() throws IOException {
    // Collected before their handlers run, as /v1's are: the handler's read fails typed, not with a
    // 500.
    assertStalledBodyIs408("/mcp", MCP_ACCEPT, "\"code\":\"IDLE_TIMEOUT\"");
    assertStalledBodyIs408("/openai/v1/vector_stores", "", "\"code\":\"idle_timeout\"");
  }

  private static void assertStalledBodyIs408(String path, String extra, String code)
      throws IOException {
    try (Socket s = new Socket("127.0.0.1", shortIdleServer.port())) {
      s.getOutputStream()
          .write(
              ("POST "
                      + path
                      + " HTTP/1.1\r\nHost: x\r\n"
                      + ADMIN
                      + JSON
                      + extra
                      + "Content-Length: 100\r\n\r\n{\"jsonrpc\": ")
                  .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      s.setSoTimeout((int) (SHORT_IDLE.toMillis() + AT_ONCE_MILLIS));
      String answer = readAll(s.getInputStream());
      assertTrue(answer.startsWith("HTTP/1.1 408"), path + " -> " + answer);
      assertTrue(answer.contains(code), path + " -> " + answer);
      assertTrue(REQUEST_ID.matcher(answer).find(), answer);
      ClientText.assertNoInternals(body(answer), () -> "a stalled body to " + path);
    }
  }

  @Test
  void malformedHttp_isAnsweredWithARequestId() throws IOException {
    List<String> malformed =
        List.of(
            "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Folded: a\r\n b\r\n\r\n",
            "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bare: a\rb\r\n\r\n",
            "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Nul: a\0b\r\n\r\n",
            "GARBAGE\r\n\r\n",
            "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n");
    for (String request : malformed) {
      try (Socket s = new Socket("127.0.0.1", server.port())) {
        s.setSoTimeout((int) AT_ONCE_MILLIS);
        s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        s.getOutputStream().flush();
        String answer = readAll(s.getInputStream());
        String shown = request.length() > 80 ? request.substring(0, 80) : request;
        assertTrue(answer.startsWith("HTTP/1.1 4"), shown + " -> " + answer);
        assertTrue(REQUEST_ID.matcher(answer).find(), shown + " -> " + answer);
        assertTrue(answer.contains("{\"error\":{\"code\":"), shown + " -> " + answer);
        ClientText.assertNoInternals(body(answer), () -> shown);
      }
    }
  }

  /**
   * Sends {@code request}, and asserts it is refused at once, typed, on a connection closed
   * afterwards.
   */
  static void assertRefusedAtOnce(QuarryServer to, String request, int status, String code)
      throws IOException {
    try (Socket s = new Socket("127.0.0.1", to.port())) {
      s.setSoTimeout((int) AT_ONCE_MILLIS);
      long started = System.nanoTime();
      s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      String answer;
      try {
        answer = readAll(s.getInputStream());
      } catch (SocketTimeoutException e) {
        throw new AssertionError("no answer within " + AT_ONCE_MILLIS + " ms to " + request, e);
      }
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      assertTrue(answer.startsWith("HTTP/1.1 " + status), request + " -> " + answer);
      assertTrue(answer.contains("\"code\":\"" + code + "\""), answer);
      assertTrue(millis < AT_ONCE_MILLIS, "answered after " + millis + " ms");
      // The body was never read: the answer says the connection ends, and it does (readAll saw its
      // end).
      assertTrue(answer.contains("Connection: close"), answer);
      assertTrue(REQUEST_ID.matcher(answer).find(), answer);
      assertEquals(1, answer.split("HTTP/1.1 ", -1).length - 1, answer);
    }
  }

  /** A whole POST of {@code body} to {@code path}, with {@code extra} header lines. */
  static String post(String path, String extra, String body) {
    return "POST "
        + path
        + " HTTP/1.1\r\nHost: x\r\n"
        + extra
        + "Content-Length: "
        + body.getBytes(StandardCharsets.UTF_8).length
        + "\r\n\r\n"
        + body;
  }

  /**
   * Reads one answer framed by its Content-Length or by chunks, leaving the connection at the next
   * answer; returns its status line and headers.
   */
  static String readAnswer(InputStream in) throws IOException {
    String head = readLine(in);
    for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
      head += "\r\n" + line;
    }
    head += "\r\n";
    String lower = head.toLowerCase(Locale.ROOT);
    Matcher length = Pattern.compile("\r\ncontent-length: *(\\d+)\r\n").matcher(lower);
    if (length.find()) {
      in.readNBytes(Integer.parseInt(length.group(1)));
    } else {
      assertTrue(
          lower.contains("\r\ntransfer-encoding: chunked\r\n"),
          "an answer framed by neither: " + head);
      for (int size = Integer.parseInt(readLine(in).strip(), 16);
          size > 0;
          size = Integer.parseInt(readLine(in).strip(), 16)) {
        in.readNBytes(size);
        readLine(in);
      }
      readLine(in);
    }
    return head;
  }

  /** One line, without its CRLF. */
  private static String readLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        throw new AssertionError("the connection ended mid-answer: " + line);
      }
      if (c != '\r') {
        line.append((char) c);
      }
    }
    return line.toString();
  }

  /** Everything the server sends until it closes the connection. */
  static String readAll(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[4096];
    int n;
    while ((n = in.read(buffer)) != -1) {
      out.write(buffer, 0, n);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  static String body(String answer) {
    int at = answer.indexOf("\r\n\r\n");
    return at < 0 ? answer : answer.substring(at + 4);
  }
}
