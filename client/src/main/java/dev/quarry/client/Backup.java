package dev.quarry.client;

import java.util.List;

/**
 * {@code POST /v1/admin/backup}: a complete backup of the server's data folder, written by the
 * server into its {@code backup.directory} as {@code name}.
 *
 * @param format the backup layout's version
 * @param corpora every corpus, each at the one revision it was copied at
 * @param bytes the backup's size
 * @quarry.experimental
 */
public record Backup(
    int format,
    String name,
    String createdAt,
    String serverVersion,
    List<CorpusRevision> corpora,
    long bytes) {
  public record CorpusRevision(String corpus, String corpusId, long revision) {}
}
