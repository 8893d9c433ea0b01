package dev.quarry.api.routes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.Authenticator;
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

/**
 * The pipeline every Quarry endpoint runs, as Elasticsearch's {@code BaseRestHandler}: a final
 * {@link #handle} applies the contract's order of checks (version, authentication, the endpoint's
 * feature, capacity), then calls {@link #prepare}, the one method an endpoint writes, which reads
 * its body (content type, size, then the body itself; {@link #readJson} for JSON bodies) and does
 * the work; the {@link Answer} it returns is written while the capacity permit is still held. Every
 * failure, {@code Error}s included, is answered through {@link ErrorResponses}; only a {@link
 * VirtualMachineError} escapes, since the JVM's state is then in doubt.
 *
 * <p>Thread-safe; subclasses hold no per-request state.
 */
public abstract class Endpoint implements Handler {
  private final Authenticator authenticator;
  private final Set<Feature> features;
  private final Feature feature;
  private final RequestGate gate;
  /** The request limits, for {@link #readJson} and the endpoint's own reading. */
  protected final Limits limits;
  /** The strict JSON reader, whose mapper also writes the answers. */
  protected final StrictJson json;

  /**
   * @param features the switched-on features of the server
   * @param feature the feature this endpoint belongs to, or null for one every host has
   * @param gate the capacity gate to pass before the work, or null for an endpoint that is not gated
   */
  protected Endpoint(Authenticator authenticator, Set<Feature> features, Feature feature, RequestGate gate,
      Limits limits, StrictJson json) {
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
      ProtocolHeaders.checkRequestedVersion(ctx.header(ProtocolHeaders.VERSION_HEADER));
      Access access = Authentication.authenticate(ctx, authenticator);
      if (feature != null && !features.contains(feature)) {
        throw new QuarryException(feature.unavailableCode(),
            "the " + feature.wireName() + " feature is not available on this server");
      }
      if (gate == null) {
        prepare(ctx, access).write(ctx, json.mapper());
      } else {
        try (RequestGate.Permit permit = gate.enter()) {
          prepare(ctx, access).write(ctx, json.mapper());
        }
      }
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable t) {
      ErrorResponses.write(ctx, t, json.mapper());
    }
  }

  /**
   * Reads the request (content type, size, body) and does the endpoint's work for a caller that
   * passed the version, authentication, feature and capacity checks.
   *
   * @return what to write back; it runs while the capacity permit is held
   */
  protected abstract Answer prepare(Context ctx, Access access) throws IOException;

  /**
   * The JSON body as an object, after the content-type check (415) and within {@link
   * Limit#MAX_REQUEST_BYTES} (413); malformed JSON or a non-object is 400.
   */
  protected final ObjectNode readJson(Context ctx) {
    BodyReader.checkJsonContentType(ctx.header("Content-Type"));
    byte[] bytes;
    try {
      bytes = BodyReader.read(ctx.req().getInputStream(), ctx.req().getContentLengthLong(),
          limits.get(Limit.MAX_REQUEST_BYTES));
    } catch (IOException e) {
      // The client went away or sent a broken chunked body: nothing of ours failed.
      throw QuarryException.invalid(StrictJson.BODY_FIELD, "the request body could not be read: " + e.getMessage());
    }
    return json.parseObject(bytes);
  }

  /** What an endpoint writes back once its work is done. */
  @FunctionalInterface
  public interface Answer {
    void write(Context ctx, ObjectMapper mapper) throws IOException;
  }
}
