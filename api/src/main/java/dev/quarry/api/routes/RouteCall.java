package dev.quarry.api.routes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.wire.CanonicalJson;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.WireObject;
import dev.quarry.corpora.access.Access;
import dev.quarry.engine.Mutation;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What a route gets once the request passed the version, authentication, feature, capacity and body
 * checks: who asks, the body, and the Idempotency-Key header. A mutating route makes its change
 * through {@link #write}, which marks the point after which a fault leaves the outcome uncertain.
 *
 * <p>One per request, used by one thread.
 */
public final class RouteCall {
  private final String endpoint;
  private final Access access;
  private final ObjectNode json;
  private final String idempotencyKey;
  private final Limits limits;
  private final ObjectMapper mapper;
  private boolean writeStarted;

  /**
   * @param endpoint the endpoint path below {@code /v1/retrieval/}, such as {@code sources/index}
   * @param idempotencyKey the Idempotency-Key header, or null
   */
  public RouteCall(
      String endpoint,
      Access access,
      ObjectNode json,
      String idempotencyKey,
      Limits limits,
      ObjectMapper mapper) {
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    this.access = Objects.requireNonNull(access, "access");
    this.json = Objects.requireNonNull(json, "json");
    this.idempotencyKey = idempotencyKey;
    this.limits = Objects.requireNonNull(limits, "limits");
    this.mapper = Objects.requireNonNull(mapper, "mapper");
  }

  public Access access() {
    return access;
  }

  public Limits limits() {
    return limits;
  }

  /** A strict reader over the body. */
  public WireObject body() {
    return WireObject.root(json);
  }

  /**
   * Makes the route's change. Everything before this call provably wrote nothing, so its faults are
   * plain failures; from here on, a fault may come after the change reached the store.
   */
  public <T> T write(Supplier<T> change) {
    writeStarted = true;
    return change.get();
  }

  /** Whether {@link #write} was called: a fault now leaves the outcome uncertain. */
  boolean writeStarted() {
    return writeStarted;
  }

  /**
   * The idempotency of this mutation, or null without a key: the key with a fingerprint of the
   * endpoint and the body's JSON value (key order and spacing do not matter).
   */
  public Mutation.Idempotency idempotency() {
    if (idempotencyKey == null) {
      return null;
    }
    return new Mutation.Idempotency(
        idempotencyKey, CanonicalJson.fingerprint(mapper, endpoint, json));
  }
}
