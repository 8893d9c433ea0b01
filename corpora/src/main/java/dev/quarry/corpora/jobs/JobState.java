package dev.quarry.corpora.jobs;

import java.util.Locale;

/** Where an ingestion job is in its life; the last three are final. */
public enum JobState {
  /** Takes more files; those it holds are already being ingested. */
  OPEN,
  /** Closed: takes no more files, and ingests those it holds. */
  RUNNING,
  /** Every file has its outcome (indexed, unchanged or failed). */
  COMPLETED,
  /** Cancelled: files indexed before stay indexed, the others never will be. */
  CANCELLED,
  /** The job could not go on: its corpus was deleted or replaced. */
  FAILED;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public boolean ended() {
    return this == COMPLETED || this == CANCELLED || this == FAILED;
  }

  static JobState fromWireName(String name) {
    return valueOf(name.toUpperCase(Locale.ROOT));
  }
}
