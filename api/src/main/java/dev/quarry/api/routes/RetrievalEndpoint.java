package dev.quarry.api.routes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.Authenticator;
import dev.quarry.api.wire.ErrorEnvelope;
import dev.quarry.api.wire.Feature;
import dev.quarry.api.wire.HttpStatuses;
import dev.quarry.api.wire.Limit;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.ProtocolHeaders;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.corpora.access.Access;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Javalin handler behind every retrieval endpoint: it applies the contract's checks in the
 * contract's order (version, authentication, feature, then the request itself: content type, size,
 * the body's bytes, capacity, the body's JSON) and answers every
 * outcome, failures included, as JSON with the version header. Nothing escapes to the host's
 * exception mappers: an unexpected fault is logged and answered as {@code 500 INTERNAL}.
 *
 * <p>Thread-safe; one per route.
 */
public final class RetrievalEndpoint implements Handler {
  /** Set on a context once a Quarry handler has written its answer, so hosts' error pages leave it alone. */
  public static final String ANSWERED_ATTRIBUTE = "dev.quarry.api.answered";
  private static final Logger LOG = LoggerFactory.getLogger(RetrievalEndpoint.class);

  private final Route route;
  private final Authenticator authenticator;
  private final Set<Feature> features;
  private final Limits limits;
  private final RequestGate gate;
  private final StrictJson json;

  public RetrievalEndpoint(Route route, Authenticator authenticator, Set<Feature> features, Limits limits,
      RequestGate gate, StrictJson json) {
    this.route = route;
    this.authenticator = authenticator;
    this.features = Set.copyOf(features);
    this.limits = limits;
    this.gate = gate;
    this.json = json;
  }

  @Override
  public void handle(Context ctx) {
    try {
      Access access = admit(ctx, authenticator, features, route.feature());
      // The body is read before a place in the gate is taken: a client slow to send holds none.
      byte[] bytes = body(ctx);
      if (route.kind().gated()) {
        RequestGate.Permit permit = gate.enter();
        try {
          answer(ctx, call(ctx, access, bytes));
        } finally {
          permit.close();
        }
      } else {
        answer(ctx, call(ctx, access, bytes));
      }
    } catch (QuarryException e) {
      fail(ctx, e);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (RuntimeException | Error e) {
      fail(ctx, internal(e));
    }
  }

  /** The request's bytes, after its content type and size were checked. */
  private byte[] body(Context ctx) {
    BodyReader.checkJsonContentType(ctx.header("Content-Type"));
    try {
      return BodyReader.read(ctx.req().getInputStream(), ctx.req().getContentLengthLong(),
          limits.get(Limit.MAX_REQUEST_BYTES));
    } catch (java.io.IOException e) {
      // The client went away or sent a broken chunked body: nothing of ours failed.
      throw ClientBody.failure(e);
    }
  }

  private Reply call(Context ctx, Access access, byte[] bytes) {
    ObjectNode body = json.parseObject(bytes);
    String key = ctx.header(ProtocolHeaders.IDEMPOTENCY_KEY);
    RouteCall call = new RouteCall(route.path(), access, body, key, limits, json.mapper());
    try {
      return route.handler().handle(call);
    } catch (RuntimeException | Error e) {
      if (e instanceof QuarryException || route.kind() != Route.Kind.MUTATION) {
        throw e;
      }
      // The mutation may or may not have reached the store: the client must reconcile.
      QuarryException internal = internal(e);
      throw new QuarryException(internal.code(), internal.getMessage(), null, true, null);
    }
  }

  private void answer(Context ctx, Reply reply) {
    answer(ctx, reply, json.mapper());
  }

  private void fail(Context ctx, QuarryException e) {
    fail(ctx, e, json.mapper());
  }

  /**
   * The checks every retrieval endpoint makes before reading its body, in the contract's order:
   * the requested version, authentication, then the endpoint's feature ({@code null}: none).
   */
  static Access admit(Context ctx, Authenticator authenticator, Set<Feature> features, Feature feature) {
    ProtocolHeaders.checkRequestedVersion(ctx.header(ProtocolHeaders.VERSION_HEADER));
    Access access = authenticate(ctx, authenticator);
    if (feature != null && !features.contains(feature)) {
      throw new QuarryException(feature.unavailableCode(),
          "the " + feature.wireName() + " feature is not available on this server");
    }
    return access;
  }

  /** Writes a successful reply, marking an idempotent replay. */
  static void answer(Context ctx, Reply reply, ObjectMapper mapper) {
    if (reply.replayed()) {
      ctx.header(ProtocolHeaders.IDEMPOTENT_REPLAYED, "true");
    }
    write(ctx, 200, reply.body(), mapper);
  }

  /** Writes the error envelope of {@code e} with its status. */
  static void fail(Context ctx, QuarryException e, ObjectMapper mapper) {
    write(ctx, HttpStatuses.of(e.code()), ErrorEnvelope.of(e), mapper);
  }

  /**
   * The caller's access from {@code Authorization: Bearer <token>}; 401 UNAUTHENTICATED when the
   * header is missing, malformed or names an unknown token.
   */
  public static Access authenticate(Context ctx, Authenticator authenticator) {
    String header = ctx.header("Authorization");
    if (header == null || header.isBlank()) {
      ctx.header("WWW-Authenticate", "Bearer");
      throw new QuarryException(ErrorCode.UNAUTHENTICATED, "send Authorization: Bearer <token>");
    }
    String token = header.length() > 7 && header.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")
        ? header.substring(7).strip()
        : null;
    Access access = token == null || token.isEmpty() ? null : authenticator.authenticate(token).orElse(null);
    if (access == null) {
      ctx.header("WWW-Authenticate", "Bearer error=\"invalid_token\"");
      throw new QuarryException(ErrorCode.UNAUTHENTICATED, "the bearer token is not valid");
    }
    return access;
  }

  /** An unexpected fault as INTERNAL, logged with a reference the client can quote; never a stack trace. */
  public static QuarryException internal(Throwable t) {
    String reference = UUID.randomUUID().toString();
    LOG.error("internal error {}", reference, t);
    return new QuarryException(ErrorCode.INTERNAL, "internal error (reference " + reference + ")");
  }

  /** Writes a JSON answer with the version header and marks the context as answered. */
  public static void write(Context ctx, int status, ObjectNode body, ObjectMapper mapper) {
    ctx.header(ProtocolHeaders.VERSION_HEADER, ProtocolHeaders.VERSION);
    ctx.attribute(ANSWERED_ATTRIBUTE, Boolean.TRUE);
    ctx.status(status);
    ctx.contentType("application/json");
    try {
      ctx.result(mapper.writeValueAsBytes(body));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a response tree could not be written", e);
    }
  }
}
