package dev.quarry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import dev.quarry.testing.OpenSearchNodes;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's credentials and TLS against a real node behind a real HTTPS server on loopback (the
 * test nodes run without a security plugin): the server has a certificate generated for the test,
 * refuses a request without the expected basic credentials, and forwards the others to the node.
 */
class ClusterSecurityIT {
  private static final String USER = "quarry";
  private static final String PASSWORD = "s3cret:with:colons";

  @TempDir Path dir;
  HttpsServer gate;
  ExecutorService gateThreads;

  /** The Authorization headers the gate received (null for a request without one). */
  final Set<String> seen = ConcurrentHashMap.newKeySet();

  final AtomicInteger requests = new AtomicInteger();
  Path caFile;
  URI node;

  @BeforeEach
  void start() throws Exception {
    node = OpenSearchNodes.single().urls().get(0);
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    Path keystore = dir.resolve("gate.p12");
    caFile = dir.resolve("ca.pem");
    run(
        keytool,
        "-genkeypair",
        "-alias",
        "gate",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=localhost",
        "-ext",
        "san=ip:127.0.0.1,dns:localhost",
        "-validity",
        "2",
        "-keystore",
        keystore.toString(),
        "-storetype",
        "PKCS12",
        "-storepass",
        "changeit",
        "-keypass",
        "changeit");
    run(
        keytool,
        "-exportcert",
        "-rfc",
        "-alias",
        "gate",
        "-keystore",
        keystore.toString(),
        "-storepass",
        "changeit",
        "-file",
        caFile.toString());
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keystore)) {
      ks.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, "changeit".toCharArray());
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(kmf.getKeyManagers(), null, null);
    gate = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    gate.setHttpsConfigurator(new HttpsConfigurator(tls));
    HttpClient forward = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    String expected =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
    gate.createContext(
        "/",
        exchange -> {
          try (exchange) {
            requests.incrementAndGet();
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            seen.add(String.valueOf(auth));
            if (!expected.equals(auth)) {
              reply(exchange, 401, "{\"error\":\"unauthorized\"}".getBytes(StandardCharsets.UTF_8));
              return;
            }
            byte[] body = exchange.getRequestBody().readAllBytes();
            HttpResponse<byte[]> r =
                forward.send(
                    LosingProxy.forwarded(exchange, node, body),
                    HttpResponse.BodyHandlers.ofByteArray());
            reply(
                exchange,
                r.statusCode(),
                exchange.getRequestMethod().equals("HEAD") ? new byte[0] : r.body());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    gateThreads = Executors.newFixedThreadPool(4);
    gate.setExecutor(gateThreads);
    gate.start();
  }

  private static void reply(HttpExchange exchange, int status, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private static void run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
  }

  @AfterEach
  void stop() {
    if (gate != null) {
      gate.stop(0);
      gateThreads.shutdownNow();
    }
  }

  OpenSearchSettings settings(ClusterSecurity security) {
    URI https = URI.create("https://127.0.0.1:" + gate.getAddress().getPort() + "/");
    return OpenSearchSettings.of(List.of(https))
        .withReplicas(0)
        .withPrefix(TestIndexes.prefix("sec"))
        .withSecurity(security);
  }

  @Test
  void overHttpsWithCredentials_everyRequestCarriesThem_andTheStoreWorks() throws Exception {
    Path passwordFile = Files.writeString(dir.resolve("password"), PASSWORD + "\n");
    ClusterSecurity security =
        new ClusterSecurity(USER, ClusterSecurity.readPassword(passwordFile), caFile);
    assertFalse(security.toString().contains(PASSWORD), security.toString());
    try (OpenSearchCorpusStore store =
        new OpenSearchCorpusStore(settings(security), EngineConfig.builder().build())) {
      store.create("docs", CorpusSettings.DEFAULT);
      store.withCorpus(
          "docs",
          ix ->
              ix.apply(
                  new Mutation(
                      List.of(
                          SourceOperation.Index.text(
                              "a", null, "words behind a gate", Metadata.EMPTY)),
                      "tester",
                      null,
                      null)));
      for (Long revision : new Long[] {null, 1L}) {
        List<String> hits =
            store.withCorpus(
                "docs",
                ix ->
                    ix
                        .search(
                            new SearchRequest(
                                "gate", SourceScope.ALL, List.of(), 10, revision, null, false))
                        .hits()
                        .stream()
                        .map(Hit::source)
                        .toList());
        assertEquals(List.of("a"), hits);
      }
      store.delete("docs");
    }
    assertTrue(requests.get() > 10, "requests through the gate: " + requests.get());
    assertEquals(1, seen.size(), "every request carried the one header: " + seen);
  }

  @Test
  void aWrongPassword_isRefusedByTheCluster_andSaysSo() {
    ClusterSecurity security = new ClusterSecurity(USER, "wrong", caFile);
    QuarryException e =
        assertThrows(
            QuarryException.class,
            () -> new OpenSearchCorpusStore(settings(security), EngineConfig.builder().build()));
    assertEquals(ErrorCode.UNAVAILABLE, e.code());
    // The cluster's answer is the cause, for the log and the operator's console, not the message.
    assertTrue(String.valueOf(e.getCause()).contains("HTTP 401"), String.valueOf(e.getCause()));
    assertFalse(e.getMessage().contains("HTTP"), e.getMessage());
    assertFalse(String.valueOf(e.getCause()).contains("wrong"), String.valueOf(e.getCause()));
  }

  @Test
  void aCertificateNotSignedByATrustedAuthority_isRefused() {
    ClusterSecurity untrusting =
        new ClusterSecurity(USER, PASSWORD, null); // the JDK's authorities only
    QuarryException e =
        assertThrows(
            QuarryException.class,
            () -> new OpenSearchCorpusStore(settings(untrusting), EngineConfig.builder().build()));
    assertEquals(ErrorCode.UNAVAILABLE, e.code());
    assertEquals(0, requests.get(), "no request got past the TLS handshake");
  }

  @Test
  void aCaFileThatHoldsNoCertificate_isRefusedNamingIt() throws IOException {
    Path notPem = Files.writeString(dir.resolve("not.pem"), "hello");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ClusterSecurity.checkCaFile(notPem));
    assertTrue(e.getMessage().contains(notPem.toString()), e.getMessage());
  }
}
