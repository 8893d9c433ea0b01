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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jetty's own error answers (a malformed request line or header, headers too large, a URI Jetty
 * cannot parse), which never reach Javalin nor {@link RequestIds}, in the contract's envelope with
 * the version header and a request id instead of Jetty's HTML page. The message is ours, by status:
 * Jetty's reason (which names its parser's view of the bytes) goes to the log under the request id.
 */
final class JsonErrorPages extends ErrorHandler {
  private static final Logger LOG = LoggerFactory.getLogger(JsonErrorPages.class);
  private final ObjectMapper mapper;

  JsonErrorPages(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int status,
      String message,
      Throwable cause,
      Callback callback) {
    String id = response.getHeaders().get(RequestIds.HEADER);
    if (id == null) {
      // Refused while Jetty read the request, before any handler saw it: the id is given here.
      RequestIds.Tag tag = RequestIds.tagOf(request);
      id = tag != null ? tag.id() : RequestIds.idFor(null);
      response.getHeaders().put(RequestIds.HEADER, id);
    }
    if (status >= 500) {
      LOG.error("internal error {}: {} {}", id, status, message, cause);
    } else {
      LOG.info("refused an HTTP request {}: {} {}", id, status, message);
    }
    response.getHeaders().put(ProtocolHeaders.VERSION_HEADER, ProtocolHeaders.VERSION);
    response.getHeaders().put("Content-Type", "application/json");
    response.write(true, ByteBuffer.wrap(body(status, id)), callback);
  }

  private byte[] body(int status, String id) {
    ErrorCode code =
        switch (status) {
          case 404, 405 -> ErrorCode.NOT_FOUND;
          case 408 -> ErrorCode.IDLE_TIMEOUT;
          case 413, 414, 431 -> ErrorCode.REQUEST_TOO_LARGE;
          case 415 -> ErrorCode.UNSUPPORTED_MEDIA_TYPE;
          case 503 -> ErrorCode.UNAVAILABLE;
          default -> status < 500 ? ErrorCode.INVALID_REQUEST : ErrorCode.INTERNAL;
        };
    String message =
        status == 500
            ? "internal error (reference " + id + ")"
            : "the HTTP request was refused: "
                + status
                + " "
                + switch (status) {
                  case 400 -> "the request line or a header is malformed (HTTP/1.1, RFC 9112)";
                  case 404, 405 -> "no such endpoint";
                  case 408 -> "the request did not arrive in time";
                  case 413 -> "the request is too large";
                  case 414 -> "the request URI is too long";
                  case 415 -> "the content type is not accepted";
                  case 431 -> "the request headers are too large";
                  case 501 -> "the method or transfer coding is not implemented";
                  case 505 -> "the HTTP version is not supported";
                  case 503 -> "the server cannot take it now";
                  default -> "the request is not acceptable";
                };
    QuarryException e =
        code == ErrorCode.INVALID_REQUEST
            ? QuarryException.invalid(StrictJson.BODY_FIELD, message)
            : new QuarryException(code, message);
    try {
      return mapper.writeValueAsBytes(ErrorEnvelope.of(e));
    } catch (JsonProcessingException impossible) {
      throw new IllegalStateException(impossible);
    }
  }
}
