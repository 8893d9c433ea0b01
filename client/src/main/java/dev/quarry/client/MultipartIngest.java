package dev.quarry.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * One {@code POST /v1/retrieval/ingest}: a {@code multipart/form-data} body of the {@code request}
 * JSON and the {@code file} bytes, streamed (never held in memory), with the bytes' SHA-256
 * computed on the way and compared with the receipt's {@code contentSha256}. Its multipart body,
 * with one file part per file, is also the body of a job upload ({@link JobUpload}).
 */
final class MultipartIngest {
  private final Transport transport;
  private final IngestRequest request;

  MultipartIngest(Transport transport, IngestRequest request) {
    this.transport = transport;
    this.request = request;
  }

  /** The bytes of the document: a file read when the body is sent, or a stream read once. */
  static final class FileBytes {
    private final Path path;
    private final InputStream stream;
    private final String name;
    private MessageDigest digest;

    private FileBytes(Path path, InputStream stream, String name) {
      this.path = path;
      this.stream = stream;
      this.name = name;
    }

    /**
     * The file at {@code path}, named by its file name (a hint for detecting its type); it must
     * exist.
     */
    static FileBytes of(Path path) {
      if (!Files.isRegularFile(path)) {
        throw new UncheckedIOException(new FileNotFoundException(path.toString()));
      }
      Path fileName = path.getFileName();
      return new FileBytes(path, null, fileName == null ? "document" : fileName.toString());
    }

    static FileBytes of(InputStream stream) {
      return new FileBytes(null, stream, "document");
    }

    /**
     * The {@code file} part's header, with the file name stripped of what would break the header.
     */
    byte[] partHeader(String boundary) {
      return ("--"
              + boundary
              + "\r\n"
              + "Content-Disposition: form-data; name=\"file\"; filename=\""
              + name.replaceAll("[\"\\\\\r\n]", "_")
              + "\"\r\nContent-Type: application/octet-stream\r\n\r\n")
          .getBytes(StandardCharsets.UTF_8);
    }

    /** A publisher of the bytes, hashing them as they are sent. */
    HttpRequest.BodyPublisher publisher() {
      return HttpRequest.BodyPublishers.ofInputStream(
          () -> {
            digest = Sha256.digest(); // a fresh hash each time the client (re)reads the body
            try {
              InputStream in = path != null ? Files.newInputStream(path) : stream;
              return new DigestInputStream(in, digest);
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    }

    String sha256() {
      return HexFormat.of().formatHex(digest.digest());
    }
  }

  /**
   * A {@code POST} to {@code path} of a {@code multipart/form-data} body: the {@code request} part
   * (the JSON of {@code request}), then one {@code file} part per file, each streamed when the body
   * is sent, then the closing boundary.
   */
  static HttpRequest.Builder post(
      Transport transport, String path, Object request, List<FileBytes> files) {
    String boundary = "quarry-" + UUID.randomUUID();
    List<HttpRequest.BodyPublisher> parts = new ArrayList<>();
    parts.add(
        HttpRequest.BodyPublishers.ofByteArray(
            ("--"
                    + boundary
                    + "\r\n"
                    + "Content-Disposition: form-data; name=\"request\"\r\n"
                    + "Content-Type: application/json\r\n\r\n"
                    + new String(Transport.write(request), StandardCharsets.UTF_8)
                    + "\r\n")
                .getBytes(StandardCharsets.UTF_8)));
    for (FileBytes file : files) {
      parts.add(HttpRequest.BodyPublishers.ofByteArray(file.partHeader(boundary)));
      parts.add(file.publisher());
      parts.add(HttpRequest.BodyPublishers.ofByteArray("\r\n".getBytes(StandardCharsets.UTF_8)));
    }
    parts.add(
        HttpRequest.BodyPublishers.ofByteArray(
            ("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8)));
    return transport
        .request(path)
        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
        .POST(HttpRequest.BodyPublishers.concat(parts.toArray(HttpRequest.BodyPublisher[]::new)));
  }

  Receipt send(FileBytes file, String idempotencyKey) {
    HttpRequest http =
        post(transport, "v1/retrieval/ingest", request, List.of(file))
            .header(Transport.IDEMPOTENCY_KEY, idempotencyKey)
            .build();
    HttpResponse<InputStream> res = transport.send(http);
    JsonNode answer;
    try {
      answer = Transport.JSON.readTree(Transport.readAll(res));
    } catch (IOException e) {
      throw new ProtocolException(
          ProtocolException.INVALID_RESPONSE, "an ingest receipt is not JSON", e);
    }
    Receipt receipt = Transport.read(answer, Receipt.class);
    String sent = file.sha256();
    if (receipt.contentSha256() != null && !receipt.contentSha256().equals(sent)) {
      throw new ProtocolException(
          ProtocolException.INVALID_RESPONSE,
          "the server stored content with SHA-256 "
              + receipt.contentSha256()
              + " but the bytes sent hash to "
              + sent);
    }
    return receipt;
  }
}
