/**
 * The ingestion pipeline: a document file becomes a source. The bytes are hashed, extracted in the
 * extractors' worker pool (media type from the bytes, bounded size, pages, characters and time),
 * and handed to the corpus as one index operation carrying the text, its page starts, the detected
 * media type, the SHA-256 of the bytes and the extraction report; the engine chunks it.
 *
 * <p>Entry: {@link dev.quarry.corpora.Corpora#ingest}, which checks grants and existence first;
 * {@link dev.quarry.corpora.ingest.IngestPipeline} does the rest. An {@link
 * dev.quarry.corpora.ingest.IngestRequest} says where the document goes.
 *
 * <p>Not for HTTP (multipart parsing and upload limits are the api module's) and not for parsing:
 * every parser runs in the extractors module's worker processes, never on this heap.
 */
package dev.quarry.corpora.ingest;
