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
import dev.quarry.corpora.ingest.OcrLanguages;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * {@code POST /v1/retrieval/ingest}: a multipart upload of one document, answered with the source's
 * receipt and what extraction found (media type, extractor, pages, characters, warnings).
 *
 * <p>After {@link Endpoint}'s checks (version, authentication, the {@code document-ingestion}
 * feature) comes the upload (content type, sizes while streaming), then capacity (the upload is
 * read before a place in the gate is taken: a client slow to send holds none), the request part's
 * JSON, then grants, existence and replay (in {@code Corpora.ingest}), extraction and conflicts.
 * The uploaded bytes live in a temporary file for the length of the request and are always deleted.
 * An unexpected fault once the document was handed to the corpora leaves the outcome uncertain; one
 * before it is a plain failure.
 *
 * <p>Thread-safe; one per plugin.
 */
public final class IngestEndpoint extends Endpoint {
  /** The path below {@link RetrievalRoutes#PREFIX}. */
  public static final String PATH = "ingest";

  private final Corpora corpora;

  public IngestEndpoint(
      Corpora corpora,
      Authenticator authenticator,
      Set<Feature> features,
      Limits limits,
      RequestGate gate,
      StrictJson json) {
    super(authenticator, features, Feature.DOCUMENT_INGESTION, gate, limits, json);
    this.corpora = corpora;
  }

  @Override
  protected void checkBeforeBody(UnaryOperator<String> headers) {
    MultipartUpload.boundary(
        headers.apply("Content-Type")); // 415 for any type but multipart/form-data
  }

  @Override
  protected Work prepare(Context ctx, Access access) throws IOException {
    MultipartUpload.Upload upload =
        MultipartUpload.read(
            ctx.req().getInputStream(),
            ctx.header("Content-Type"),
            ctx.req().getContentLengthLong(),
            limits.get(Limit.MAX_REQUEST_BYTES),
            limits.get(Limit.MAX_DOCUMENT_BYTES),
            null);
    return new Work() {
      @Override
      public void run(Context c) {
        Responses.reply(c, ingest(c, access, upload), json.mapper());
      }

      @Override
      public void close() {
        upload.close();
      }
    };
  }

  private Reply ingest(Context ctx, Access access, MultipartUpload.Upload upload) {
    ObjectNode requestPart = IngestRequests.parseRequestPart(json, upload.request());
    IngestRequests request =
        IngestRequests.read(WireObject.root(requestPart), limits, upload.fileName());
    IngestRequests.requireOcrOffered(request.request().ocr(), "ocr", offers(Feature.OCR));
    // Languages this server cannot read are validation too: refused before grants and existence.
    OcrLanguages.requireInstalled(
        request.request().ocrLanguages(),
        "ocrLanguages",
        offers(Feature.OCR),
        corpora::missingOcrLanguages);
    String key = ctx.header(ProtocolHeaders.IDEMPOTENCY_KEY);
    Mutation.Idempotency idempotency =
        key == null
            ? null
            : IngestRequests.idempotency(
                json.mapper(), key, requestPart, upload.fileSha256(), upload.fileName());
    MutationResult result;
    try {
      result =
          corpora.ingest(access, request.corpus(), request.request(), upload.file(), idempotency);
    } catch (QuarryException | VirtualMachineError e) {
      throw e;
    } catch (RuntimeException | Error e) {
      // The document may or may not have reached the corpus: the client must reconcile.
      throw ErrorResponses.uncertain(e);
    }
    return new Reply(SourceResponses.receipt(result.single()), result.replayed());
  }
}
