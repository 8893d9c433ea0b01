package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.app.ServerPerClass;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.TestTokens;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How a search answer larger than Jetty's default aggregation (8 KB) is framed on the wire, read
 * from a raw socket: whole, with its Content-Length, not chunked; and compressed for a client that
 * accepts gzip, with the compressed length, the same JSON once unpacked.
 */
class AnswerFramingOverHttpIT {
  @RegisterExtension
  static final ServerPerClass server = ServerPerClass.withTestTokens().corpus("framing");

  private static final String SEARCH = "{\"corpus\": \"framing\", \"query\": \"retrieval\"}";

  @BeforeAll
  static void index() {
    StringBuilder operations = new StringBuilder();
    for (int i = 0; i < 12; i++) {
      StringBuilder text = new StringBuilder();
      for (int w = 0; w < 60; w++) {
        text.append("retrieval engine word").append(w).append(" alpha beta gamma delta ");
      }
      operations
          .append(i == 0 ? "" : ",")
          .append("{\"index\": {\"source\": \"d")
          .append(i)
          .append("\", \"text\": \"")
          .append(text.toString().strip())
          .append("\"}}");
    }
    ApiClient.ok(
        server
            .client()
            .retrieval(
                "sources/batch",
                TestTokens.ADMIN,
                "{\"corpus\": \"framing\", \"operations\": [" + operations + "]}"));
  }

  @Test
  void aLargeSearchAnswerIsSentWholeWithItsLength() throws IOException {
    RawAnswer plain = post(Map.of());
    assertEquals(200, plain.status(), plain::head);
    assertTrue(
        plain.body().length > 8192,
        "the answer must pass 8 KB to test the framing: " + plain.body().length);
    assertNull(plain.headers().get("transfer-encoding"), plain::head);
    assertEquals(
        Integer.toString(plain.body().length), plain.headers().get("content-length"), plain::head);
    assertTrue(
        new String(plain.body(), StandardCharsets.UTF_8).startsWith("{\"corpus\":\"framing\""));
  }

  @Test
  void aClientAcceptingGzipStillGetsItCompressed() throws IOException {
    RawAnswer plain = post(Map.of());
    RawAnswer gzip = post(Map.of("Accept-Encoding", "gzip"));
    assertEquals(200, gzip.status(), gzip::head);
    assertEquals("gzip", gzip.headers().get("content-encoding"), gzip::head);
    assertEquals(
        Integer.toString(gzip.body().length), gzip.headers().get("content-length"), gzip::head);
    byte[] unpacked;
    try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(gzip.body()))) {
      unpacked = in.readAllBytes();
    }
    // The same answer but for the time the search took.
    assertArrayEquals(withoutTook(plain.body()), withoutTook(unpacked));
  }

  private static byte[] withoutTook(byte[] json) {
    return new String(json, StandardCharsets.UTF_8)
        .replaceFirst("\"tookMs\":\\d+", "\"tookMs\":0")
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * An answer as it came off the socket: status, headers by lower-case name, the body after its
   * framing.
   */
  private record RawAnswer(int status, String head, Map<String, String> headers, byte[] body) {}

  /**
   * One search on a connection of its own, which the request closes, so the body ends with the
   * stream.
   */
  private static RawAnswer post(Map<String, String> extraHeaders) throws IOException {
    URI uri = URI.create(server.url());
    byte[] body = SEARCH.getBytes(StandardCharsets.UTF_8);
    StringBuilder request =
        new StringBuilder("POST /v1/retrieval/search HTTP/1.1\r\n")
            .append("Host: ")
            .append(uri.getHost())
            .append(':')
            .append(uri.getPort())
            .append("\r\n")
            .append("Authorization: Bearer ")
            .append(TestTokens.ADMIN)
            .append("\r\n")
            .append("Content-Type: application/json\r\nContent-Length: ")
            .append(body.length)
            .append("\r\n")
            .append("Connection: close\r\n");
    extraHeaders.forEach(
        (name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
    request.append("\r\n");
    try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      byte[] all = socket.getInputStream().readAllBytes();
      int end = indexOf(all, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      String head = new String(all, 0, end, StandardCharsets.ISO_8859_1);
      Map<String, String> headers = new TreeMap<>();
      String[] lines = head.split("\r\n");
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        headers.put(
            lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
            lines[i].substring(colon + 1).strip());
      }
      byte[] rest = java.util.Arrays.copyOfRange(all, end + 4, all.length);
      boolean chunked = "chunked".equalsIgnoreCase(headers.get("transfer-encoding"));
      return new RawAnswer(
          Integer.parseInt(lines[0].split(" ")[1]), head, headers, chunked ? unchunk(rest) : rest);
    }
  }

  private static byte[] unchunk(byte[] chunked) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int at = 0;
    while (true) {
      int lineEnd =
          indexOf(
                  java.util.Arrays.copyOfRange(chunked, at, chunked.length),
                  "\r\n".getBytes(StandardCharsets.US_ASCII))
              + at;
      int size =
          Integer.parseInt(
              new String(chunked, at, lineEnd - at, StandardCharsets.US_ASCII).strip(), 16);
      if (size == 0) {
        return out.toByteArray();
      }
      out.write(chunked, lineEnd + 2, size);
      at = lineEnd + 2 + size + 2;
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new IllegalStateException("no end of the head in the answer");
  }
}
