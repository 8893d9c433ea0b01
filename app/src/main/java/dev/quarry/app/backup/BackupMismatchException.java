package dev.quarry.app.backup;

import java.util.List;
import java.util.Objects;

/**
 * A backup folder that does not hold what its manifest says: a corpus folder the manifest does not
 * list or one it lists that is missing, a file or folder added or removed, a file whose size or
 * bytes changed. A restore refuses such a backup before it writes anything.
 */
public final class BackupMismatchException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** Differences named in the message at most; {@link #mismatches()} has them all. */
  private static final int SHOWN = 10;

  /** What kind of difference. */
  public enum Kind {
    /** A folder under {@code corpora/} that the manifest does not list. */
    CORPUS_NOT_LISTED("corpus not in the manifest"),
    /** A corpus the manifest lists whose folder is not in the backup. */
    CORPUS_MISSING("corpus missing"),
    /** A file or folder that the manifest does not list. */
    NOT_LISTED("not in the manifest"),
    /** A file or folder the manifest lists that is not in the backup. */
    MISSING("missing"),
    /** A file whose size is not the manifest's. */
    SIZE_CHANGED("size changed"),
    /** A file of the manifest's size whose SHA-256 is not the manifest's. */
    CONTENT_CHANGED("content changed"),
    /** An entry that is no plain file or folder (a symbolic link), which no backup holds. */
    NOT_A_FILE("not a plain file"),
    /** The files together are not the size the manifest gives (manifests that list no files). */
    TOTAL_SIZE_CHANGED("total size changed");

    private final String words;

    Kind(String words) {
      this.words = words;
    }

    /** How the message names it. */
    public String words() {
      return words;
    }
  }

  /**
   * One difference.
   *
   * @param path the entry's path inside the backup ({@code /}-separated); for a corpus, its folder
   * @param detail what was expected and found, or empty
   */
  public record Mismatch(Kind kind, String path, String detail) {
    public Mismatch {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(detail, "detail");
    }

    @Override
    public String toString() {
      return kind.words() + ": " + path + (detail.isEmpty() ? "" : " (" + detail + ")");
    }
  }

  private final transient List<Mismatch> mismatches;

  BackupMismatchException(String backup, List<Mismatch> mismatches) {
    super(message(backup, mismatches));
    this.mismatches = List.copyOf(mismatches);
  }

  /** Every difference found, in path order within each check. */
  public List<Mismatch> mismatches() {
    return mismatches;
  }

  private static String message(String backup, List<Mismatch> mismatches) {
    StringBuilder out =
        new StringBuilder("the backup ")
            .append(backup)
            .append(" does not match its manifest (")
            .append(BackupManifest.FILE)
            .append("), so nothing was restored: ");
    for (int i = 0; i < Math.min(SHOWN, mismatches.size()); i++) {
      out.append(i == 0 ? "" : "; ").append(mismatches.get(i));
    }
    if (mismatches.size() > SHOWN) {
      out.append("; and ").append(mismatches.size() - SHOWN).append(" more");
    }
    return out.append(". Restore from an intact copy of the backup").toString();
  }
}
