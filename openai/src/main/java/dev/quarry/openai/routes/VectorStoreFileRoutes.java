package dev.quarry.openai.routes;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.corpora.SourceText;
import dev.quarry.corpora.access.Access;
import dev.quarry.engine.CorpusSettings.Chunking;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SourceChunks;
import dev.quarry.engine.SourceOperation;
import dev.quarry.openai.store.Attachment;
import dev.quarry.openai.store.FileRecord;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code /vector_stores/{id}/files}: a file attached to a store is the store corpus's source named
 * by the file's id, ingested by a job of one file. Status and errors come from the job ({@link
 * Statuses}); deleting it deletes the source (the uploaded file stays, as on OpenAI).
 */
final class VectorStoreFileRoutes {
  private static final Set<String> CREATE = Set.of("file_id", "attributes", "chunking_strategy");
  private static final Set<String> UPDATE = Set.of("attributes");
  private static final Set<String> LIST = Set.of("limit", "order", "after", "before", "filter");
  private static final Set<String> FILTERS =
      Set.of(Statuses.IN_PROGRESS, Statuses.COMPLETED, Statuses.FAILED, Statuses.CANCELLED);
  private static final int CHUNK_PAGE = 100;

  private final Backend backend;
  private final Attacher attacher;
  private final VectorStoreRoutes stores;

  VectorStoreFileRoutes(Backend backend, Attacher attacher, VectorStoreRoutes stores) {
    this.backend = backend;
    this.attacher = attacher;
    this.stores = stores;
  }

  void create(Context ctx, Access access) throws IOException {
    String store = ctx.pathParam("id");
    Params p = Params.of(backend.body(ctx, false), "", CREATE);
    String fileId = p.string("file_id");
    Metadata attrs = Attributes.read(p.get("attributes"), "attributes");
    ObjectNode attrsJson =
        p.has("attributes")
            ? (ObjectNode) p.get("attributes")
            : backend.mapper().createObjectNode();
    Chunking chunking =
        p.has("chunking_strategy")
            ? ChunkingStrategy.read(p.get("chunking_strategy"), "chunking_strategy")
            : null;
    Chunking storeChunking = stores.chunking(access, store);
    ChunkingStrategy.requireStores(chunking, storeChunking, "chunking_strategy");
    FileRecord file = FileRoutes.require(backend, access, fileId, "file_id");
    attacher.attach(access, store, List.of(new Attacher.Item(file, attrsJson, attrs)), false);
    Replies.json(
        ctx, 200, render(store, require(access, store, fileId), storeChunking), backend.mapper());
  }

  void retrieve(Context ctx, Access access) {
    Params.query(ctx, Set.of());
    String store = ctx.pathParam("id");
    Chunking chunking = stores.chunking(access, store);
    ObjectNode out = render(store, require(access, store, ctx.pathParam("file")), chunking);
    Replies.pollAfter(ctx, out);
    Replies.json(ctx, 200, out, backend.mapper());
  }

  /** New attributes: the file is ingested again with them (its bytes must still be stored). */
  void update(Context ctx, Access access) throws IOException {
    String store = ctx.pathParam("id");
    ObjectNode body = backend.body(ctx, false);
    Params p = Params.of(body, "", UPDATE);
    if (!body.has("attributes")) {
      // Required, as on OpenAI; null clears the attributes.
      throw p.missing("attributes");
    }
    Metadata attrs = Attributes.read(p.get("attributes"), "attributes");
    ObjectNode attrsJson =
        p.has("attributes")
            ? (ObjectNode) p.get("attributes")
            : backend.mapper().createObjectNode();
    Chunking chunking = stores.chunking(access, store);
    Attachment old = require(access, store, ctx.pathParam("file"));
    FileRecord file = FileRoutes.require(backend, access, old.fileId(), "file_id");
    attacher.attach(access, store, List.of(new Attacher.Item(file, attrsJson, attrs)), false);
    Replies.json(
        ctx, 200, render(store, require(access, store, old.fileId()), chunking), backend.mapper());
  }

  void delete(Context ctx, Access access) {
    Params.query(ctx, Set.of());
    String store = ctx.pathParam("id");
    stores.require(access, store);
    Attachment a = require(access, store, ctx.pathParam("file"));
    if (backend.statuses().of(store, a).status().equals(Statuses.IN_PROGRESS)) {
      if (a.batch() != null) {
        throw new OpenAiException(
            400,
            "This file is still being ingested with batch '"
                + a.batch()
                + "'; cancel the batch or wait for it.",
            null,
            "file_in_progress");
      }
      try {
        backend.jobs().cancel(access, a.job());
      } catch (QuarryException e) {
        if (e.code() != ErrorCode.JOB_NOT_FOUND) {
          throw e;
        }
        // Another subject's ingestion, on a store the caller does not manage.
        throw new OpenAiException(
            400, "This file is still being ingested; wait for it.", null, "file_in_progress");
      }
    }
    backend
        .corpora()
        .mutate(
            access,
            store,
            List.of(new SourceOperation.Delete(a.fileId(), null, false)),
            null,
            null);
    backend.attachments().delete(store, a.fileId());
    ObjectNode out =
        backend
            .mapper()
            .createObjectNode()
            .put("id", a.fileId())
            .put("object", "vector_store.file.deleted")
            .put("deleted", true);
    Replies.json(ctx, 200, out, backend.mapper());
  }

  void list(Context ctx, Access access) {
    String store = ctx.pathParam("id");
    stores.require(access, store);
    list(ctx, access, store, null);
  }

  /**
   * The store's files the caller may see ({@code batch}'s alone when not null), as a cursor page.
   */
  void list(Context ctx, Access access, String store, String batch) {
    Map<String, String> query = Params.query(ctx, LIST);
    Lists.Cursor cursor = Lists.Cursor.of(query);
    String filter = query.get("filter");
    if (filter != null && !FILTERS.contains(filter)) {
      throw new OpenAiException(
          400,
          "'filter' must be one of " + FILTERS + "; got '" + filter + "'.",
          "filter",
          "invalid_value");
    }
    Chunking chunking = stores.chunking(access, store);
    List<Attachment> shown = new ArrayList<>();
    for (Attachment a : backend.attachments().all(store)) {
      if ((batch == null || batch.equals(a.batch()))
          && FileBatchRoutes.sees(access, store, a.fileId())
          && (filter == null || backend.statuses().of(store, a).status().equals(filter))) {
        shown.add(a);
      }
    }
    shown.sort(Comparator.comparingLong(Attachment::createdAt).thenComparing(Attachment::fileId));
    Replies.json(
        ctx,
        200,
        Lists.page(
            shown, Attachment::fileId, a -> render(store, a, chunking), cursor, backend.mapper()),
        backend.mapper());
  }

  /**
   * The file's text as Quarry extracted it, chunk by chunk without their overlaps, as one text
   * part.
   */
  void content(Context ctx, Access access) {
    Params.query(ctx, Set.of());
    String store = ctx.pathParam("id");
    stores.require(access, store);
    Attachment a = require(access, store, ctx.pathParam("file"));
    StringBuilder text = new StringBuilder();
    int end = 0;
    Integer after = null;
    do {
      SourceText page;
      try {
        page =
            backend.corpora().readChunks(access, store, a.fileId(), null, after, CHUNK_PAGE, null);
      } catch (QuarryException e) {
        if (e.code() == ErrorCode.SOURCE_NOT_FOUND) {
          break; // not indexed (yet, or it failed): no content
        }
        throw e;
      }
      for (SourceChunks.Chunk c : page.chunks().chunks()) {
        // Chunks overlap: each adds what lies past the end of the text so far.
        if (c.end() > end) {
          int from = Math.max(0, end - c.start());
          text.append(c.text(), Math.min(from, c.text().length()), c.text().length());
          end = c.end();
        }
      }
      after = page.chunks().nextAfter();
    } while (after != null);
    ObjectNode out =
        backend.mapper().createObjectNode().put("object", "vector_store.file_content.page");
    ArrayNode data = out.putArray("data");
    if (!text.isEmpty()) {
      data.addObject().put("type", "text").put("text", text.toString());
    }
    out.put("has_more", false).putNull("next_page");
    Replies.json(ctx, 200, out, backend.mapper());
  }

  /**
   * The attachment of {@code fileId} to {@code store}, if the caller sees that source; 404 alike
   * otherwise.
   */
  private Attachment require(Access access, String store, String fileId) {
    if (!Ids.isFile(fileId) || !FileBatchRoutes.sees(access, store, fileId)) {
      throw OpenAiException.notFound("file in this vector store", fileId);
    }
    return backend
        .attachments()
        .find(store, fileId)
        .orElseThrow(() -> OpenAiException.notFound("file in this vector store", fileId));
  }

  ObjectNode render(String store, Attachment a, Chunking chunking) {
    Statuses.FileState state = backend.statuses().of(store, a);
    ObjectNode out =
        backend
            .mapper()
            .createObjectNode()
            .put("id", a.fileId())
            .put("object", "vector_store.file")
            .put("usage_bytes", state.status().equals(Statuses.COMPLETED) ? a.bytes() : 0)
            .put("created_at", a.createdAt())
            .put("vector_store_id", store)
            .put("status", state.status());
    if (state.errorCode() == null) {
      out.putNull("last_error");
    } else {
      out.putObject("last_error")
          .put("code", lastErrorCode(state.errorCode()))
          .put("message", state.errorMessage() == null ? state.errorCode() : state.errorMessage())
          .put("quarry_code", state.errorCode());
    }
    out.set("attributes", a.attributes());
    out.set("chunking_strategy", ChunkingStrategy.describe(chunking, backend.mapper()));
    if (a.batch() != null) {
      out.putObject("quarry").put("batch_id", a.batch());
    }
    return out;
  }

  /** OpenAI's three last_error codes for Quarry's ingestion errors. */
  private static String lastErrorCode(String quarryCode) {
    return switch (quarryCode) {
      case "UNSUPPORTED_MEDIA_TYPE" -> "unsupported_file";
      case "EXTRACTION_FAILED",
          "DOCUMENT_ENCRYPTED",
          "NO_TEXT_EXTRACTED",
          "DOCUMENT_TOO_LARGE",
          "PDF_INGESTION_UNAVAILABLE" ->
          "invalid_file";
      default -> "server_error";
    };
  }
}
