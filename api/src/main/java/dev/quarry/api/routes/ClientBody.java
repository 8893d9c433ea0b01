package dev.quarry.api.routes;

import dev.quarry.api.wire.StrictJson;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads of a request body from the client, with a read that fails turned into a typed error: the
 * client's fault, never ours. A body that arrives slower than the server's minimum data rate (the
 * read fails with {@code 408}) or stops arriving until the connection's idle timeout is {@code 408
 * IDLE_TIMEOUT}; a client that went away or sent a broken chunked body is {@code 400
 * INVALID_REQUEST} on the body.
 *
 * <p>Stateless.
 */
public final class ClientBody {
  private static final Logger LOG = LoggerFactory.getLogger(ClientBody.class);

  private ClientBody() {}

  /**
   * {@link InputStream#read(byte[], int, int)}, with a failed read as the typed error of {@link
   * #failure}.
   */
  static int read(InputStream in, byte[] buffer, int offset, int length) {
    try {
      return in.read(buffer, offset, length);
    } catch (IOException | RuntimeException e) {
      if (e instanceof QuarryException q) {
        throw q;
      }
      throw failure(e);
    }
  }

  /**
   * The typed error for a body whose read failed with {@code e}, in words written for the client:
   * the failure's own text (Jetty's, the JDK's) goes only to the log, under the request's id.
   */
  public static QuarryException failure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof HttpException http && http.getCode() == HttpStatus.REQUEST_TIMEOUT_408) {
        LOG.info("a request body arrived too slowly: {}", t.getMessage());
        return new QuarryException(
            ErrorCode.IDLE_TIMEOUT,
            "the request body arrived too slowly; send it at a steady rate",
            e);
      }
      if (t instanceof TimeoutException) {
        // The connection's idle timeout passed while the body was awaited.
        LOG.info("a request body stopped arriving: {}", t.getMessage());
        return new QuarryException(
            ErrorCode.IDLE_TIMEOUT,
            "the request body stopped arriving before it was complete; send it whole, at a steady rate",
            e);
      }
    }
    LOG.info("a request body could not be read", e);
    return QuarryException.invalid(
        StrictJson.BODY_FIELD,
        "the request body could not be read: the connection failed or its chunked framing is broken");
  }
}
