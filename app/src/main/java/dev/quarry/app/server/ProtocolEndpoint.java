package dev.quarry.app.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.Authenticator;
import dev.quarry.api.routes.Endpoint;
import dev.quarry.api.routes.Responses;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.corpora.access.Access;
import io.javalin.http.Context;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * {@code GET /v1/protocol}: the version, the features and the limits this server offers, and which
 * server it is ({@code server}: name, version, store). Any valid token may read it, after the
 * {@link Endpoint} pipeline's version and authentication checks; of no feature (a client reads it
 * to learn which are on) and not gated.
 */
final class ProtocolEndpoint extends Endpoint {
  static final String PATH = "/v1/protocol";

  private final Supplier<ObjectNode> protocol;

  /**
   * @param protocol the whole answer, built afresh for each request (a store's state may change)
   */
  ProtocolEndpoint(
      Authenticator tokens, Limits limits, StrictJson json, Supplier<ObjectNode> protocol) {
    super(tokens, Set.of(), null, null, limits, json);
    this.protocol = protocol;
  }

  @Override
  protected void checkBeforeBody(UnaryOperator<String> headers) {
    // a GET that reads no body: any Content-Type will do
  }

  @Override
  protected Work prepare(Context ctx, Access access) {
    return c -> Responses.write(c, 200, protocol.get(), json.mapper());
  }
}
