package dev.quarry.openai.routes;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.corpora.CorpusDescription;
import dev.quarry.corpora.CorpusListPage;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.AccessPolicy;
import dev.quarry.corpora.access.Scope;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.CorpusSettings.Chunking;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.openai.store.Attachment;
import dev.quarry.openai.store.StoreRecord;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * {@code /vector_stores}: a vector store is a corpus. One created here is named {@code vs_...};
 * every corpus the caller has a grant on is a vector store whose id is its name (so a store's
 * grants are its corpus's). Its name, description and metadata are kept beside the corpus ({@code
 * StoreRecords}); a corpus without such a record is named after itself.
 */
final class VectorStoreRoutes {
  private static final Set<String> CREATE =
      Set.of("name", "metadata", "file_ids", "chunking_strategy", "expires_after", "description");
  private static final Set<String> UPDATE = Set.of("name", "metadata", "expires_after");
  private static final Set<Scope> READ = EnumSet.of(Scope.SEARCH, Scope.INDEX);
  private static final int CORPUS_PAGE = 1000;

  private final Backend backend;
  private final Attacher attacher;
  private final FileBatchRoutes batches;

  VectorStoreRoutes(Backend backend, Attacher attacher, FileBatchRoutes batches) {
    this.backend = backend;
    this.attacher = attacher;
    this.batches = batches;
  }

  /**
   * The store {@code id} as the caller may see it: FORBIDDEN without a grant on it (whether or not
   * it exists), then 404 when it does not exist.
   */
  CorpusDescription require(Access access, String id) {
    try {
      CorpusInfo.checkName(id, "vector_store_id");
    } catch (QuarryException e) {
      // No corpus can have this name: it names nothing, inside the grants or out.
      throw OpenAiException.notFound("vector store", id);
    }
    try {
      return backend.corpora().readCorpus(access, id);
    } catch (QuarryException e) {
      if (e.code() == ErrorCode.CORPUS_NOT_FOUND) {
        throw OpenAiException.notFound("vector store", id);
      }
      throw e;
    }
  }

  void create(Context ctx, Access access) throws IOException {
    Params p = Params.of(backend.body(ctx, false), "", CREATE);
    if (p.has("expires_after")) {
      throw OpenAiException.unsupported(
          "expires_after", "Vector stores do not expire on Quarry; delete them instead.");
    }
    String name = p.optString("name");
    String description = p.optString("description");
    ObjectNode metadata = Attributes.readMetadata(p.get("metadata"), "metadata", backend.mapper());
    Chunking chunking =
        p.has("chunking_strategy")
            ? ChunkingStrategy.read(p.get("chunking_strategy"), "chunking_strategy")
            : null;
    String id = Ids.newStore();
    // Grants first: creating a store is creating a corpus of that name.
    AccessPolicy.requireCorpus(access, id, EnumSet.of(Scope.MANAGE));
    List<Attacher.Item> items =
        p.has("file_ids")
            ? batches.items(access, p.get("file_ids"), "file_ids", null, null)
            : List.of();
    CorpusSettings settings =
        chunking == null
            ? null
            : new CorpusSettings(
                CorpusSettings.Language.ENGLISH, chunking, CorpusSettings.Ranking.DEFAULT);
    CorpusDescription created = backend.corpora().createCorpus(access, id, settings);
    try {
      backend.stores().write(id, new StoreRecord(name, metadata, description, backend.now()));
      if (!items.isEmpty()) {
        attacher.attach(access, id, items, true);
      }
    } catch (IOException | RuntimeException e) {
      // A failed creation changes nothing: the new corpus goes again.
      backend.corpora().deleteCorpus(access, id);
      backend.stores().delete(id);
      backend.attachments().deleteAll(id);
      throw e;
    }
    Replies.json(ctx, 200, render(access, created), backend.mapper());
  }

  void retrieve(Context ctx, Access access) {
    Params.query(ctx, Set.of());
    Replies.json(ctx, 200, render(access, require(access, ctx.pathParam("id"))), backend.mapper());
  }

  void update(Context ctx, Access access) throws IOException {
    String id = ctx.pathParam("id");
    Params p = Params.of(backend.body(ctx, false), "", UPDATE);
    if (p.has("expires_after")) {
      throw OpenAiException.unsupported(
          "expires_after", "Vector stores do not expire on Quarry; delete them instead.");
    }
    ObjectNode metadata =
        p.has("metadata")
            ? Attributes.readMetadata(p.get("metadata"), "metadata", backend.mapper())
            : null;
    String name = p.optString("name");
    // Renaming a store is managing its corpus; grants first, then existence.
    if (Backend.mayUse(access, id)) {
      AccessPolicy.requireCorpus(access, id, EnumSet.of(Scope.MANAGE));
    }
    CorpusDescription corpus = require(access, id);
    StoreRecord old =
        backend
            .stores()
            .find(id)
            .orElse(
                new StoreRecord(
                    null,
                    backend.mapper().createObjectNode(),
                    null,
                    corpus.info().createdAt().getEpochSecond()));
    backend
        .stores()
        .write(
            id,
            new StoreRecord(
                p.has("name") ? name : old.name(),
                metadata != null ? metadata : old.metadata(),
                old.description(),
                old.createdAt()));
    Replies.json(ctx, 200, render(access, corpus), backend.mapper());
  }

  void delete(Context ctx, Access access) {
    String id = ctx.pathParam("id");
    require(access, id);
    backend.corpora().deleteCorpus(access, id);
    backend.stores().delete(id);
    backend.attachments().deleteAll(id);
    ObjectNode out =
        backend
            .mapper()
            .createObjectNode()
            .put("id", id)
            .put("object", "vector_store.deleted")
            .put("deleted", true);
    Replies.json(ctx, 200, out, backend.mapper());
  }

  void list(Context ctx, Access access) {
    Lists.Cursor cursor =
        Lists.Cursor.of(Params.query(ctx, Set.of("limit", "order", "after", "before")));
    List<CorpusDescription> all = new ArrayList<>();
    String next = null;
    do {
      CorpusListPage page = backend.corpora().listCorpora(access, next, CORPUS_PAGE);
      all.addAll(page.corpora());
      next = page.nextCursor();
    } while (next != null);
    Map<String, Long> created = new HashMap<>();
    all.forEach(d -> created.put(d.info().name(), createdAt(d)));
    all.sort(
        Comparator.comparingLong((CorpusDescription d) -> created.get(d.info().name()))
            .thenComparing(d -> d.info().name()));
    Replies.json(
        ctx,
        200,
        Lists.page(all, d -> d.info().name(), d -> render(access, d), cursor, backend.mapper()),
        backend.mapper());
  }

  private long createdAt(CorpusDescription d) {
    return backend
        .stores()
        .find(d.info().name())
        .map(StoreRecord::createdAt)
        .orElse(d.info().createdAt().getEpochSecond());
  }

  /**
   * A store as OpenAI's {@code vector_store} object, counting only the files the caller may see.
   */
  ObjectNode render(Access access, CorpusDescription d) {
    String id = d.info().name();
    StoreRecord record = backend.stores().find(id).orElse(null);
    Predicate<String> visible = AccessPolicy.visibleSources(access, id, READ);
    int inProgress = 0;
    int completed = 0;
    int failed = 0;
    int cancelled = 0;
    long bytes = 0;
    for (Attachment a : backend.attachments().all(id)) {
      if (!visible.test(a.fileId())) {
        continue;
      }
      switch (backend.statuses().of(id, a).status()) {
        case Statuses.IN_PROGRESS -> inProgress++;
        case Statuses.COMPLETED -> {
          completed++;
          bytes += a.bytes();
        }
        case Statuses.FAILED -> failed++;
        default -> cancelled++;
      }
    }
    long created = record != null ? record.createdAt() : d.info().createdAt().getEpochSecond();
    ObjectNode out =
        backend
            .mapper()
            .createObjectNode()
            .put("id", id)
            .put("object", "vector_store")
            .put("created_at", created)
            .put("name", record != null && record.name() != null ? record.name() : id)
            .put("usage_bytes", bytes);
    out.putObject("file_counts")
        .put("in_progress", inProgress)
        .put("completed", completed)
        .put("failed", failed)
        .put("cancelled", cancelled)
        .put("total", inProgress + completed + failed + cancelled);
    out.put("status", inProgress > 0 ? "in_progress" : "completed").put("last_active_at", created);
    out.set("metadata", record != null ? record.metadata() : backend.mapper().createObjectNode());
    out.putNull("expires_at");
    if (record != null && record.description() != null) {
      out.put("description", record.description());
    }
    ObjectNode quarry =
        out.putObject("quarry")
            .put("corpus_id", d.info().corpusId())
            .put("revision", d.revision())
            .put("sources", d.sources());
    quarry.set(
        "chunking_strategy",
        ChunkingStrategy.describe(d.info().settings().chunking(), backend.mapper()));
    return out;
  }

  /** The chunking of store {@code id}, which the caller was already found to see. */
  Chunking chunking(Access access, String id) {
    return require(access, id).info().settings().chunking();
  }
}
