package dev.quarry.api.routes;

import dev.quarry.api.Authenticator;
import dev.quarry.api.ChecksBeforeBody;
import dev.quarry.api.wire.Feature;
import dev.quarry.api.wire.Limit;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.ProtocolHeaders;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.corpora.access.Access;
import dev.quarry.engine.QuarryException;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.io.IOException;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The pipeline every Quarry endpoint runs, as Elasticsearch's {@code BaseRestHandler}: a final
 * {@link #handle} applies the contract's order of checks (version, authentication, the endpoint's
 * feature, the content type: all that need only the headers, which a host can also ask before the
 * body arrives, {@link #refusesBeforeBody}), then calls {@link #prepare}, the one method an
 * endpoint writes, which reads the request (size, the body's bytes; {@link #readBody} for JSON
 * bodies) and returns the {@link Work} to do; capacity is taken after the body arrived, so a client
 * slow to send holds no place in the gate, and the work (the body's JSON, the call, the answer)
 * runs holding it. Every failure, {@code Error}s included, is answered through {@link
 * ErrorResponses}; only a {@link VirtualMachineError} escapes, since the JVM's state is then in
 * doubt.
 *
 * <p>Thread-safe; subclasses hold no per-request state.
 */
public abstract class Endpoint implements Handler, ChecksBeforeBody {
  private final Authenticator authenticator;
  private final Set<Feature> features;
  private final Feature feature;
  private final RequestGate gate;

  /** The request limits, for {@link #readBody} and the endpoint's own reading. */
  protected final Limits limits;

  /** The strict JSON reader, whose mapper also writes the answers. */
  protected final StrictJson json;

  /**
   * @param features the switched-on features of the server
   * @param feature the feature this endpoint belongs to, or null for one every host has
   * @param gate the capacity gate to pass before the work, or null for an endpoint that is not
   *     gated
   */
  protected Endpoint(
      Authenticator authenticator,
      Set<Feature> features,
      Feature feature,
      RequestGate gate,
      Limits limits,
      StrictJson json) {
    this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
    this.features = Set.copyOf(features);
    this.feature = feature;
    this.gate = gate;
    this.limits = Objects.requireNonNull(limits, "limits");
    this.json = Objects.requireNonNull(json, "json");
  }

  @Override
  public final void handle(Context ctx) {
    try {
      Access access = admit(ctx::header, ctx);
      try (Work work = prepare(ctx, access)) {
        if (gate == null) {
          work.run(ctx);
        } else {
          try (RequestGate.Permit permit = gate.enter()) {
            work.run(ctx);
          }
        }
      }
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable t) {
      ErrorResponses.write(ctx, t, json.mapper());
    }
  }

  /**
   * Whether a request with these headers is refused before its body is read (version,
   * authentication, feature, {@link #checkBeforeBody}), by the same checks {@link #handle} makes
   * first: a host that collects bodies before handling requests hands such a request on at once
   * rather than wait for a body that will never be read.
   *
   * @param headers the request's header of each name, or null
   */
  @Override
  public final boolean refusesBeforeBody(UnaryOperator<String> headers) {
    try {
      admit(headers, null);
      return false;
    } catch (RuntimeException refused) {
      // Typed refusals, and faults (an authenticator that fails) the handler answers 500 just as
      // early.
      return true;
    }
  }

  /**
   * The checks that need only the headers, in the contract's order: version, authentication, the
   * endpoint's feature, {@link #checkBeforeBody}. The one list of them, so the checks made before
   * the body arrives ({@link #refusesBeforeBody}) cannot drift from those {@link #handle} makes.
   *
   * <p>The caller is authenticated again in {@link #handle} after a host asked before the body: on
   * the request's own thread, so a token revoked while the body arrived is refused and the host's
   * authenticator sees the request it serves (the server notes the subject for its access log).
   *
   * @param ctx the request's context, which gets the {@code WWW-Authenticate} challenge of a 401,
   *     or null before the request reaches its endpoint
   * @return the caller's access
   */
  private Access admit(UnaryOperator<String> headers, Context ctx) {
    ProtocolHeaders.checkRequestedVersion(headers.apply(ProtocolHeaders.VERSION_HEADER));
    Access access =
        ctx == null
            ? Authentication.authenticate(headers.apply("Authorization"), authenticator)
            : Authentication.authenticate(ctx, authenticator);
    checkFeature();
    checkBeforeBody(headers);
    return access;
  }

  private void checkFeature() {
    if (feature != null && !features.contains(feature)) {
      throw new QuarryException(
          feature.unavailableCode(),
          "the " + feature.wireName() + " feature is not available on this server");
    }
  }

  /**
   * The endpoint's own refusals that need only the headers, made after authentication and the
   * feature check and before {@link #prepare}: by default, a Content-Type that is not JSON (415).
   *
   * @param headers the request's header of each name, or null
   */
  protected void checkBeforeBody(UnaryOperator<String> headers) {
    BodyReader.checkJsonContentType(headers.apply("Content-Type"));
  }

  /**
   * Whether the server offers {@code f}: for an endpoint whose request may ask for a feature
   * besides its own.
   */
  protected final boolean offers(Feature f) {
    return features.contains(f);
  }

  /**
   * Reads the request (size, the body) of a caller that passed the version, authentication and
   * feature checks, and returns the work to do with it.
   *
   * @return the work, run once capacity is granted and closed in any case
   */
  protected abstract Work prepare(Context ctx, Access access) throws IOException;

  /**
   * The request's body, within {@link Limit#MAX_REQUEST_BYTES} (413); a read that fails is the
   * client's error ({@link ClientBody}). The content type was checked before ({@link
   * #checkBeforeBody}).
   */
  protected final byte[] readBody(Context ctx) {
    try {
      return BodyReader.read(
          ctx.req().getInputStream(),
          ctx.req().getContentLengthLong(),
          limits.get(Limit.MAX_REQUEST_BYTES));
    } catch (IOException e) {
      // The client went away, sent a broken chunked body, or sent it too slowly: nothing of ours
      // failed.
      throw ClientBody.failure(e);
    }
  }

  /** An endpoint's work on a request it has read: it answers through the context. */
  @FunctionalInterface
  public interface Work extends AutoCloseable {
    void run(Context ctx) throws IOException;

    /** Releases what the request holds (an uploaded file); called whether or not the work ran. */
    @Override
    default void close() throws IOException {}
  }
}
