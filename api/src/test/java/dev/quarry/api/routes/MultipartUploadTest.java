package dev.quarry.api.routes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streaming multipart reader: parts, hash, limits while reading, and no temporary file left
 * behind.
 */
class MultipartUploadTest {
  static final String BOUNDARY = "xYzZY-boundary";
  static final String TYPE = "multipart/form-data; boundary=" + BOUNDARY;

  @TempDir Path tmp;

  static byte[] upload(String json, byte[] file) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(
        ("preamble to ignore\r\n--"
                + BOUNDARY
                + "\r\nContent-Disposition: form-data; name=\"file\"; "
                + "filename=\"a.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n")
            .getBytes(StandardCharsets.UTF_8));
    out.writeBytes(file);
    out.writeBytes(
        ("\r\n--"
                + BOUNDARY
                + "\r\nContent-Disposition: form-data; name=\"request\"\r\n\r\n"
                + json
                + "\r\n--"
                + BOUNDARY
                + "--\r\n")
            .getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  /** Hands out at most 7 bytes per read, so delimiters straddle every buffer boundary. */
  static InputStream trickle(byte[] bytes) {
    return new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, 7));
      }
    };
  }

  MultipartUpload.Upload read(byte[] body, long maxDocumentBytes) throws Exception {
    return MultipartUpload.read(trickle(body), TYPE, body.length, 1024, maxDocumentBytes, tmp);
  }

  long filesLeft() throws Exception {
    try (Stream<Path> files = Files.list(tmp)) {
      return files.count();
    }
  }

  @Test
  void parts_inAnyOrder_areRead_withTheFilesHash_andCloseDeletesTheFile() throws Exception {
    byte[] file = new byte[200_000];
    new Random(3).nextBytes(file);
    // A file that contains the boundary without its leading line break is still one part.
    System.arraycopy(
        ("--" + BOUNDARY).getBytes(StandardCharsets.UTF_8), 0, file, 1000, BOUNDARY.length() + 2);
    MultipartUpload.Upload upload = read(upload("{\"corpus\": \"c\"}", file), 1 << 20);
    assertEquals("{\"corpus\": \"c\"}", new String(upload.request(), StandardCharsets.UTF_8));
    assertArrayEquals(file, Files.readAllBytes(upload.file()));
    assertEquals(file.length, upload.fileBytes());
    assertEquals(
        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(file)),
        upload.fileSha256());
    upload.close();
    assertEquals(0, filesLeft());
  }

  @Test
  void fileOverMaxDocumentBytes_isDocumentTooLarge_andLeavesNoFile() throws Exception {
    byte[] body = upload("{}", new byte[5000]);
    QuarryException e =
        assertThrows(
            QuarryException.class,
            () -> MultipartUpload.read(trickle(body), TYPE, -1, 1024, 4999, tmp));
    assertEquals(ErrorCode.DOCUMENT_TOO_LARGE, e.code());
    assertEquals(0, filesLeft());
  }

  @Test
  void declaredLengthOverTheBound_isRefusedBeforeReading() {
    InputStream unreadable =
        new InputStream() {
          @Override
          public int read() {
            throw new AssertionError("the body was read");
          }
        };
    QuarryException e =
        assertThrows(
            QuarryException.class,
            () -> MultipartUpload.read(unreadable, TYPE, 10L << 30, 1024, 1 << 20, tmp));
    assertEquals(ErrorCode.DOCUMENT_TOO_LARGE, e.code());
  }

  @Test
  void bodyCutShort_isInvalidRequest_andLeavesNoFile() throws Exception {
    byte[] whole = upload("{}", new byte[3000]);
    byte[] cut = java.util.Arrays.copyOf(whole, 2000);
    QuarryException e = assertThrows(QuarryException.class, () -> read(cut, 1 << 20));
    assertEquals(ErrorCode.INVALID_REQUEST, e.code());
    assertEquals(0, filesLeft());
  }

  @Test
  void otherContentType_isUnsupportedMediaType() {
    assertEquals(
        ErrorCode.UNSUPPORTED_MEDIA_TYPE,
        assertThrows(QuarryException.class, () -> MultipartUpload.boundary("application/json"))
            .code());
    assertFalse(MultipartUpload.boundary("multipart/form-data; boundary=\"q\"").isEmpty());
  }
}
