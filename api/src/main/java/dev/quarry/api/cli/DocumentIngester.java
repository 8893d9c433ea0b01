package dev.quarry.api.cli;

/**
 * Ingests one file into one corpus, over HTTP or in-process. Never throws for a bad document:
 * every failure is an {@link IngestOutcome}. Implementations are thread-safe.
 */
interface DocumentIngester extends AutoCloseable {

  /** Null when the corpus can be written to, else why not (it does not exist, no grant, ...). */
  String checkCorpus(String corpus);

  /**
   * Ingests {@code file} as its source; a file whose bytes the source already holds ({@code
   * sha256}) is reported {@code unchanged} without being sent or extracted again.
   */
  IngestOutcome ingest(String corpus, DocumentFiles.DocumentFile file, String sha256);

  @Override
  void close();
}
