package dev.quarry.api.routes;

import dev.quarry.api.Authenticator;
import dev.quarry.api.wire.Feature;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.ProtocolHeaders;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.corpora.access.Access;
import dev.quarry.engine.QuarryException;
import io.javalin.http.Context;
import java.util.Set;

/**
 * The endpoint behind every JSON retrieval route: after {@link Endpoint}'s checks it reads the
 * body's bytes, and holding a place in the capacity gate (for a gated route) parses the JSON and
 * hands it to the route's handler. A fault after a mutating route started its write answers with
 * {@code "outcome": "uncertain"}; one before it is a plain failure.
 *
 * <p>Thread-safe; one per route.
 */
public final class RetrievalEndpoint extends Endpoint {
  private final Route route;

  public RetrievalEndpoint(
      Route route,
      Authenticator authenticator,
      Set<Feature> features,
      Limits limits,
      RequestGate gate,
      StrictJson json) {
    super(
        authenticator, features, route.feature(), route.kind().gated() ? gate : null, limits, json);
    this.route = route;
  }

  @Override
  protected Work prepare(Context ctx, Access access) {
    byte[] bytes = readBody(ctx);
    return c -> Responses.reply(c, call(c, access, bytes), json.mapper());
  }

  private Reply call(Context ctx, Access access, byte[] bytes) {
    RouteCall call =
        new RouteCall(
            route.path(),
            access,
            json.parseObject(bytes),
            ctx.header(ProtocolHeaders.IDEMPOTENCY_KEY),
            limits,
            json.mapper());
    try {
      return route.handler().handle(call);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (RuntimeException | Error e) {
      if (!call.writeStarted() || e instanceof QuarryException) {
        throw e;
      }
      // The change may or may not have reached the store: the client must reconcile.
      throw ErrorResponses.uncertain(e);
    }
  }
}
