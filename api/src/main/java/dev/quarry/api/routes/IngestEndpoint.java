package dev.quarry.api.routes;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.Authenticator;
import dev.quarry.api.wire.Feature;
import dev.quarry.api.wire.IngestRequests;
import dev.quarry.api.wire.Limit;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.ProtocolHeaders;
import dev.quarry.api.wire.SourceResponses;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.api.wire.WireObject;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.io.IOException;
import java.util.Set;

/**
 * {@code POST /v1/retrieval/ingest}: a multipart upload of one document, answered with the source's
 * receipt and what extraction found (media type, extractor, pages, characters, warnings).
 *
 * <p>Checks in the contract's order: version, authentication, the {@code document-ingestion}
 * feature, then the upload (content type, sizes while streaming), capacity, the request part's
 * JSON, then grants, existence and replay (in {@code Corpora.ingest}), extraction and conflicts.
 * The uploaded bytes live in a temporary file for the length of the request and are always
 * deleted. An unexpected fault after the upload was read leaves the outcome uncertain.
 *
 * <p>Thread-safe; one per plugin.
 */
public final class IngestEndpoint implements Handler {
  /** The path below {@link RetrievalRoutes#PREFIX}. */
  public static final String PATH = "ingest";

  private final Corpora corpora;
  private final Authenticator authenticator;
  private final Set<Feature> features;
  private final Limits limits;
  private final RequestGate gate;
  private final StrictJson json;

  public IngestEndpoint(Corpora corpora, Authenticator authenticator, Set<Feature> features, Limits limits,
      RequestGate gate, StrictJson json) {
    this.corpora = corpora;
    this.authenticator = authenticator;
    this.features = Set.copyOf(features);
    this.limits = limits;
    this.gate = gate;
    this.json = json;
  }

  @Override
  public void handle(Context ctx) {
    try {
      Access access = RetrievalEndpoint.admit(ctx, authenticator, features, Feature.DOCUMENT_INGESTION);
      RetrievalEndpoint.answer(ctx, ingest(ctx, access), json.mapper());
    } catch (QuarryException e) {
      RetrievalEndpoint.fail(ctx, e, json.mapper());
    } catch (VirtualMachineError e) {
      // Out of memory or stack: the JVM's state is in doubt, so no answer is attempted here.
      throw e;
    } catch (RuntimeException | IOException | Error e) {
      RetrievalEndpoint.fail(ctx, RetrievalEndpoint.internal(e), json.mapper());
    }
  }

  private Reply ingest(Context ctx, Access access) throws IOException {
    try (MultipartUpload.Upload upload = MultipartUpload.read(ctx.req().getInputStream(), ctx.header("Content-Type"),
        ctx.req().getContentLengthLong(), limits.get(Limit.MAX_REQUEST_BYTES), limits.get(Limit.MAX_DOCUMENT_BYTES),
        null);
        // The upload is read before a place in the gate is taken: a client slow to send holds none.
        RequestGate.Permit permit = gate.enter()) {
      ObjectNode requestPart;
      try {
        requestPart = json.parseObject(upload.request());
      } catch (QuarryException e) {
        throw IngestRequests.inRequestPart(e);
      }
      IngestRequests request = IngestRequests.read(WireObject.root(requestPart), limits);
      String key = ctx.header(ProtocolHeaders.IDEMPOTENCY_KEY);
      Mutation.Idempotency idempotency = key == null ? null
          : new Mutation.Idempotency(key, IngestRequests.fingerprint(json.mapper(), requestPart, upload.fileSha256()));
      MutationResult result;
      try {
        result = corpora.ingest(access, request.corpus(), request.request(), upload.file(), idempotency);
      } catch (QuarryException | VirtualMachineError e) {
        throw e;
      } catch (RuntimeException | Error e) {
        // The document may or may not have reached the corpus: the client must reconcile.
        QuarryException internal = RetrievalEndpoint.internal(e);
        throw new QuarryException(internal.code(), internal.getMessage(), null, true, null);
      }
      return new Reply(SourceResponses.receipt(result.single()), result.replayed());
    }
  }
}
