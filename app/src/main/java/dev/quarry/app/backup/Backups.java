package dev.quarry.app.backup;

import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.CorpusBackup;
import dev.quarry.corpora.CorpusDescription;
import dev.quarry.corpora.CorpusListPage;
import dev.quarry.corpora.PrivateFolders;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.AccessPolicy;
import dev.quarry.corpora.access.Scope;
import dev.quarry.corpora.registry.LuceneCorpusStore;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes backups of a running server's data folder into one backup directory (the server's {@code
 * backup.directory}, as Elasticsearch's {@code path.repo}): {@code DIRECTORY/NAME/} with the data
 * folder's layout and a {@link BackupManifest}.
 *
 * <p>Each corpus is copied at one revision while writes go on (its Lucene commit is held while its
 * files are copied, then released): every receipt sent before the backup began is in it, and a
 * source purged before then leaves no trace. Corpora are independent, so each has its own revision.
 * The data folder's other entries (folders other parts of the server keep beside {@code corpora/})
 * are copied as files. The backup is written under a hidden name and renamed to {@code NAME} once
 * complete, so a backup that failed or was cut short never looks like one.
 *
 * <p>Thread-safe; one backup runs at a time (another is refused with CAPACITY, retryable).
 */
public final class Backups {
  /** A backup's name: a folder name that is the same on every file system and needs no quoting. */
  public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  private static final String PARTIAL_PREFIX = ".partial-";
  private static final int PAGE = 256;
  private static final Logger LOG = LoggerFactory.getLogger(Backups.class);

  private final Corpora corpora;
  private final Path dataDir;
  private final Path directory;
  private final String serverVersion;
  private final Clock clock;
  private final ReentrantLock running = new ReentrantLock();

  public Backups(Corpora corpora, Path dataDir, Path directory, String serverVersion, Clock clock) {
    this.corpora = Objects.requireNonNull(corpora, "corpora");
    this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
    this.directory = Objects.requireNonNull(directory, "directory");
    this.serverVersion = Objects.requireNonNull(serverVersion, "serverVersion");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (directory.toAbsolutePath().normalize().startsWith(dataDir.toAbsolutePath().normalize())) {
      throw new QuarryException(
          ErrorCode.INVALID_REQUEST,
          "backup.directory "
              + directory
              + " lies inside the data folder "
              + dataDir
              + "; choose a folder outside it (ideally on another disk)");
    }
    removeLeftovers();
  }

  /**
   * Backs up the corpora {@code only} names as {@code name}; null: every corpus and the rest of the
   * data folder. A backup of named corpora holds those corpora alone (no other entry of the data
   * folder: ingestion jobs, for one, hold files of other corpora too).
   *
   * <p>Checked in the contract's order before anything is written: the request (INVALID_REQUEST,
   * field {@code name} or {@code corpora[i]}), the caller's grants (FORBIDDEN), each named corpus's
   * existence (CORPUS_NOT_FOUND), then the backups running (CAPACITY) and the name's use
   * (BACKUP_EXISTS).
   *
   * @param access the caller: it must hold {@code manage} on every corpus (a grant on {@code *}),
   *     whichever corpora it names: a backup is the server's, written into its backup directory
   * @param only the corpora to back up (1 to {@code maxCorpora} distinct names), or null for all
   * @throws QuarryException INVALID_REQUEST; FORBIDDEN; CORPUS_NOT_FOUND (a named corpus does not
   *     exist, or was deleted while the backup ran); BACKUP_EXISTS; CAPACITY while another backup
   *     runs; UNAVAILABLE when writing fails (nothing is left behind); BACKUP_UNAVAILABLE, before
   *     any work, when the corpora are kept where backups do not copy them (a cluster)
   */
  public BackupManifest create(Access access, String name, List<String> only) {
    if (!NAME.matcher(name).matches()) {
      throw QuarryException.invalid(
          "name",
          "a backup name is 1 to 128 of A-Z a-z 0-9 . _ - and starts with a "
              + "letter or digit; got '"
              + name
              + "'");
    }
    List<String> named = only == null ? null : checkCorpusNames(only);
    AccessPolicy.requireCorpus(access, "*", EnumSet.of(Scope.MANAGE));
    if (!corpora.backsUp()) {
      // Before any work: with no corpus to copy, a backup would otherwise "succeed" holding none.
      throw new QuarryException(
          ErrorCode.BACKUP_UNAVAILABLE,
          "this server keeps its corpora on an OpenSearch cluster,"
              + " which Quarry backups do not copy: back them up with the cluster's own snapshots (see docs/scale-out.md,"
              + " Backups)");
    }
    if (named != null) {
      for (String corpus : named) {
        corpora.readCorpus(access, corpus); // CORPUS_NOT_FOUND before anything is written
      }
    }
    if (!running.tryLock()) {
      throw new QuarryException(
          ErrorCode.CAPACITY, "a backup is already running; retry once it has finished");
    }
    try {
      return createLocked(access, name, named);
    } finally {
      running.unlock();
    }
  }

  /** The names, in name order: each a corpus name, none twice, at least one. */
  private static List<String> checkCorpusNames(List<String> names) {
    if (names.isEmpty()) {
      throw QuarryException.invalid(
          "corpora", "corpora must name at least one corpus; omit it to back up every corpus");
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < names.size(); i++) {
      String field = "corpora[" + i + "]";
      CorpusInfo.checkName(names.get(i), field);
      if (!seen.add(names.get(i))) {
        throw QuarryException.invalid(field, field + " names '" + names.get(i) + "' a second time");
      }
    }
    return names.stream().sorted().toList();
  }

  private BackupManifest createLocked(Access access, String name, List<String> named) {
    Path target = directory.resolve(name);
    if (Files.exists(target)) {
      throw exists(name);
    }
    Instant started = clock.instant();
    Path partial = directory.resolve(PARTIAL_PREFIX + name + "-" + UUID.randomUUID());
    try {
      PrivateFolders.create(directory);
      PrivateFolders.createOne(partial);
      List<CorpusBackup> copied;
      if (named == null) {
        copied = copyCorpora(access, partial);
        FileCopies.copyEntries(
            dataDir,
            partial,
            n -> !LuceneCorpusStore.OWNED_ENTRIES.contains(n) && !n.startsWith("."));
      } else {
        copied = new ArrayList<>();
        for (String corpus : named) {
          copied.add(corpora.backupCorpus(access, corpus, partial));
        }
      }
      BackupContents contents =
          BackupContents.list(partial); // reads the copy once more, for its checksums
      BackupManifest manifest =
          new BackupManifest(
              name, started, serverVersion, named == null, copied, contents.bytes(), contents);
      manifest.write(partial);
      FileCopies.fsyncDir(partial);
      try {
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
        throw exists(name);
      }
      FileCopies.fsyncDir(directory);
      LOG.info(
          "backup {} written to {}: {} corpora{}, {} bytes",
          name,
          target,
          copied.size(),
          named == null ? "" : " (named)",
          manifest.bytes());
      return manifest;
    } catch (IOException e) {
      LOG.error("backup {} failed", name, e);
      // The cause names the server's folders: it stays in the log, the client reads a reference to
      // it.
      throw new QuarryException(
          ErrorCode.UNAVAILABLE, "the backup '" + name + "' could not be written", e);
    } finally {
      if (Files.exists(partial)) {
        try {
          FileCopies.delete(partial);
        } catch (IOException e) {
          LOG.warn(
              "could not remove the unfinished backup {}; it is removed at the next start",
              partial,
              e);
        }
      }
    }
  }

  private List<CorpusBackup> copyCorpora(Access access, Path into) {
    List<CorpusBackup> copied = new ArrayList<>();
    String cursor = null;
    do {
      CorpusListPage page = corpora.listCorpora(access, cursor, PAGE);
      for (CorpusDescription d : page.corpora()) {
        try {
          copied.add(corpora.backupCorpus(access, d.info().name(), into));
        } catch (QuarryException e) {
          if (e.code() != ErrorCode.CORPUS_NOT_FOUND) {
            throw e;
          }
          // deleted since the listing: a backup taken a moment later would not have it either
        }
      }
      cursor = page.nextCursor();
    } while (cursor != null);
    return copied;
  }

  private static QuarryException exists(String name) {
    return new QuarryException(
        ErrorCode.BACKUP_EXISTS,
        "a backup named '"
            + name
            + "' already exists; choose "
            + "another name (backups are never overwritten)");
  }

  /** Removes what backups cut short by a crash left in the backup directory. */
  private void removeLeftovers() {
    if (!Files.isDirectory(directory)) {
      return;
    }
    try (DirectoryStream<Path> s = Files.newDirectoryStream(directory, PARTIAL_PREFIX + "*")) {
      for (Path p : s) {
        FileCopies.delete(p);
      }
    } catch (IOException e) {
      LOG.warn("could not remove unfinished backups in {}", directory, e);
    }
  }
}
