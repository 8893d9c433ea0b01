package dev.quarry.openai.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * One file attached to one vector store: the file became a source of the store's corpus (named by
 * the file's id) through file {@code index} of ingestion job {@code job}.
 *
 * @param batch the file batch that attached it, or null for a file attached alone
 * @param attributes the attributes it was attached with (the source's metadata), as a JSON object
 * @param outcome the file's final status once it was seen ({@code completed}, {@code failed},
 *     {@code cancelled}), or null while it was not: the job's record is removed some time after it
 *     ends, this one stays
 * @param errorCode for a failed file, Quarry's error code; else null
 */
public record Attachment(
    String fileId,
    String job,
    int index,
    String batch,
    ObjectNode attributes,
    long createdAt,
    long bytes,
    String outcome,
    String errorCode,
    String errorMessage) {
  public Attachment {
    Objects.requireNonNull(fileId, "fileId");
    Objects.requireNonNull(job, "job");
    Objects.requireNonNull(attributes, "attributes");
  }

  public Attachment withOutcome(String status, String code, String message) {
    return new Attachment(
        fileId, job, index, batch, attributes, createdAt, bytes, status, code, message);
  }
}
