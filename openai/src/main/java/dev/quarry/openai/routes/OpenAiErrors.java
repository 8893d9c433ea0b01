package dev.quarry.openai.routes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.routes.ErrorResponses;
import dev.quarry.api.wire.HttpStatuses;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.engine.QuarryException;
import io.javalin.http.Context;
import java.util.Locale;

/**
 * The one place a failure becomes OpenAI's error body, {@code {"error": {"message", "type",
 * "param", "code"}}}, at the status Quarry gives its code (so the SDKs raise BadRequestError,
 * AuthenticationError, PermissionDeniedError, NotFoundError...). {@code code} is Quarry's error
 * code in lower case ({@code corpus_exists}, {@code document_too_large}), or OpenAI's own ({@code
 * unknown_parameter}, {@code invalid_api_key}); {@code param} is the offending field's path.
 * Server-side faults are logged and answered without their text, as everywhere in Quarry. Every
 * answer says {@code x-should-retry}, which the SDKs obey, so they retry only what is retryable.
 */
public final class OpenAiErrors {
  private OpenAiErrors() {}

  public static void write(Context ctx, Throwable t, ObjectMapper mapper) {
    int status;
    String message;
    String param;
    String code;
    boolean retryable;
    if (t instanceof OpenAiException e) {
      status = e.status;
      message = e.getMessage();
      param = e.param;
      code = e.code;
      retryable = false;
    } else {
      QuarryException e = ErrorResponses.of(t);
      status = HttpStatuses.of(e.code());
      message = e.getMessage();
      param = e.field() == null || e.field().equals(StrictJson.BODY_FIELD) ? null : e.field();
      code =
          switch (e.code()) {
            case UNAUTHENTICATED -> "invalid_api_key";
            default -> e.code().name().toLowerCase(Locale.ROOT);
          };
      retryable = e.retryable();
    }
    ObjectNode body = mapper.createObjectNode();
    ObjectNode error = body.putObject("error").put("message", message).put("type", type(status));
    if (param == null) {
      error.putNull("param");
    } else {
      error.put("param", param);
    }
    if (code == null) {
      error.putNull("code");
    } else {
      error.put("code", code);
    }
    if (status == 401) {
      ctx.header("WWW-Authenticate", "Bearer");
    }
    ctx.header("x-should-retry", Boolean.toString(retryable));
    Replies.json(ctx, status, body, mapper);
  }

  /**
   * OpenAI's error types: one for the client's requests, one for limits, one for the server's
   * faults.
   */
  private static String type(int status) {
    if (status == 429) {
      return "rate_limit_error";
    }
    return status >= 500 ? "server_error" : "invalid_request_error";
  }
}
