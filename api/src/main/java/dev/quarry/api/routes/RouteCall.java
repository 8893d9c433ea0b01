package dev.quarry.api.routes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.wire.CanonicalJson;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.WireObject;
import dev.quarry.corpora.access.Access;
import dev.quarry.engine.Mutation;

/**
 * What a route gets once the request passed the version, authentication, feature, capacity and
 * body checks: who asks, the body, and the Idempotency-Key header.
 *
 * @param endpoint the endpoint path below {@code /v1/retrieval/}, such as {@code sources/index}
 * @param idempotencyKey the Idempotency-Key header, or null
 */
public record RouteCall(
    String endpoint, Access access, ObjectNode json, String idempotencyKey, Limits limits, ObjectMapper mapper) {

  /** A strict reader over the body. */
  public WireObject body() {
    return WireObject.root(json);
  }

  /**
   * The idempotency of this mutation, or null without a key: the key with a fingerprint of the
   * endpoint and the body's JSON value (key order and spacing do not matter).
   */
  public Mutation.Idempotency idempotency() {
    if (idempotencyKey == null) {
      return null;
    }
    return new Mutation.Idempotency(idempotencyKey, CanonicalJson.fingerprint(mapper, endpoint, json));
  }
}
