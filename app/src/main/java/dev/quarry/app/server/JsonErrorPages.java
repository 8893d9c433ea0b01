package dev.quarry.app.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.api.wire.ErrorEnvelope;
import dev.quarry.api.wire.ProtocolHeaders;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own error answers (a malformed request line, headers too large, a URI Jetty cannot
 * parse), which never reach Javalin, in the contract's envelope with the version header instead of
 * Jetty's HTML page.
 */
final class JsonErrorPages extends ErrorHandler {
  private final ObjectMapper mapper;

  JsonErrorPages(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  @Override
  protected void generateResponse(Request request, Response response, int status, String message, Throwable cause,
      Callback callback) {
    response.getHeaders().put(ProtocolHeaders.VERSION_HEADER, ProtocolHeaders.VERSION);
    response.getHeaders().put("Content-Type", "application/json");
    response.write(true, ByteBuffer.wrap(body(status, message)), callback);
  }

  private byte[] body(int status, String reason) {
    ErrorCode code = switch (status) {
      case 404, 405 -> ErrorCode.NOT_FOUND;
      case 413, 414, 431 -> ErrorCode.REQUEST_TOO_LARGE;
      case 415 -> ErrorCode.UNSUPPORTED_MEDIA_TYPE;
      case 503 -> ErrorCode.UNAVAILABLE;
      default -> status < 500 ? ErrorCode.INVALID_REQUEST : ErrorCode.INTERNAL;
    };
    String message = "the HTTP request was refused: " + status + (reason == null ? "" : " " + reason);
    QuarryException e = code == ErrorCode.INVALID_REQUEST
        ? QuarryException.invalid(StrictJson.BODY_FIELD, message)
        : new QuarryException(code, message);
    try {
      return mapper.writeValueAsBytes(ErrorEnvelope.of(e));
    } catch (JsonProcessingException impossible) {
      throw new IllegalStateException(impossible);
    }
  }
}
