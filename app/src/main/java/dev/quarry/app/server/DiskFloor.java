package dev.quarry.app.server;

import dev.quarry.corpora.WriteAdmission;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Refuses writes that add data with {@code 507 INSUFFICIENT_STORAGE} (retryable) while the data
 * folder's file system has less usable space than {@code storage.minFreeDiskMiB}: refused before
 * any work, with nothing changed, instead of failing inside Lucene halfway through a commit or a
 * merge. Deletions and searches go on. Measured at each write (one {@code statvfs}); thread-safe.
 */
final class DiskFloor implements WriteAdmission {
  private static final long MIB = 1024 * 1024;
  private final Path dataDir;
  private final long minFreeBytes;

  /**
   * @param minFreeBytes the least usable space for a write; 0: writes are not checked
   */
  DiskFloor(Path dataDir, long minFreeBytes) {
    if (minFreeBytes < 0) {
      throw new IllegalArgumentException("minFreeBytes must not be negative; got " + minFreeBytes);
    }
    this.dataDir = dataDir;
    this.minFreeBytes = minFreeBytes;
  }

  @Override
  public void admit() {
    if (minFreeBytes == 0) {
      return;
    }
    long usable;
    try {
      usable = Files.getFileStore(dataDir).getUsableSpace();
    } catch (IOException e) {
      return; // unmeasurable: the write goes ahead, and a real shortage fails in the store,
      // changing nothing
    }
    if (usable < minFreeBytes) {
      throw new QuarryException(
          ErrorCode.INSUFFICIENT_STORAGE,
          "the data folder's disk has "
              + usable / MIB
              + " MiB free, below the "
              + minFreeBytes / MIB
              + " MiB storage.minFreeDiskMiB: writes that add data are "
              + "refused until space is freed; deletions and searches go on");
    }
  }
}
