package dev.quarry.api.routes;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * Reads a JSON request body within {@code maxBytes}: the declared Content-Length is checked before
 * anything is read, and a chunked body is cut off as soon as it passes the bound, so an oversized
 * body costs at most {@code maxBytes} of memory.
 */
public final class BodyReader {
  private BodyReader() {}

  /** An oversized body is read and discarded up to this many times the limit before the 413. */
  private static final int DRAIN_FACTOR = 4;

  /**
   * Accepts {@code application/json}, with an optional UTF-8 charset, or no Content-Type at all; any
   * other type is 415 UNSUPPORTED_MEDIA_TYPE.
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
      throw new QuarryException(ErrorCode.UNSUPPORTED_MEDIA_TYPE,
          "request bodies are JSON: send Content-Type: application/json (UTF-8)");
    }
  }

  /**
   * The whole body; 413 REQUEST_TOO_LARGE when the declared length ({@code -1}: none) or the bytes
   * actually sent pass {@code maxBytes}.
   */
  public static byte[] read(InputStream in, long declaredLength, long maxBytes) throws IOException {
    if (declaredLength > maxBytes) {
      throw tooLarge(in, maxBytes);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(declaredLength > 0 ? (int) declaredLength : 1024);
    byte[] buffer = new byte[8192];
    long total = 0;
    int n;
    while ((n = in.read(buffer)) != -1) {
      total += n;
      if (total > maxBytes) {
        throw tooLarge(in, maxBytes);
      }
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }

  /**
   * The 413 for a body over {@code maxBytes}, after discarding what the client is still sending
   * (up to {@link #DRAIN_FACTOR} times the limit, unparsed): a server that answers and closes while
   * the client is still writing makes the client see a reset instead of the answer.
   */
  private static QuarryException tooLarge(InputStream in, long maxBytes) {
    long budget = maxBytes * DRAIN_FACTOR;
    byte[] buffer = new byte[64 * 1024];
    try {
      int n;
      while (budget > 0 && (n = in.read(buffer)) != -1) {
        budget -= n;
      }
    } catch (IOException ignored) {
      // the client went away; the answer below is all that is left to give
    }
    return tooLarge(maxBytes);
  }

  private static QuarryException tooLarge(long maxBytes) {
    return new QuarryException(ErrorCode.REQUEST_TOO_LARGE,
        "the request body is larger than maxRequestBytes (" + maxBytes + " bytes)");
  }
}
