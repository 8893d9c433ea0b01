package dev.quarry.corpora.registry;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Scheduler;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import dev.quarry.corpora.CorpusBackup;
import dev.quarry.corpora.CorpusIds;
import dev.quarry.corpora.CorpusStore;
import dev.quarry.corpora.FileErrors;
import dev.quarry.corpora.OpenCorporaFootprint;
import dev.quarry.corpora.OpenCorpusFootprint;
import dev.quarry.corpora.PrivateFolders;
import dev.quarry.engine.CacheCounts;
import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.IndexFootprint;
import dev.quarry.engine.QuarryException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.apache.lucene.util.IOUtils;

/**
 * The embedded store: one Lucene index per corpus under {@code <data>/corpora/<name>/}, with its
 * {@code corpus.json} beside the index. Open corpora are a bounded Caffeine cache; an idle or
 * evicted corpus closes once its last user is done and reopens on demand.
 *
 * <p>The data folder is locked for the life of the store, so a second process cannot open it.
 */
public final class LuceneCorpusStore implements CorpusStore {
  private static final String CORPORA = "corpora";
  private static final String TRASH = "trash";
  private static final String LOCK = ".lock";

  /**
   * The entries of a data folder this store owns: everything else in it belongs to other parts of
   * the application, which a backup copies as files.
   */
  public static final Set<String> OWNED_ENTRIES = Set.of(CORPORA, TRASH, LOCK);

  private static final String CREATING_PREFIX = ".creating-";
  private static final String INDEX = "index";

  private final Path corporaDir;
  private final Path trashDir;
  private final EngineConfig engineConfig;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final Cache<String, OpenCorpus> open;

  /** Retired instances still closing, by name: a reopen waits for them. */
  private final ConcurrentMap<String, OpenCorpus> closing = new ConcurrentHashMap<>();

  private final ConcurrentMap<String, CorpusInfo> infos = new ConcurrentHashMap<>();

  /** Creation and deletion are rare; one lock keeps them simple and ordered. */
  private final ReentrantLock catalogLock = new ReentrantLock();

  public LuceneCorpusStore(
      Path dataDir, EngineConfig engineConfig, int maxOpenCorpora, Duration idleTimeout) {
    this.engineConfig = engineConfig;
    this.corporaDir = dataDir.resolve(CORPORA);
    this.trashDir = dataDir.resolve(TRASH);
    try {
      // The data folder too, when it is new: owner only (PrivateFolders).
      PrivateFolders.create(corporaDir);
      PrivateFolders.create(trashDir);
      lockChannel =
          FileChannel.open(
              dataDir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new QuarryException(
          ErrorCode.UNAVAILABLE,
          "cannot open data folder " + dataDir + ": " + FileErrors.why(e),
          e);
    }
    FileLock l;
    try {
      l = lockChannel.tryLock();
    } catch (IOException | OverlappingFileLockException e) {
      l = null;
    }
    if (l == null) {
      closeQuietly();
      throw new QuarryException(
          ErrorCode.UNAVAILABLE,
          "data folder "
              + dataDir
              + " is in use by another Quarry process; stop it or choose another --data folder");
    }
    this.lock = l;
    cleanLeftovers();
    this.open =
        Caffeine.newBuilder()
            .maximumSize(maxOpenCorpora)
            .expireAfterAccess(idleTimeout)
            .scheduler(Scheduler.systemScheduler())
            .recordStats()
            .evictionListener(
                (String name, OpenCorpus oc, RemovalCause cause) -> {
                  if (oc != null) {
                    retire(name, oc);
                  }
                })
            .build();
  }

  private void closeQuietly() {
    try {
      lockChannel.close();
    } catch (IOException ignored) {
      // nothing more to release
    }
  }

  /** Removes what an interrupted create or delete left behind. */
  private void cleanLeftovers() {
    try (DirectoryStream<Path> s = Files.newDirectoryStream(corporaDir, CREATING_PREFIX + "*")) {
      for (Path p : s) {
        IOUtils.rm(p);
      }
      try (DirectoryStream<Path> t = Files.newDirectoryStream(trashDir)) {
        for (Path p : t) {
          IOUtils.rm(p);
        }
      }
    } catch (IOException e) {
      throw new QuarryException(
          ErrorCode.UNAVAILABLE,
          "cannot clean data folder " + corporaDir.getParent() + ": " + FileErrors.why(e),
          e);
    }
  }

  @Override
  public CorpusInfo create(String name, CorpusSettings settings) {
    CorpusInfo.checkName(name, "corpus");
    catalogLock.lock();
    try {
      Path dir = corporaDir.resolve(name);
      if (Files.exists(dir)) {
        throw new QuarryException(ErrorCode.CORPUS_EXISTS, "corpus '" + name + "' already exists");
      }
      CorpusInfo info =
          new CorpusInfo(
              name,
              CorpusIds.next(),
              engineConfig.embeddingModels().resolve(settings),
              engineConfig.clock().instant());
      Path tmp = corporaDir.resolve(CREATING_PREFIX + info.corpusId());
      try {
        PrivateFolders.create(tmp);
        CorpusFiles.write(tmp, info);
        CorpusIndex.open(tmp.resolve(INDEX), info, engineConfig).close();
        Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
        CorpusFiles.fsyncDir(corporaDir);
      } catch (IOException e) {
        try {
          IOUtils.rm(tmp);
        } catch (IOException ignored) {
          // left for cleanLeftovers at the next start
        }
        throw new QuarryException(
            ErrorCode.UNAVAILABLE, "could not create corpus '" + name + "'", e);
      }
      infos.put(name, info);
      return info;
    } finally {
      catalogLock.unlock();
    }
  }

  @Override
  public void delete(String name) {
    catalogLock.lock();
    try {
      Path dir = corporaDir.resolve(name);
      if (info(name).isEmpty()) {
        throw new QuarryException(
            ErrorCode.CORPUS_NOT_FOUND, "corpus '" + name + "' does not exist");
      }
      CorpusInfo info = infos.remove(name);
      OpenCorpus oc = open.asMap().remove(name);
      if (oc != null) {
        retire(name, oc);
      }
      awaitClosed(name);
      Path trash =
          trashDir.resolve(name + "-" + (info == null ? CorpusIds.next() : info.corpusId()));
      try {
        Files.move(dir, trash, StandardCopyOption.ATOMIC_MOVE);
        CorpusFiles.fsyncDir(corporaDir);
        IOUtils.rm(trash);
      } catch (IOException e) {
        throw new QuarryException(
            ErrorCode.UNAVAILABLE, "could not delete corpus '" + name + "'", e);
      }
    } finally {
      catalogLock.unlock();
    }
  }

  @Override
  public Optional<CorpusInfo> info(String name) {
    CorpusInfo cached = infos.get(name);
    if (cached != null) {
      return Optional.of(cached);
    }
    Path dir = corporaDir.resolve(name);
    if (!Files.isRegularFile(dir.resolve(CorpusFiles.CORPUS_JSON))) {
      return Optional.empty();
    }
    try {
      CorpusInfo info = CorpusFiles.read(dir);
      infos.putIfAbsent(name, info);
      return Optional.of(info);
    } catch (IOException e) {
      throw new QuarryException(ErrorCode.UNAVAILABLE, "corpus settings are unreadable", e);
    }
  }

  @Override
  public List<String> names(String after, int limit) {
    TreeSet<String> names = new TreeSet<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(corporaDir)) {
      for (Path p : s) {
        String n = p.getFileName().toString();
        if (!n.startsWith(".") && (after == null || n.compareTo(after) > 0)) {
          names.add(n);
        }
      }
    } catch (IOException e) {
      throw new QuarryException(ErrorCode.UNAVAILABLE, "cannot list corpora", e);
    }
    List<String> out = new ArrayList<>(Math.min(limit, names.size()));
    for (String n : names) {
      if (out.size() == limit) {
        break;
      }
      out.add(n);
    }
    return out;
  }

  @Override
  public <T> T withCorpus(String name, Function<CorpusIndex, T> work) {
    OpenCorpus oc = acquire(name);
    try {
      return work.apply(oc.index());
    } finally {
      oc.release();
    }
  }

  /**
   * Reads each open corpus's footprint (its published revision and segments, whose sizes Lucene
   * remembers once measured): no folder is listed and no corpus is opened, so a call costs a few
   * reads per segment of at most {@code maxOpenCorpora} corpora. A corpus closing meanwhile is left
   * out; the list is in no particular order.
   */
  @Override
  public Optional<List<OpenCorpusFootprint>> openCorpusFootprints() {
    List<OpenCorpusFootprint> out = new ArrayList<>();
    for (var e : open.asMap().entrySet()) {
      OpenCorpus oc = e.getValue();
      if (!oc.tryAcquire()) {
        continue;
      }
      try {
        CorpusIndex index = oc.index();
        // The footprint first: it fails on a closed index, before the revision is read from it.
        IndexFootprint f = index.footprint().orElse(new IndexFootprint(0, 0));
        out.add(new OpenCorpusFootprint(e.getKey(), index.revision(), f.segments(), f.bytes()));
      } catch (QuarryException ex) {
        // closed under us (a failed writer): it is not open any more
      } finally {
        oc.release();
      }
    }
    return Optional.of(out);
  }

  /** The totals of {@link #openCorpusFootprints()}. */
  @Override
  public Optional<OpenCorporaFootprint> openCorpora() {
    return openCorpusFootprints().map(OpenCorporaFootprint::of);
  }

  /**
   * The open-corpora cache's counts: a hit is a use of a corpus already open, a miss one that
   * opened it, an eviction a corpus closed for the {@code maxOpenCorpora} bound or for being idle
   * (not one deleted).
   */
  @Override
  public Optional<CacheCounts> openCorporaCache() {
    CacheStats stats = open.stats();
    return Optional.of(
        new CacheCounts(
            stats.hitCount(), stats.missCount(), stats.evictionCount(), open.estimatedSize()));
  }

  @Override
  public boolean backsUp() {
    return true;
  }

  @Override
  public CorpusBackup backup(String name, Path targetDataDir) {
    return withCorpus(
        name,
        index -> {
          Path dir = targetDataDir.resolve(CORPORA).resolve(name);
          try {
            long revision = index.backup(dir.resolve(INDEX));
            CorpusFiles.write(dir, index.info());
            return new CorpusBackup(name, index.info().corpusId(), revision);
          } catch (IOException e) {
            // The cause names the server's folders: the host logs it and answers a reference to it.
            throw new QuarryException(
                ErrorCode.UNAVAILABLE,
                "the backup of corpus '" + name + "' could not be written",
                e);
          }
        });
  }

  private OpenCorpus acquire(String name) {
    while (true) {
      CorpusInfo info =
          info(name)
              .orElseThrow(
                  () ->
                      new QuarryException(
                          ErrorCode.CORPUS_NOT_FOUND, "corpus '" + name + "' does not exist"));
      OpenCorpus oc = open.get(name, n -> load(info));
      if (oc.tryAcquire()) {
        if (infos.get(name) == null
            || !infos.get(name).corpusId().equals(oc.index().info().corpusId())) {
          // Deleted (and perhaps re-created) while we waited: never hand out a stale index.
          oc.release();
          open.asMap().remove(name, oc);
          retire(name, oc);
          continue;
        }
        return oc;
      }
      open.asMap().remove(name, oc);
    }
  }

  private OpenCorpus load(CorpusInfo info) {
    awaitClosed(info.name());
    try {
      return new OpenCorpus(
          CorpusIndex.open(corporaDir.resolve(info.name()).resolve(INDEX), info, engineConfig));
    } catch (IOException e) {
      throw new QuarryException(
          ErrorCode.UNAVAILABLE, "cannot open corpus '" + info.name() + "'", e);
    }
  }

  private void retire(String name, OpenCorpus oc) {
    closing.put(name, oc);
    oc.closed().whenComplete((v, e) -> closing.remove(name, oc));
    oc.retire();
  }

  private void awaitClosed(String name) {
    OpenCorpus previous = closing.get(name);
    if (previous != null) {
      previous.closed().join();
    }
  }

  /** Commits and closes every open corpus, then releases the data folder. */
  @Override
  public void close() {
    for (var e : open.asMap().entrySet()) {
      retire(e.getKey(), e.getValue());
    }
    open.invalidateAll();
    for (OpenCorpus oc : List.copyOf(closing.values())) {
      oc.closed().join();
    }
    try {
      lock.release();
    } catch (IOException ignored) {
      // closing the channel releases it too
    }
    closeQuietly();
  }
}
