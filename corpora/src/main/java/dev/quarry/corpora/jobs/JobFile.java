package dev.quarry.corpora.jobs;

import dev.quarry.corpora.ingest.IngestRequest;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.SourceIds;

/**
 * What a client says of one file it sends to a job: the source it becomes and what is recorded with
 * it. The bytes come separately.
 *
 * @param title the source's title, or null for the document's own
 * @param metadata null for none
 * @param mediaType the declared media type, or null; the bytes decide
 */
public record JobFile(String source, String title, Metadata metadata, String mediaType) {
  public JobFile {
    SourceIds.check(source, "source");
    metadata = metadata == null ? Metadata.EMPTY : metadata;
  }

  /** The ingestion of this file into the job's corpus, which must still be {@code corpusId}. */
  IngestRequest toRequest(String corpusId) {
    return new IngestRequest(source, title, metadata, mediaType, null, corpusId);
  }
}
