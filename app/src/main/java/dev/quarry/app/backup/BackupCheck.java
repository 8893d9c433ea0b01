package dev.quarry.app.backup;

import dev.quarry.app.backup.BackupContents.BackupFile;
import dev.quarry.app.backup.BackupMismatchException.Kind;
import dev.quarry.app.backup.BackupMismatchException.Mismatch;
import dev.quarry.corpora.CorpusBackup;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Checks that a backup folder holds what its manifest says and nothing more, before a restore
 * writes anything: the corpus folders are the corpora listed; a backup of named corpora holds
 * nothing beside {@code corpora/}; and, where the manifest records the backup's contents (every
 * backup this release writes), every folder and file is there, none is added, and each file has its
 * size and SHA-256. A manifest without contents (written by an older release) is held to its total
 * size instead.
 */
final class BackupCheck {
  static final String CORPORA = "corpora";

  private BackupCheck() {}

  /**
   * @throws BackupMismatchException naming every difference found
   */
  static void check(Path backupDir, BackupManifest manifest) throws IOException {
    BackupContents found = BackupContents.list(backupDir);
    List<Mismatch> mismatches = new ArrayList<>();
    // Entries already named (a whole corpus folder, say) are not named again file by file.
    Set<String> reported = corpora(manifest, found, mismatches);
    if (!manifest.allCorpora()) {
      for (String top : topLevel(found)) {
        if (!top.equals(CORPORA)) {
          mismatches.add(
              new Mismatch(
                  Kind.NOT_LISTED, top, "a backup of named corpora holds only " + CORPORA + "/"));
          reported.add(top);
        }
      }
    }
    for (String other : found.others()) {
      if (!under(other, reported)) {
        mismatches.add(new Mismatch(Kind.NOT_A_FILE, other, ""));
      }
    }
    if (manifest.contents() != null) {
      contents(manifest.contents(), found, reported, mismatches);
    } else if (mismatches.isEmpty() && found.bytes() != manifest.bytes()) {
      mismatches.add(
          new Mismatch(
              Kind.TOTAL_SIZE_CHANGED,
              ".",
              "the files hold " + found.bytes() + " bytes; the manifest says " + manifest.bytes()));
    }
    if (!mismatches.isEmpty()) {
      throw new BackupMismatchException(backupDir.toString(), mismatches);
    }
  }

  /**
   * Compares the corpus folders with the corpora listed; returns the folders of those that differ.
   */
  private static Set<String> corpora(
      BackupManifest manifest, BackupContents found, List<Mismatch> mismatches) {
    Set<String> listed =
        manifest.corpora().stream().map(CorpusBackup::corpus).collect(Collectors.toSet());
    Set<String> present = new TreeSet<>();
    String prefix = CORPORA + "/";
    for (String folder : found.folders()) {
      if (folder.startsWith(prefix) && folder.indexOf('/', prefix.length()) < 0) {
        present.add(folder.substring(prefix.length()));
      }
    }
    for (BackupFile f : found.files()) {
      if (f.path().startsWith(prefix) && f.path().indexOf('/', prefix.length()) < 0) {
        present.add(f.path().substring(prefix.length())); // a file where a corpus folder would be
      }
    }
    Set<String> bad = new HashSet<>();
    for (String name : present) {
      if (!listed.contains(name)) {
        mismatches.add(new Mismatch(Kind.CORPUS_NOT_LISTED, prefix + name, ""));
        bad.add(prefix + name);
      }
    }
    for (CorpusBackup c : manifest.corpora()) {
      if (!present.contains(c.corpus())) {
        mismatches.add(
            new Mismatch(
                Kind.CORPUS_MISSING,
                prefix + c.corpus(),
                "corpusId " + c.corpusId() + " at revision " + c.revision()));
        bad.add(prefix + c.corpus());
      }
    }
    return bad;
  }

  /**
   * Compares every folder and file with the recorded contents, leaving out corpora already named.
   */
  private static void contents(
      BackupContents recorded,
      BackupContents found,
      Set<String> reported,
      List<Mismatch> mismatches) {
    Set<String> recordedFolders = new HashSet<>(recorded.folders());
    Set<String> foundFolders = new HashSet<>(found.folders());
    for (String folder : found.folders()) {
      if (!recordedFolders.contains(folder) && !under(folder, reported)) {
        mismatches.add(new Mismatch(Kind.NOT_LISTED, folder + "/", ""));
      }
    }
    for (String folder : recorded.folders()) {
      if (!foundFolders.contains(folder) && !under(folder, reported)) {
        mismatches.add(new Mismatch(Kind.MISSING, folder + "/", ""));
      }
    }
    Map<String, BackupFile> expected =
        recorded.files().stream().collect(Collectors.toMap(BackupFile::path, Function.identity()));
    Set<String> seen = new HashSet<>();
    for (BackupFile f : found.files()) {
      seen.add(f.path());
      BackupFile e = expected.get(f.path());
      if (under(f.path(), reported)) {
        continue;
      }
      if (e == null) {
        mismatches.add(new Mismatch(Kind.NOT_LISTED, f.path(), f.bytes() + " bytes"));
      } else if (e.bytes() != f.bytes()) {
        mismatches.add(
            new Mismatch(
                Kind.SIZE_CHANGED, f.path(), f.bytes() + " bytes; the manifest says " + e.bytes()));
      } else if (!e.sha256().equals(f.sha256())) {
        mismatches.add(
            new Mismatch(
                Kind.CONTENT_CHANGED,
                f.path(),
                "SHA-256 " + f.sha256() + "; the manifest says " + e.sha256()));
      }
    }
    for (BackupFile e : recorded.files()) {
      if (!seen.contains(e.path()) && !under(e.path(), reported)) {
        mismatches.add(new Mismatch(Kind.MISSING, e.path(), e.bytes() + " bytes"));
      }
    }
  }

  private static Set<String> topLevel(BackupContents found) {
    Set<String> top = new TreeSet<>();
    for (String folder : found.folders()) {
      top.add(first(folder));
    }
    for (BackupFile f : found.files()) {
      top.add(first(f.path()));
    }
    for (String other : found.others()) {
      top.add(first(other));
    }
    return top;
  }

  private static String first(String path) {
    int slash = path.indexOf('/');
    return slash < 0 ? path : path.substring(0, slash);
  }

  private static boolean under(String path, Set<String> folders) {
    for (String folder : folders) {
      if (path.equals(folder) || path.startsWith(folder + "/")) {
        return true;
      }
    }
    return false;
  }
}
