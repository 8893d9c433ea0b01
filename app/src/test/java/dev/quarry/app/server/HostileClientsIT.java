package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.api.Authenticator;
import dev.quarry.api.QuarryPlugin;
import dev.quarry.app.ServerProcess;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.engine.SourceOperation;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import io.javalin.Javalin;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a hostile client (or a careless operator) tries against a running server: grants that say
 * less than they seem to, bodies that never finish or lie about their length, text that is not
 * strict UTF-8. The server runs as users run it, {@code quarry serve} in its own JVM.
 */
class HostileClientsIT {
  static final String ADMIN = TestTokens.ADMIN;

  /**
   * How long one search may take while slow clients hold connections. A functional bound, not a
   * speed measure: before the fix such searches waited ten seconds for a place and got 429.
   */
  static final long SEARCH_DEADLINE_MILLIS = 1000;

  static final int SLOW_CLIENTS = 100;

  @TempDir static Path dir;
  static ServerProcess server;
  static ApiClient api;

  @BeforeAll
  static void start() throws IOException {
    // A tokens file readable by everyone: accepted, with a warning (checked below).
    Path tokens = Files.writeString(dir.resolve("tokens.json"), TestTokens.FILE);
    Files.setPosixFilePermissions(tokens, PosixFilePermissions.fromString("rw-r--r--"));
    server = ServerProcess.serve(dir.resolve("data"), tokens, null);
    api = server.client();
    ApiClient.ok(api.retrieval("corpora/create", ADMIN, "{\"corpus\": \"wire\"}"));
    ApiClient.ok(
        api.retrieval(
            "sources/index",
            ADMIN,
            "{\"corpus\": \"wire\", \"source\": \"public/a\", \"text\": \"parental leave lasts sixteen weeks\"}"));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  // D1: grants

  @Test
  void tokensFile_withAnEmptySourcesList_stopsStartUpNamingTheEntry() throws IOException {
    Path tokens =
        Files.writeString(
            dir.resolve("empty-sources.json"),
            """
        {"tokens": [{"subject": "a", "token": "t",
          "grants": [{"corpus": "a", "sources": [], "scopes": ["search"]}]}]}""");
    Files.setPosixFilePermissions(tokens, PosixFilePermissions.fromString("rw-------"));
    ServerProcess.Ended ended =
        ServerProcess.run(
            List.of(
                "serve",
                "--data",
                dir.resolve("never").toString(),
                "--port",
                "0",
                "--tokens",
                tokens.toString()));
    assertEquals(2, ended.exitCode(), ended.stderr());
    assertTrue(
        ended
            .stderr()
            .contains("tokens[0].grants[0].sources: an empty sources list grants no source"),
        ended.stderr());
  }

  @Test
  void hostAuthenticator_buildingAGrantWithNoSources_failsClosed(@TempDir Path data)
      throws IOException {
    try (Corpora corpora = Corpora.builder().dataDir(data).build()) {
      Access admin = new Access("admin", List.of(new Grant("*", null, EnumSet.allOf(Scope.class))));
      corpora.createCorpus(admin, "a", null);
      corpora.mutate(
          admin,
          "a",
          List.of(SourceOperation.Index.text("y/secret", "Secret", "leave secret", null)),
          null,
          null);
      // A host that maps "this user may see no sources" to an empty list.
      Authenticator host =
          token ->
              Optional.of(
                  new Access("user", List.of(new Grant("a", List.of(), EnumSet.of(Scope.SEARCH)))));
      Javalin app =
          Javalin.create(
                  c -> {
                    c.startup.showJavalinBanner = false;
                    c.registerPlugin(new QuarryPlugin(p -> p.corpora(corpora).authenticator(host)));
                  })
              .start("127.0.0.1", 0);
      try {
        Answer a =
            new ApiClient("http://127.0.0.1:" + app.port())
                .retrieval("search", "any", "{\"corpus\": \"a\", \"query\": \"leave\"}");
        assertEquals(500, a.status(), a::toString);
        assertEquals("INTERNAL", a.code(), a::toString);
        assertFalse(a.body().contains("y/secret"), a::toString);
      } finally {
        app.stop();
      }
    }
  }

  // D2: slow and over-declared bodies

  @Test
  void slowBodies_holdNoCapacity_andAreCutOffTyped() throws Exception {
    String search = "{\"corpus\": \"wire\", \"query\": \"leave\"}";
    for (int i = 0; i < 3; i++) {
      ApiClient.ok(api.retrieval("search", ADMIN, search)); // warm
    }
    List<Socket> slow = new ArrayList<>();
    try {
      for (int i = 0; i < SLOW_CLIENTS; i++) {
        Socket s = new Socket("127.0.0.1", port());
        s.getOutputStream()
            .write(
                ("POST /v1/retrieval/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                        + ADMIN
                        + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
                    .getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        slow.add(s);
      }
      // While they trickle (or stall), everyone else is served at once.
      for (int i = 0; i < 10; i++) {
        long started = System.nanoTime();
        Answer a = api.post("/v1/retrieval/search").token(ADMIN).json(search).send();
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertEquals(200, a.status(), a::toString);
        assertTrue(
            millis <= SEARCH_DEADLINE_MILLIS,
            "search " + i + " took " + millis + " ms beside slow clients");
        for (int k = 0; k < slow.size(); k += 2) {
          trickle(slow.get(k)); // half send a byte now and then, half send nothing more
        }
      }
      // A trickling body is cut off, typed, once it falls below the minimum rate.
      Socket trickler = slow.get(0);
      trickler.setSoTimeout(500);
      String answer = null;
      for (int i = 0; i < 60 && answer == null; i++) {
        trickle(trickler);
        answer = readIfAny(trickler);
      }
      assertTrue(answer != null && answer.startsWith("HTTP/1.1 408"), String.valueOf(answer));
      assertTrue(
          answer.contains("\"IDLE_TIMEOUT\"") && answer.contains("AgenticDriver-Version: 1.0"),
          answer);
      assertTrue(server.stderr().contains("cut off a request body"), server.stderr());
    } finally {
      for (Socket s : slow) {
        s.close();
      }
    }
  }

  @Test
  void slowUpload_isCutOffTyped() throws IOException {
    // Uploads stream on a request thread, held to the same minimum rate: one that trickles is cut
    // off.
    try (Socket s = new Socket("127.0.0.1", port())) {
      s.getOutputStream()
          .write(
              ("POST /v1/retrieval/ingest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                      + ADMIN
                      + "\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n--b\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      s.setSoTimeout(500);
      String answer = null;
      for (int i = 0; i < 60 && answer == null; i++) {
        trickle(s);
        answer = readIfAny(s);
      }
      assertTrue(answer != null && answer.startsWith("HTTP/1.1 408"), String.valueOf(answer));
      assertTrue(answer.contains("\"IDLE_TIMEOUT\""), answer);
    }
  }

  @Test
  void bodyAfter100Continue_isServed() throws IOException {
    // curl waits for "100 Continue" before sending a larger body: reading it must not wait for the
    // body.
    byte[] body = "{\"corpus\": \"wire\", \"query\": \"leave\"}".getBytes(StandardCharsets.UTF_8);
    try (Socket s = new Socket("127.0.0.1", port())) {
      s.setSoTimeout(30_000);
      s.getOutputStream()
          .write(
              ("POST /v1/retrieval/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                      + ADMIN
                      + "\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nConnection: close\r\nContent-Length: "
                      + body.length
                      + "\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      String interim = readHead(s.getInputStream());
      assertTrue(interim.startsWith("HTTP/1.1 100"), interim);
      s.getOutputStream().write(body);
      s.getOutputStream().flush();
      String answer = readHead(s.getInputStream());
      assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
      assertTrue(readRest(s.getInputStream()).contains("public/a"));
    }
  }

  @Test
  void overDeclaredBody_isAnsweredAtOnce() throws IOException {
    try (Socket s = new Socket("127.0.0.1", port())) {
      s.getOutputStream()
          .write(
              ("POST /v1/retrieval/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                      + ADMIN
                      + "\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n{\"corpus\": \"wi")
                  .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      s.setSoTimeout((int) SEARCH_DEADLINE_MILLIS);
      String answer = readHead(s.getInputStream());
      assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
      assertTrue(answer.contains("AgenticDriver-Version: 1.0"), answer);
    }
  }

  @Test
  void overDeclaredUpload_isAnsweredAtOnce() throws IOException {
    try (Socket s = new Socket("127.0.0.1", port())) {
      s.getOutputStream()
          .write(
              ("POST /v1/retrieval/ingest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                      + ADMIN
                      + "\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 107374182400\r\n\r\n--b\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      s.setSoTimeout((int) SEARCH_DEADLINE_MILLIS);
      String answer = readHead(s.getInputStream());
      assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
    }
  }

  // D3: strict UTF-8

  @Test
  void overlongUtf8_inASourceId_isInvalid_andStoresNothing() {
    for (String hex : List.of("C0AF", "E080AF", "C0AEC0AE", "EDA080", "F4908080")) {
      byte[] body =
          concat(
              "{\"corpus\": \"wire\", \"source\": \"u",
              HexFormat.of().parseHex(hex),
              "x\", \"text\": \"abc\"}");
      Answer a =
          api.post("/v1/retrieval/sources/index")
              .token(ADMIN)
              .header("Content-Type", "application/json")
              .bytes(body)
              .send();
      assertEquals(400, a.status(), hex + ": " + a);
      assertEquals("INVALID_REQUEST", a.code(), a::toString);
    }
    JsonNode sources =
        ApiClient.ok(
                api.retrieval("sources/list", ADMIN, "{\"corpus\": \"wire\", \"prefix\": \"u\"}"))
            .get("sources");
    assertEquals(0, sources.size(), sources::toString);
  }

  @Test
  void utf16Body_isInvalid() {
    byte[] body =
        "{\"corpus\": \"wire\", \"query\": \"leave\"}".getBytes(StandardCharsets.UTF_16LE);
    Answer a =
        api.post("/v1/retrieval/search")
            .token(ADMIN)
            .header("Content-Type", "application/json")
            .bytes(body)
            .send();
    assertEquals(400, a.status(), a::toString);
    assertEquals("INVALID_REQUEST", a.code(), a::toString);
    assertEquals("$", a.field(), a::toString);
  }

  @Test
  void loneEscapedSurrogate_isInvalidInAnyField() {
    Answer title =
        api.retrieval(
            "sources/index",
            ADMIN,
            "{\"corpus\": \"wire\", \"source\": \"public/s\", \"title\": \"a\\ud800\", \"text\": \"abc\"}");
    assertEquals(400, title.status(), title::toString);
    assertEquals("title", title.field(), title::toString);
    Answer query =
        api.retrieval("search", ADMIN, "{\"corpus\": \"wire\", \"query\": \"leave \\udc00\"}");
    assertEquals(400, query.status(), query::toString);
    assertEquals("query", query.field(), query::toString);
  }

  @Test
  void overlongUtf8_inTheUploadsRequestPart_isInvalid() {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(
        ("--b\r\nContent-Disposition: form-data; name=\"request\"\r\n\r\n")
            .getBytes(StandardCharsets.UTF_8));
    body.writeBytes(
        concat("{\"corpus\": \"wire\", \"source\": \"u", HexFormat.of().parseHex("C0AF"), "x\"}"));
    body.writeBytes(
        ("\r\n--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\nhello\r\n--b--\r\n")
            .getBytes(StandardCharsets.UTF_8));
    Answer a =
        api.post("/v1/retrieval/ingest")
            .token(ADMIN)
            .header("Content-Type", "multipart/form-data; boundary=b")
            .bytes(body.toByteArray())
            .send();
    assertEquals(400, a.status(), a::toString);
    assertEquals("INVALID_REQUEST", a.code(), a::toString);
  }

  // The tokens file's permissions

  @Test
  void tokensFileReadableByOthers_isAcceptedWithAWarning() {
    assertTrue(server.stderr().contains("can be read or changed by other users"), server.stderr());
  }

  // helpers

  static int port() {
    return URI.create(server.url()).getPort();
  }

  static byte[] concat(String before, byte[] raw, String after) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(before.getBytes(StandardCharsets.UTF_8));
    out.writeBytes(raw);
    out.writeBytes(after.getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  /** Sends one more byte of a JSON body (spaces), if the server still takes it. */
  static void trickle(Socket s) {
    try {
      OutputStream out = s.getOutputStream();
      out.write(' ');
      out.flush();
    } catch (IOException cutOff) {
      // the server closed it: what it answered is still there to read
    }
  }

  /** The whole answer on {@code s}, or null when none has come within its read timeout. */
  static String readIfAny(Socket s) throws IOException {
    try {
      return readHead(s.getInputStream()) + readRest(s.getInputStream());
    } catch (SocketTimeoutException notYet) {
      return null;
    }
  }

  /** The status line and headers of an HTTP answer. */
  static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int last4 = 0;
    int c;
    while ((c = in.read()) != -1) {
      head.write(c);
      last4 = (last4 << 8) | c;
      if (last4 == 0x0d0a0d0a) {
        break;
      }
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  static String readRest(InputStream in) throws IOException {
    ByteArrayOutputStream rest = new ByteArrayOutputStream();
    byte[] buffer = new byte[4096];
    try {
      int n;
      while ((n = in.read(buffer)) != -1) {
        rest.write(buffer, 0, n);
        if (rest.toString(StandardCharsets.UTF_8).contains("}}")) {
          break;
        }
      }
    } catch (SocketTimeoutException | java.net.SocketException partial) {
      // what arrived is the answer
    }
    return rest.toString(StandardCharsets.UTF_8);
  }
}
