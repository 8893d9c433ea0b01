package dev.quarry.mcp.server;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.Authenticator;
import dev.quarry.api.ChecksBeforeBody;
import dev.quarry.api.routes.Authentication;
import dev.quarry.api.routes.BodyReader;
import dev.quarry.api.routes.ErrorResponses;
import dev.quarry.api.wire.ErrorEnvelope;
import dev.quarry.api.wire.HttpStatuses;
import dev.quarry.corpora.access.Access;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The servlet at {@code /mcp}: every request is authenticated with the API's bearer tokens (401
 * with a {@code WWW-Authenticate} challenge otherwise), a POST body is read within the server's
 * request limit and must be one JSON-RPC 2.0 message (a parse error or invalid request is answered
 * here in JSON-RPC's own form, so no parser's text reaches the client), {@code
 * notifications/cancelled} raises the named call's cancellation, {@code resources/list} in a
 * session the transport issued ({@link IssuedSessions}) is answered here with the caller's own
 * resources ({@link ResourceListing}), and the rest is the SDK transport's. Thread-safe.
 */
public final class McpEndpoint extends HttpServlet implements ChecksBeforeBody {
  private static final Set<String> METHODS = Set.of("GET", "POST", "DELETE");

  private final transient QuarryMcpServer server;
  private final transient Authenticator authenticator;
  private final long maxBodyBytes;
  private final transient IssuedSessions sessions = new IssuedSessions();
  private final transient ObjectMapper mapper =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .build();

  public McpEndpoint(QuarryMcpServer server, Authenticator authenticator, long maxBodyBytes) {
    this.server = server;
    this.authenticator = authenticator;
    this.maxBodyBytes = maxBodyBytes;
    mapper
        .getFactory()
        .setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build());
  }

  /**
   * Refused before the body when its token is missing or unknown, the first check of {@link
   * #service}.
   */
  @Override
  public boolean refusesBeforeBody(UnaryOperator<String> headers) {
    return Authentication.refuses(headers.apply("Authorization"), authenticator);
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    try {
      if (!METHODS.contains(request.getMethod())) {
        response.setHeader("Allow", "GET, POST, DELETE");
        refuse(
            response,
            405,
            McpSchema.ErrorCodes.INVALID_REQUEST,
            new QuarryException(
                ErrorCode.NOT_FOUND, "the MCP endpoint answers POST, GET and DELETE"));
        return;
      }
      Access access;
      try {
        access = Authentication.authenticate(request.getHeader("Authorization"), authenticator);
      } catch (QuarryException e) {
        String header = request.getHeader("Authorization");
        response.setHeader(
            "WWW-Authenticate",
            header == null || header.isBlank()
                ? "Bearer realm=\"quarry\""
                : "Bearer realm=\"quarry\", error=\"invalid_token\"");
        refuse(response, 401, McpSchema.ErrorCodes.INVALID_REQUEST, e);
        return;
      }
      String session = request.getHeader(IssuedSessions.HEADER);
      HttpServletRequest forwarded = request;
      String requestId = null;
      if ("POST".equals(request.getMethod())) {
        byte[] body;
        try {
          // The API's reader: 413 over the limit, 408 for a body too slow or stalled, 400 for
          // broken framing.
          body =
              BodyReader.read(
                  request.getInputStream(), request.getContentLengthLong(), maxBodyBytes);
        } catch (QuarryException e) {
          refuse(response, HttpStatuses.of(e.code()), McpSchema.ErrorCodes.INVALID_REQUEST, e);
          return;
        }
        JsonNode message;
        try {
          message = mapper.readTree(body);
        } catch (IOException e) {
          refuse(
              response,
              400,
              McpSchema.ErrorCodes.PARSE_ERROR,
              QuarryException.invalid("$", "the body is not one well-formed JSON value"));
          return;
        }
        QuarryException shape = shapeError(message);
        if (shape != null) {
          refuse(response, 400, McpSchema.ErrorCodes.INVALID_REQUEST, shape);
          return;
        }
        if (message.has("id") && message.has("method")) {
          requestId = message.get("id").toString();
          QuarryException params = paramsError(message);
          if (params != null) {
            // The SDK would answer with its JSON binding's text; the request gets its own id back.
            refuse(response, 200, McpSchema.ErrorCodes.INVALID_PARAMS, params, message.get("id"));
            return;
          }
        }
        if ("resources/list".equals(message.path("method").asText())
            && message.has("id")
            && sessions.isOpen(session)) {
          listResources(response, access, message);
          return;
        }
        if ("notifications/cancelled".equals(message.path("method").asText()) && session != null) {
          JsonNode params = message.path("params");
          server
              .cancellations()
              .cancel(
                  session, params.path("requestId").toString(), params.path("reason").asText(null));
        }
        forwarded = new BufferedBody(request, body);
      }
      forwarded.setAttribute(Caller.ATTRIBUTE, new Caller(access, session, requestId));
      server.service(forwarded, session == null ? sessions.recording(response) : response);
      if ("DELETE".equals(request.getMethod())) {
        sessions.closed(session, response.getStatus());
      }
    } catch (RuntimeException | ServletException e) {
      if (!response.isCommitted()) {
        refuse(response, 500, McpSchema.ErrorCodes.INTERNAL_ERROR, ErrorResponses.internal(e));
      }
    }
  }

  /**
   * Answers resources/list with the caller's own resources, as JSON. Without a session the SDK
   * refuses it as it refuses every request before initialize.
   */
  private void listResources(HttpServletResponse response, Access access, JsonNode message)
      throws IOException {
    JsonNode id = message.get("id");
    McpSchema.ListResourcesResult page;
    try {
      page = server.listing().page(access, message.path("params").path("cursor").asText(null));
    } catch (RuntimeException e) {
      QuarryException refusal = ErrorResponses.of(e);
      if (refusal.code() == ErrorCode.INVALID_REQUEST) {
        // A cursor the corpora layer does not take is as bad as one that does not decode.
        refusal =
            QuarryException.invalid(
                "params.cursor", "the cursor is not one a resources/list answer handed out");
      }
      refuse(
          response,
          200,
          refusal.code() == ErrorCode.INVALID_REQUEST
              ? McpSchema.ErrorCodes.INVALID_PARAMS
              : McpSchema.ErrorCodes.INTERNAL_ERROR,
          refusal,
          id);
      return;
    }
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    body.put("jsonrpc", "2.0");
    body.set("id", id);
    body.set("result", mapper.valueToTree(page));
    response.setStatus(200);
    response.setContentType("application/json");
    response.setCharacterEncoding("UTF-8");
    response.getOutputStream().write(mapper.writeValueAsBytes(body));
  }

  /**
   * Why {@code m} is not one JSON-RPC 2.0 message (a batch is not: the 2025-06-18 revision removed
   * them), or null.
   */
  private static QuarryException shapeError(JsonNode m) {
    if (!m.isObject()) {
      return QuarryException.invalid(
          "$", "the body must be one JSON-RPC 2.0 message, a JSON object");
    }
    if (!"2.0".equals(m.path("jsonrpc").asText(null)) || !m.get("jsonrpc").isTextual()) {
      return QuarryException.invalid("jsonrpc", "jsonrpc must be \"2.0\"");
    }
    if (m.has("method") && !m.get("method").isTextual()) {
      return QuarryException.invalid("method", "method must be a string");
    }
    if (m.has("id") && !(m.get("id").isTextual() || m.get("id").isIntegralNumber())) {
      return QuarryException.invalid("id", "id must be a string or an integer");
    }
    if (!m.has("method") && !m.has("result") && !m.has("error")) {
      return QuarryException.invalid("method", "a request or notification names its method");
    }
    if (m.has("params") && !m.get("params").isObject()) {
      return QuarryException.invalid("params", "params must be an object");
    }
    return null;
  }

  /**
   * Why the params of a request to Quarry's tools or resources do not have their shape, or null.
   */
  private static QuarryException paramsError(JsonNode m) {
    JsonNode params = m.path("params");
    return switch (m.get("method").asText()) {
      case "tools/call" ->
          !params.path("name").isTextual()
              ? QuarryException.invalid(
                  "params.name", "tools/call names its tool: params.name, a string")
              : params.has("arguments") && !params.get("arguments").isObject()
                  ? QuarryException.invalid(
                      "params.arguments", "a tool's arguments are a JSON object")
                  : null;
      case "resources/list" ->
          params.has("cursor") && !params.get("cursor").isTextual()
              ? QuarryException.invalid(
                  "params.cursor", "a cursor is a string a resources/list answer handed out")
              : null;
      case "resources/read" ->
          !params.path("uri").isTextual()
              ? QuarryException.invalid(
                  "params.uri", "resources/read names its resource: params.uri, a string")
              : null;
      default -> null;
    };
  }

  /** A JSON-RPC error response with no id, its {@code data} Quarry's error. */
  private void refuse(HttpServletResponse response, int status, int rpcCode, QuarryException e)
      throws IOException {
    refuse(response, status, rpcCode, e, null);
  }

  /**
   * A JSON-RPC error response to request {@code id} (null: none known), its {@code data} Quarry's
   * error.
   */
  private void refuse(
      HttpServletResponse response, int status, int rpcCode, QuarryException e, JsonNode id)
      throws IOException {
    ObjectNode error = (ObjectNode) ErrorEnvelope.of(e).get("error");
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    body.put("jsonrpc", "2.0");
    if (id == null) {
      body.putNull("id");
    } else {
      body.set("id", id);
    }
    body.putObject("error")
        .put("code", rpcCode)
        .put("message", error.get("message").asText())
        .set("data", error);
    response.setStatus(status);
    response.setContentType("application/json");
    response.setCharacterEncoding("UTF-8");
    response.getOutputStream().write(mapper.writeValueAsBytes(body));
  }

  /** The request with its body already read, for the SDK transport to read again. */
  private static final class BufferedBody extends HttpServletRequestWrapper {
    private final byte[] body;

    BufferedBody(HttpServletRequest request, byte[] body) {
      super(request);
      this.body = body;
    }

    @Override
    public ServletInputStream getInputStream() {
      ByteArrayInputStream in = new ByteArrayInputStream(body);
      return new ServletInputStream() {
        @Override
        public int read() {
          return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
          return in.read(b, off, len);
        }

        @Override
        public boolean isFinished() {
          return in.available() == 0;
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
          throw new IllegalStateException("the body was read already");
        }
      };
    }

    @Override
    public BufferedReader getReader() {
      return new BufferedReader(
          new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
    }

    @Override
    public int getContentLength() {
      return body.length;
    }

    @Override
    public long getContentLengthLong() {
      return body.length;
    }
  }
}
