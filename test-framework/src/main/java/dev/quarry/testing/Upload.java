package dev.quarry.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;

/** Builds and sends {@code multipart/form-data} ingest uploads, as a browser or curl would. */
public final class Upload {
  public static final String BOUNDARY = "----quarry-test-boundary-7MA4YWxkTrZu0gW";

  private Upload() {}

  /** A body with a {@code request} part and, when {@code file} is non-null, a {@code file} part. */
  public static byte[] body(String requestJson, String fileName, byte[] file) {
    return file == null
        ? namedBody(requestJson, List.of(), List.of())
        : namedBody(requestJson, Collections.singletonList(fileName), List.of(file));
  }

  public static ApiClient.Answer send(
      ApiClient api, String token, String requestJson, String fileName, byte[] file) {
    return send(api, token, null, body(requestJson, fileName, file));
  }

  /**
   * Sends a {@code request} part and one {@code file} part to the multipart endpoint at {@code
   * path}.
   */
  public static ApiClient.Answer send(
      ApiClient api, String token, String path, String requestJson, String fileName, byte[] file) {
    return post(api, token, path, body(requestJson, fileName, file));
  }

  /**
   * A body with a {@code request} part and one {@code file} part per entry of {@code files}, in
   * order.
   */
  public static byte[] body(String requestJson, List<byte[]> files) {
    return namedBody(
        requestJson, IntStream.range(0, files.size()).mapToObj(i -> "f" + i).toList(), files);
  }

  /** {@link #body(String, List)} with each file part named by {@code fileNames}, in order. */
  public static byte[] namedBody(String requestJson, List<String> fileNames, List<byte[]> files) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    write(
        out,
        "--"
            + BOUNDARY
            + "\r\nContent-Disposition: form-data; name=\"request\"\r\n"
            + "Content-Type: application/json\r\n\r\n"
            + requestJson
            + "\r\n");
    for (int i = 0; i < files.size(); i++) {
      write(
          out,
          "--"
              + BOUNDARY
              + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
              + fileNames.get(i)
              + "\"\r\n"
              + "Content-Type: application/octet-stream\r\n\r\n");
      out.writeBytes(files.get(i));
      write(out, "\r\n");
    }
    write(out, "--" + BOUNDARY + "--\r\n");
    return out.toByteArray();
  }

  /** Posts a multipart {@code body} (from {@link #body}) to {@code path}. */
  public static ApiClient.Answer post(ApiClient api, String token, String path, byte[] body) {
    return api.post(path)
        .token(token)
        .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
        .bytes(body)
        .send();
  }

  public static ApiClient.Answer send(
      ApiClient api, String token, String idempotencyKey, byte[] body) {
    ApiClient.Call call =
        api.post("/v1/retrieval/ingest")
            .token(token)
            .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
            .bytes(body);
    if (idempotencyKey != null) {
      call.header("Idempotency-Key", idempotencyKey);
    }
    return call.send();
  }

  private static void write(ByteArrayOutputStream out, String s) {
    out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
  }
}
