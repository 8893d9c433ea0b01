package dev.quarry.api.routes;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a JSON request body within {@code maxBytes}: the declared Content-Length is checked before
 * anything is read, and a chunked body is cut off as soon as it passes the bound, so an oversized
 * body costs at most {@code maxBytes} of memory. An oversized body is answered at once: only what
 * has already arrived is discarded, never waited for (a client that declares a gigabyte and sends
 * nothing must not hold a thread until the idle timeout); the server then closes the connection
 * rather than read the rest. A read that fails is a typed error ({@link ClientBody}).
 */
public final class BodyReader {
  private static final Logger LOG = LoggerFactory.getLogger(BodyReader.class);

  private BodyReader() {}

  /**
   * Accepts {@code application/json}, with an optional UTF-8 charset, or no Content-Type at all;
   * any other type is 415 UNSUPPORTED_MEDIA_TYPE.
   */
  public static void checkJsonContentType(String contentType) {
    if (contentType == null || contentType.isBlank()) {
      return;
    }
    String[] parts = contentType.split(";");
    boolean json = parts[0].strip().toLowerCase(Locale.ROOT).equals("application/json");
    for (int i = 1; i < parts.length && json; i++) {
      String param = parts[i].strip().toLowerCase(Locale.ROOT);
      if (param.startsWith("charset=")) {
        String charset = param.substring("charset=".length()).replace("\"", "");
        json = charset.equals("utf-8") || charset.equals("utf8");
      }
    }
    if (!json) {
      throw new QuarryException(
          ErrorCode.UNSUPPORTED_MEDIA_TYPE,
          "request bodies are JSON: send Content-Type: application/json (UTF-8)");
    }
  }

  /**
   * The whole body; 413 REQUEST_TOO_LARGE when the declared length ({@code -1}: none) or the bytes
   * actually sent pass {@code maxBytes}.
   */
  public static byte[] read(InputStream in, long declaredLength, long maxBytes) throws IOException {
    if (declaredLength > maxBytes) {
      LOG.info(
          "refused a request body that declares {} bytes (maxRequestBytes {})",
          declaredLength,
          maxBytes);
      throw tooLarge(in, 0, declaredLength, maxBytes);
    }
    ByteArrayOutputStream out =
        new ByteArrayOutputStream(declaredLength > 0 ? (int) declaredLength : 1024);
    byte[] buffer = new byte[8192];
    long total = 0;
    int n;
    while ((n = ClientBody.read(in, buffer, 0, buffer.length)) != -1) {
      total += n;
      if (total > maxBytes) {
        LOG.info("refused a request body of more than {} bytes (maxRequestBytes)", maxBytes);
        throw tooLarge(in, total, declaredLength, maxBytes);
      }
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }

  /**
   * How far past the limit a refused body is still read and dropped, in multiples of the limit: a
   * client still sending a body a little over the limit then reads the 413, where an answer sent
   * (and the connection closed) before its last bytes arrive reaches it as a reset connection.
   */
  static final long LINGER_FACTOR = 2;

  /** The 413 for a JSON body over {@code maxBytes}, once the body is dropped ({@link #drop}). */
  static QuarryException tooLarge(InputStream in, long read, long declaredLength, long maxBytes) {
    drop(in, read, declaredLength, maxBytes);
    return new QuarryException(
        ErrorCode.REQUEST_TOO_LARGE,
        "the request body is larger than maxRequestBytes (" + maxBytes + " bytes)");
  }

  /**
   * Before a body over {@code limit} is refused, {@code read} bytes of it read: the rest of it is
   * read and dropped when it ends within {@link #LINGER_FACTOR} times the limit ({@code
   * declaredLength}: -1 when not declared, and then up to that much), so a client still sending it
   * reads the answer; a larger declared body is not waited for. Then whatever has arrived and can
   * be read without waiting is dropped too, so a client that sent its whole body reads the answer.
   * A slow body fails the server's minimum data rate as any other read does.
   */
  public static void drop(InputStream in, long read, long declaredLength, long limit) {
    long lingerTo = LINGER_FACTOR * limit;
    if (declaredLength <= lingerTo) {
      discardUpTo(in, lingerTo - read);
    }
    discardArrived(in);
  }

  /**
   * Reads and drops up to {@code limit} bytes of {@code in}, waiting for them; stops at the end.
   */
  private static void discardUpTo(InputStream in, long limit) {
    byte[] buffer = new byte[64 * 1024];
    try {
      for (long dropped = 0; dropped < limit; ) {
        int n = in.read(buffer, 0, (int) Math.min(buffer.length, limit - dropped));
        if (n < 0) {
          return;
        }
        dropped += n;
      }
    } catch (IOException | RuntimeException ignored) {
      // too slow, or the client went away: the answer is all that is left to give
    }
  }

  /** Reads and drops what {@code in} holds without blocking; stops at the first sign of waiting. */
  private static void discardArrived(InputStream in) {
    byte[] buffer = new byte[64 * 1024];
    try {
      int available;
      while ((available = in.available()) > 0) {
        if (in.read(buffer, 0, Math.min(available, buffer.length)) < 0) {
          return;
        }
      }
    } catch (IOException | RuntimeException ignored) {
      // the client went away or was cut off; the answer is all that is left to give
    }
  }
}
