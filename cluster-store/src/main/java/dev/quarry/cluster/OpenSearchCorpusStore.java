package dev.quarry.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.corpora.CorporaBuilder;
import dev.quarry.corpora.CorpusBackup;
import dev.quarry.corpora.CorpusIds;
import dev.quarry.corpora.CorpusStore;
import dev.quarry.corpora.registry.CorpusSettingsJson;
import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.spi.StoreRules;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Corpora on an OpenSearch cluster: a registry index ({@code PREFIX-registry}, one document per
 * corpus name) and one index per corpus ({@code PREFIX-corpus-CORPUSID}). The store keeps no state
 * of its own beyond a cache of open corpora (each with its registry entry, checked on every use by
 * the corpus's head: see {@link #withCorpus}), so any number of servers (fronts) may use one
 * cluster at once: every decision that matters (a name taken, a revision published, a writer lease)
 * is made by the cluster with create-only or compare-and-set writes.
 *
 * @quarry.experimental
 */
public final class OpenSearchCorpusStore implements CorpusStore {

  private final OpenSearchSettings settings;
  private final EngineConfig engineConfig;
  private final ClusterHttp http;
  private final String registry;
  private final String owner;

  /**
   * Whether every node had Quarry's scoring plugin when this front started (see {@link
   * #scoresExactly}).
   */
  private final boolean exactScores;

  /**
   * The corpora this front opened, by name, each with its registry entry: at most {@link #maxOpen}
   * once calls are done with them (idle ones beyond it are closed, least recently used first, and
   * read from the registry again on their next use).
   */
  private final ConcurrentHashMap<String, ClusterCorpusIndex> open = new ConcurrentHashMap<>();

  private final int maxOpen;

  /** Runs {@link #reclaimIdle} now and then, off every request's path. */
  private final ScheduledExecutorService idleChecks;

  public OpenSearchCorpusStore(OpenSearchSettings settings, EngineConfig engineConfig) {
    this(settings, engineConfig, CorporaBuilder.DEFAULT_MAX_OPEN_CORPORA);
  }

  /**
   * @param maxOpenCorpora the corpora this front keeps open (with their registry entries) when no
   *     call is using them; more stay open only while calls or queued mutations use them
   */
  public OpenSearchCorpusStore(
      OpenSearchSettings settings, EngineConfig engineConfig, int maxOpenCorpora) {
    this(settings, engineConfig, maxOpenCorpora, true);
  }

  /**
   * @param usePluginIfInstalled false to score with the cluster's BM25 even where every node has
   *     Quarry's scoring plugin: for tests of a cluster without it
   */
  OpenSearchCorpusStore(
      OpenSearchSettings settings,
      EngineConfig engineConfig,
      int maxOpenCorpora,
      boolean usePluginIfInstalled) {
    if (maxOpenCorpora < 1) {
      throw new IllegalArgumentException(
          "maxOpenCorpora must be at least 1; got " + maxOpenCorpora);
    }
    this.maxOpen = maxOpenCorpora;
    this.settings = settings;
    this.engineConfig = engineConfig;
    this.http = new ClusterHttp(settings);
    this.registry = settings.indexPrefix() + "-registry";
    this.owner = "front-" + CorpusIds.next();
    ensureRegistry();
    this.exactScores =
        usePluginIfInstalled && ClusterPlugins.everyNodeHas(http, ClusterPlugins.SCORING);
    RecordedRetention.requireSame(http, registry, engineConfig.retainedRevisions());
    Duration every = idleCheckEvery(settings.requestTimeout());
    this.idleChecks =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "quarry-cluster-idle-reclaim");
              t.setDaemon(true);
              return t;
            });
    idleChecks.scheduleWithFixedDelay(
        this::reclaimIdle, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Whether searches answer with exactly the embedded store's scores: every node of the cluster had
   * Quarry's scoring plugin (the {@code quarry_bm25f} query) when this front started; without it
   * searches answer with the cluster's BM25 (see {@link ClusterCorpusIndex}).
   */
  @Override
  public boolean scoresExactly() {
    return exactScores;
  }

  /**
   * Whether this front's {@code retainedRevisions} is still the recorded one (a real-time GET): a
   * reclaim runs only then. A record deleted meanwhile (being changed) counts as changed.
   */
  private boolean retentionRecorded() {
    return RecordedRetention.read(http, registry).orElse(-1) == engineConfig.retainedRevisions();
  }

  /**
   * How often the front looks for idle corpora with expired versions left: a quarter of the settle
   * time ({@link ExpiredVersions#settleFor}), so an idle corpus's last expired versions go at most
   * a quarter of it after they settled.
   */
  static Duration idleCheckEvery(Duration requestTimeout) {
    return ExpiredVersions.settleFor(requestTimeout).dividedBy(4);
  }

  /**
   * Queues, on each open corpus's writer thread, a reclaim of the expired versions its last writes
   * left when it takes no more writes (see {@link ClusterCorpusIndex#reclaimIfIdle}); a corpus
   * being written reclaims after its publications instead. Sends nothing to the cluster for a
   * corpus with nothing left to reclaim.
   */
  void reclaimIdle() {
    for (ClusterCorpusIndex index : open.values()) {
      try {
        index.reclaimIfIdle();
      } catch (RuntimeException e) {
        // Never ends the periodic check: the corpus is looked at again next time.
      }
    }
  }

  private void ensureRegistry() {
    if (http.send("HEAD", "/" + registry, null, null).status() == 200) {
      return;
    }
    ObjectNode body = ClusterHttp.MAPPER.createObjectNode();
    body.putObject("settings")
        .putObject("index")
        .put("number_of_shards", 1)
        .put("number_of_replicas", settings.replicas())
        .put("translog.durability", "request");
    ObjectNode props = body.putObject("mappings").put("dynamic", false).putObject("properties");
    props.putObject("name").put("type", "keyword");
    ClusterHttp.Answer a = http.json("PUT", "/" + registry, body);
    if (!a.ok() && !alreadyExists(a)) {
      a.require("creating the corpus registry");
    }
    waitForActive(registry);
  }

  private void waitForActive(String index) {
    http.get("/_cluster/health/" + index + "?wait_for_active_shards=all&timeout=30s");
  }

  private String indexOf(CorpusInfo info) {
    return settings.indexPrefix() + "-corpus-" + info.corpusId();
  }

  // Each operation of the store (a call of withCorpus with all it does to the corpus's index, or
  // one of the registry's) is one unit of cluster work: its requests share one deadline of
  // requestTimeout (ClusterHttp#within), whatever they meet (nodes down, nodes hanging).

  @Override
  public CorpusInfo create(String name, CorpusSettings corpusSettings) {
    return http.within(() -> createWithin(name, corpusSettings));
  }

  private CorpusInfo createWithin(String name, CorpusSettings corpusSettings) {
    CorpusInfo.checkName(name, "corpus");
    if (corpusSettings.hasEmbedding()) {
      requireSemanticSearch(corpusSettings.embedding());
      // Bound to the weights of this front's model, as the embedded store binds them.
      corpusSettings = engineConfig.embeddingModels().resolve(corpusSettings);
    }
    if (corpusSettings.language() == CorpusSettings.Language.AUTO) {
      // Checked before anything exists on the cluster: a refused corpus leaves nothing behind.
      throw QuarryException.invalid(
          "settings.language",
          "corpora on an OpenSearch cluster cannot use the language "
              + "'auto' (a language detected per source); use one language, or an embedded corpus for auto");
    }
    if (StoreRules.stacksTerms(corpusSettings.language())) {
      // Checked before anything exists on the cluster: a refused corpus leaves nothing behind.
      throw QuarryException.invalid(
          "settings.language",
          "corpora on an OpenSearch cluster cannot use the language '"
              + corpusSettings.language().wireName()
              + "': its analysis puts several terms at one position, which the "
              + "cluster cannot score as the embedded store does; use an embedded corpus for it");
    }
    if (info(name).isPresent()) {
      throw new QuarryException(ErrorCode.CORPUS_EXISTS, "corpus '" + name + "' already exists");
    }
    CorpusInfo info =
        new CorpusInfo(name, CorpusIds.next(), corpusSettings, engineConfig.clock().instant());
    String index = indexOf(info);
    ClusterHttp.Answer created =
        http.json("PUT", "/" + index, CorpusDocs.indexBody(corpusSettings, settings));
    // The index is named by a fresh corpusId: one already there is this call's own first attempt.
    if (!created.ok() && !(created.resent() && alreadyExists(created))) {
      created.require("creating the corpus index");
    }
    waitForActive(index);
    http.json(
            "PUT",
            "/" + index + "/_doc/" + CorpusDocs.HEAD_ID + "?refresh=true",
            CorpusHead.body(0, null))
        .require("writing the corpus head");
    ObjectNode doc = ClusterHttp.MAPPER.createObjectNode();
    doc.put("name", name)
        .put("corpusId", info.corpusId())
        .put("createdAt", info.createdAt().toString());
    CorpusSettingsJson.write(doc.putObject("settings"), corpusSettings);
    // Create-only: of two fronts creating one name at once, one wins and the other's index goes.
    ClusterHttp.Answer a =
        http.json("PUT", "/" + registry + "/_doc/" + name + "?op_type=create&refresh=true", doc);
    if (a.status() == 409 && !(a.resent() && registeredAs(name, info))) {
      http.send("DELETE", "/" + index, null, null);
      throw new QuarryException(ErrorCode.CORPUS_EXISTS, "corpus '" + name + "' already exists");
    }
    if (a.status() != 409) {
      a.require("registering the corpus");
    }
    return info;
  }

  /**
   * Refuses a corpus with an embedding that this store cannot search as the embedded store does:
   * without Quarry's scoring plugin on every node no semantic score can be computed on the cluster;
   * the approximate index is the embedded store's HNSW graph, which the cluster does not build; and
   * the coded first pass runs here with centred codes (the plugin's {@code quarry_coded} query),
   * with or without the inverted file, but not with the older sign codes.
   */
  private void requireSemanticSearch(CorpusSettings.Embedding embedding) {
    if (!exactScores) {
      throw new QuarryException(
          ErrorCode.EMBEDDING_UNAVAILABLE,
          "corpora with an embedding need the quarry-scoring"
              + " plugin on every node of the OpenSearch cluster, which scores semantic and hybrid searches; this"
              + " server's cluster lacks it (see scale-out.md)");
    }
    if (embedding.index() == CorpusSettings.VectorIndex.HNSW) {
      throw QuarryException.invalid(
          "settings.embedding.index",
          "index 'hnsw' is not offered on an OpenSearch cluster, whose semantic searches are"
              + " reproducible; use index 'exact' or 'codes'");
    }
    if (embedding.index() == CorpusSettings.VectorIndex.CODES) {
      CorpusSettings.FirstPass pass = embedding.firstPass();
      if (pass.code() != CorpusSettings.FirstPass.Code.CENTRED) {
        throw QuarryException.invalid(
            "settings.embedding.firstPass.code",
            "code '"
                + pass.code().wireName()
                + "' is not offered on an OpenSearch cluster; use code 'centred'");
      }
    }
  }

  /**
   * Whether this front runs semantic and hybrid searches: every node had the scoring plugin when it
   * started.
   */
  public boolean searchesSemantically() {
    return exactScores;
  }

  private static boolean alreadyExists(ClusterHttp.Answer a) {
    return a.body().path("error").path("type").asText().equals("resource_already_exists_exception");
  }

  /**
   * Whether the registry holds {@code info} under {@code name}: after a create-only registration
   * whose answer was lost and which was refused when sent again, whether the first attempt was
   * applied (the entry names this call's fresh corpusId) or another front took the name.
   */
  private boolean registeredAs(String name, CorpusInfo info) {
    return info(name).map(found -> found.corpusId().equals(info.corpusId())).orElse(false);
  }

  @Override
  public void delete(String name) {
    http.within(
        () -> {
          deleteWithin(name);
          return null;
        });
  }

  private void deleteWithin(String name) {
    ClusterHttp.Answer entry = http.get("/" + registry + "/_doc/" + name);
    if (!isEntry(entry)) {
      throw new QuarryException(ErrorCode.CORPUS_NOT_FOUND, "corpus '" + name + "' does not exist");
    }
    CorpusInfo info = read(entry.require("reading the corpus registry").body().path("_source"));
    String index = indexOf(info);
    // The head goes first: from now on every front that still holds this corpus's entry finds no
    // head, and so asks the registry again, before the entry and the index go (see withCorpus).
    ClusterHttp.Answer head =
        http.send("DELETE", "/" + index + "/_doc/" + CorpusDocs.HEAD_ID, null, null);
    if (head.status() != 404) {
      head.require("deleting the corpus head");
    }
    // Only the entry that was read: if another front deleted the corpus and created the name again
    // meanwhile, the new corpus's entry stays.
    ClusterHttp.Answer a =
        http.send(
            "DELETE",
            "/"
                + registry
                + "/_doc/"
                + name
                + "?refresh=true&if_seq_no="
                + entry.body().path("_seq_no").asLong()
                + "&if_primary_term="
                + entry.body().path("_primary_term").asLong(),
            null,
            null);
    if ((a.status() == 404 || a.status() == 409) && !a.resent()) {
      throw new QuarryException(ErrorCode.CORPUS_NOT_FOUND, "corpus '" + name + "' does not exist");
    }
    // Refused when sent again (404: the entry is gone; 409: the name holds another corpus now): the
    // first attempt may have removed the entry, and then no other front deletes this corpus's
    // index.
    // Either way the corpus that was read is deleted (its head first, by this call): the deletion
    // is finished here.
    if (a.status() != 404 && a.status() != 409) {
      a.require("deleting the corpus");
    }
    ClusterCorpusIndex cached = open.remove(name);
    if (cached != null) {
      cached.close();
    }
    http.send("DELETE", "/" + index, null, null);
  }

  @Override
  public Optional<CorpusInfo> info(String name) {
    return http.within(() -> infoWithin(name));
  }

  private Optional<CorpusInfo> infoWithin(String name) {
    ClusterHttp.Answer a = http.get("/" + registry + "/_doc/" + name);
    if (!isEntry(a)) {
      return Optional.empty();
    }
    return Optional.of(read(a.body().path("_source")));
  }

  /** Whether a registry read found a corpus's entry (not nothing, nor the recorded retention). */
  private static boolean isEntry(ClusterHttp.Answer a) {
    return a.status() != 404
        && a.require("reading the corpus registry").body().path("_source").has("name");
  }

  private static CorpusInfo read(JsonNode root) {
    return new CorpusInfo(
        root.path("name").asText(),
        root.path("corpusId").asText(),
        CorpusSettingsJson.read(root.path("settings")),
        Instant.parse(root.path("createdAt").asText()));
  }

  @Override
  public List<String> names(String after, int limit) {
    return http.within(() -> namesWithin(after, limit));
  }

  private List<String> namesWithin(String after, int limit) {
    ObjectNode q = ClusterHttp.MAPPER.createObjectNode();
    q.put("size", limit).put("track_total_hits", false);
    // Corpus entries only: the recorded retention (RecordedRetention) has no name.
    q.putObject("query").putObject("exists").put("field", "name");
    q.putArray("sort").addObject().put("name", "asc");
    if (after != null) {
      q.putArray("search_after").add(after);
    }
    q.putArray("_source").add("name");
    List<String> out = new ArrayList<>();
    for (JsonNode h :
        http.json("POST", CorpusDocs.searchPath(registry), q)
            .require("listing corpora")
            .body()
            .path("hits")
            .path("hits")) {
      out.add(h.path("_source").path("name").asText());
    }
    return out;
  }

  /**
   * Runs {@code work} with the corpus's index. A corpus this front opened before is not looked up
   * in the registry again: reading its head (which a search needs anyway, for the published
   * revision) proves that it still exists, since a corpus index is named by its corpusId and
   * deleting a corpus deletes its head before its registry entry. The head is read when the call
   * first needs it (see {@link CallHead}), at the latest when {@code work} returns. A corpus
   * deleted since (and perhaps created again under the same name, by any front) has no head:
   * whatever {@code work} answered is dropped (it could only read: a mutation confirms the head
   * first), the entry is dropped and read again from the registry, and the call answers as the
   * corpus the name holds now.
   *
   * <p>The call is one operation with one deadline ({@link ClusterHttp#within}): its registry read,
   * its head reads and everything {@code work} sends from this thread share one request timeout. A
   * mutation's own writes count theirs from when its turn comes, on the corpus's writer thread. (An
   * index used outside this call, as some tests do, sends each request under a timeout of its own.)
   */
  @Override
  public <T> T withCorpus(String name, Function<CorpusIndex, T> work) {
    return http.within(() -> withCorpusWithin(name, work));
  }

  private <T> T withCorpusWithin(String name, Function<CorpusIndex, T> work) {
    ClusterCorpusIndex cached = open.get(name);
    if (cached != null && cached.acquire()) {
      CallHead call = new CallHead(() -> CorpusHead.find(http, cached.indexName()));
      try {
        T result;
        try {
          result = cached.withHead(call, () -> work.apply(cached));
        } catch (RuntimeException e) {
          if (call.exists()) {
            throw e;
          }
          result = null;
        }
        if (call.exists()) {
          return result;
        }
      } finally {
        release(cached);
      }
      if (open.remove(name, cached)) {
        cached.close(); // deleted, perhaps created again, perhaps by another front
      }
    }
    CorpusInfo info =
        info(name)
            .orElseThrow(
                () ->
                    new QuarryException(
                        ErrorCode.CORPUS_NOT_FOUND, "corpus '" + name + "' does not exist"));
    while (true) {
      ClusterCorpusIndex index =
          open.compute(
              name,
              (n, current) -> {
                if (current != null
                    && !current.retired()
                    && current.info().corpusId().equals(info.corpusId())) {
                  return current;
                }
                if (current != null) {
                  current
                      .close(); // deleted and created again, perhaps by another front; or retired
                }
                return new ClusterCorpusIndex(
                    http,
                    indexOf(info),
                    info,
                    engineConfig,
                    settings,
                    owner,
                    this::retentionRecorded,
                    exactScores);
              });
      if (index.acquire()) {
        try {
          return work.apply(index);
        } finally {
          release(index);
        }
      }
      // Retired for the bound between its opening and this call's taking it: open it again.
    }
  }

  private void release(ClusterCorpusIndex index) {
    index.release();
    if (open.size() > maxOpen) {
      retireIdle();
    }
  }

  /**
   * Closes idle corpora, least recently used first, until at most {@link #maxOpen} are open. One in
   * use, or with a mutation queued or running, is never closed: it is retired by a later call once
   * it is idle.
   */
  private void retireIdle() {
    record Kept(String name, ClusterCorpusIndex index, long lastUsed) {}
    List<Kept> byUse = new ArrayList<>();
    open.forEach((name, index) -> byUse.add(new Kept(name, index, index.lastUsed())));
    byUse.sort(Comparator.comparingLong(Kept::lastUsed));
    for (Kept k : byUse) {
      if (open.size() <= maxOpen) {
        return;
      }
      if (k.index().retireIfIdle()) {
        open.remove(k.name(), k.index());
      }
    }
  }

  /**
   * Backups copy corpora into a data folder; corpora on a cluster are backed up by the cluster's
   * own snapshots instead (docs/scale-out.md), so this is refused for good, not "try again".
   */
  @Override
  public CorpusBackup backup(String name, Path targetDataDir) {
    throw new QuarryException(
        ErrorCode.BACKUP_UNAVAILABLE,
        "corpora kept on an OpenSearch cluster are not copied into "
            + "Quarry backups: back them up with the cluster's own snapshots (see docs/scale-out.md, Backups)");
  }

  /** The corpora this front holds open now. */
  int openCount() {
    return open.size();
  }

  /** The index this front holds open for corpus {@code name}, if any. */
  ClusterCorpusIndex kept(String name) {
    return open.get(name);
  }

  @Override
  public void close() {
    idleChecks.shutdownNow();
    for (ClusterCorpusIndex index : open.values()) {
      index.close();
    }
    open.clear();
  }
}
