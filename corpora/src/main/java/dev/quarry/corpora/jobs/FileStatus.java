package dev.quarry.corpora.jobs;

import java.util.Locale;

/** Where one file of an ingestion job is; the last four are its outcome and never change. */
public enum FileStatus {
  /** Stored (its bytes and SHA-256 on disk), waiting for a runner. */
  QUEUED,
  /** Being extracted and indexed. */
  EXTRACTING,
  INDEXED,
  /** Its source already held the same bytes, title and metadata: no new revision. */
  UNCHANGED,
  FAILED,
  /** The job was cancelled before this file was indexed. */
  CANCELLED;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public boolean isOutcome() {
    return this != QUEUED && this != EXTRACTING;
  }

  static FileStatus fromWireName(String name) {
    return valueOf(name.toUpperCase(Locale.ROOT));
  }
}
