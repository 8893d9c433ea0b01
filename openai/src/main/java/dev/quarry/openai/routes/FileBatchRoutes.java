package dev.quarry.openai.routes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.AccessPolicy;
import dev.quarry.corpora.access.Scope;
import dev.quarry.corpora.jobs.JobView;
import dev.quarry.engine.CorpusSettings.Chunking;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.QuarryException;
import dev.quarry.openai.store.Attachment;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code /vector_stores/{id}/file_batches}: many files attached as one ingestion job, whose id the
 * batch's id carries ({@code vsfb_<job>}); its status and {@code file_counts} are the job's, and
 * cancelling it cancels the job (files already indexed stay, the others never will be).
 */
final class FileBatchRoutes {
  private static final Set<String> CREATE =
      Set.of("file_ids", "files", "attributes", "chunking_strategy");
  private static final Set<String> FILE = Set.of("file_id", "attributes", "chunking_strategy");
  private static final Set<Scope> READ = EnumSet.of(Scope.SEARCH, Scope.INDEX);

  private final Backend backend;
  private final Attacher attacher;
  private VectorStoreRoutes stores;
  private VectorStoreFileRoutes files;

  FileBatchRoutes(Backend backend, Attacher attacher) {
    this.backend = backend;
    this.attacher = attacher;
  }

  void wire(VectorStoreRoutes storeRoutes, VectorStoreFileRoutes fileRoutes) {
    this.stores = storeRoutes;
    this.files = fileRoutes;
  }

  /**
   * The files {@code ids} (at {@code param}) names, each the caller's, each once, with {@code
   * attributes}.
   */
  List<Attacher.Item> items(
      Access access, JsonNode ids, String param, ObjectNode attributesJson, Metadata attributes) {
    if (!ids.isArray()) {
      throw new OpenAiException(
          400, "Invalid type for '" + param + "': expected an array.", param, "invalid_type");
    }
    List<Attacher.Item> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < ids.size(); i++) {
      String path = param + "[" + i + "]";
      if (!ids.get(i).isTextual()) {
        throw new OpenAiException(
            400, "Invalid type for '" + path + "': expected a string.", path, "invalid_type");
      }
      String id = ids.get(i).asText();
      if (!seen.add(id)) {
        throw new OpenAiException(400, "File '" + id + "' is named twice.", path, "invalid_value");
      }
      out.add(
          new Attacher.Item(
              FileRoutes.require(backend, access, id, path),
              attributesJson == null ? backend.mapper().createObjectNode() : attributesJson,
              attributes == null ? Metadata.EMPTY : attributes));
    }
    if (out.isEmpty()) {
      throw new OpenAiException(400, "'" + param + "' names no file.", param, "invalid_value");
    }
    return out;
  }

  void create(Context ctx, Access access) throws IOException {
    String store = ctx.pathParam("id");
    Params p = Params.of(backend.body(ctx, false), "", CREATE);
    Chunking chunking =
        p.has("chunking_strategy")
            ? ChunkingStrategy.read(p.get("chunking_strategy"), "chunking_strategy")
            : null;
    Metadata attrs = Attributes.read(p.get("attributes"), "attributes");
    ObjectNode attrsJson = p.has("attributes") ? (ObjectNode) p.get("attributes") : null;
    // Grants on the store, then its existence, before the files are looked up.
    Chunking storeChunking = stores.chunking(access, store);
    if (p.has("file_ids") == p.has("files")) {
      throw new OpenAiException(
          400, "Send exactly one of 'file_ids' and 'files'.", "file_ids", "invalid_value");
    }
    List<Attacher.Item> items;
    List<Chunking> perFile = new ArrayList<>();
    if (p.has("file_ids")) {
      items = items(access, p.get("file_ids"), "file_ids", attrsJson, attrs);
    } else {
      JsonNode list = p.get("files");
      if (!list.isArray() || list.isEmpty()) {
        throw p.invalidValue("files", "'files' must be a non-empty array.");
      }
      items = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < list.size(); i++) {
        String path = "files[" + i + "]";
        Params f = Params.of(list.get(i), path, FILE);
        String id = f.string("file_id");
        if (!seen.add(id)) {
          throw new OpenAiException(
              400, "File '" + id + "' is named twice.", f.path("file_id"), "invalid_value");
        }
        if (f.has("chunking_strategy")) {
          perFile.add(
              ChunkingStrategy.read(f.get("chunking_strategy"), f.path("chunking_strategy")));
        }
        boolean own = f.has("attributes");
        Metadata fileAttrs =
            own ? Attributes.read(f.get("attributes"), f.path("attributes")) : attrs;
        items.add(
            new Attacher.Item(
                FileRoutes.require(backend, access, id, f.path("file_id")),
                own
                    ? (ObjectNode) f.get("attributes")
                    : attrsJson == null ? backend.mapper().createObjectNode() : attrsJson,
                fileAttrs));
      }
    }
    ChunkingStrategy.requireStores(chunking, storeChunking, "chunking_strategy");
    for (int i = 0; i < perFile.size(); i++) {
      ChunkingStrategy.requireStores(
          perFile.get(i), storeChunking, "files[" + i + "].chunking_strategy");
    }
    JobView job = attacher.attach(access, store, items, true);
    Replies.json(ctx, 200, render(access, store, Ids.batch(job.id())), backend.mapper());
  }

  void retrieve(Context ctx, Access access) {
    Params.query(ctx, Set.of());
    String store = ctx.pathParam("id");
    String batch = ctx.pathParam("batch");
    requireBatch(access, store, batch);
    ObjectNode out = render(access, store, batch);
    Replies.pollAfter(ctx, out);
    Replies.json(ctx, 200, out, backend.mapper());
  }

  void cancel(Context ctx, Access access) throws IOException {
    Params.of(backend.body(ctx, true), "", Set.of());
    String store = ctx.pathParam("id");
    String batch = ctx.pathParam("batch");
    requireBatch(access, store, batch);
    try {
      backend.jobs().cancel(access, Ids.jobOf(batch));
    } catch (QuarryException e) {
      // Another subject's batch on a store the caller does not manage: as for any unknown batch.
      throw e.code() == ErrorCode.JOB_NOT_FOUND ? OpenAiException.notFound("file batch", batch) : e;
    }
    Replies.json(ctx, 200, render(access, store, batch), backend.mapper());
  }

  void listFiles(Context ctx, Access access) {
    String store = ctx.pathParam("id");
    String batch = ctx.pathParam("batch");
    requireBatch(access, store, batch);
    files.list(ctx, access, store, batch);
  }

  /** Grants on the store, its existence, then the batch's: every unknown batch reads alike. */
  private void requireBatch(Access access, String store, String batch) {
    stores.require(access, store);
    String job = Ids.jobOf(batch);
    boolean known =
        job != null
            && (backend.statuses().job(store, job).isPresent()
                || backend.attachments().all(store).stream()
                    .anyMatch(a -> batch.equals(a.batch())));
    if (!known) {
      throw OpenAiException.notFound("file batch", batch);
    }
  }

  /**
   * The batch as OpenAI's {@code vector_store.files_batch}: its status from its job (from its files
   * once the job is gone), and {@code file_counts} of the files the caller sees. A caller granted
   * only some of the store's sources counts only those, never the rest of the job's.
   */
  private ObjectNode render(Access access, String store, String batch) {
    Optional<JobView> job = backend.statuses().job(store, Ids.jobOf(batch));
    ObjectNode out =
        backend
            .mapper()
            .createObjectNode()
            .put("id", batch)
            .put("object", "vector_store.files_batch");
    int inProgress = 0;
    int completed = 0;
    int failed = 0;
    int cancelled = 0;
    long created = job.map(j -> j.createdAt().getEpochSecond()).orElse(Long.MAX_VALUE);
    if (job.isPresent() && AccessPolicy.seesAllSources(access, store, READ)) {
      JobView.Counts c = job.get().counts();
      inProgress = c.queued() + c.extracting();
      completed = c.indexed() + c.unchanged();
      failed = c.failed();
      cancelled = c.cancelled();
    } else {
      for (Attachment a : backend.attachments().all(store)) {
        if (!batch.equals(a.batch())) {
          continue;
        }
        created = job.isPresent() ? created : Math.min(created, a.createdAt());
        if (!sees(access, store, a.fileId())) {
          continue;
        }
        switch (backend.statuses().of(store, a).status()) {
          case Statuses.IN_PROGRESS -> inProgress++;
          case Statuses.COMPLETED -> completed++;
          case Statuses.FAILED -> failed++;
          default -> cancelled++;
        }
      }
    }
    String status =
        job.isPresent()
            ? Statuses.batchStatus(job.get())
            : inProgress > 0
                ? Statuses.IN_PROGRESS
                : cancelled > 0 ? Statuses.CANCELLED : Statuses.COMPLETED;
    out.put("created_at", created).put("vector_store_id", store).put("status", status);
    out.putObject("file_counts")
        .put("in_progress", inProgress)
        .put("completed", completed)
        .put("failed", failed)
        .put("cancelled", cancelled)
        .put("total", inProgress + completed + failed + cancelled);
    return out;
  }

  /** Whether the caller sees file {@code fileId} of {@code store}. */
  static boolean sees(Access access, String store, String fileId) {
    return AccessPolicy.visibleSources(access, store, READ).test(fileId);
  }
}
