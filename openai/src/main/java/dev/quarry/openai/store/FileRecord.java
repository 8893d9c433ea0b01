package dev.quarry.openai.store;

import java.util.Objects;

/**
 * One uploaded file as {@link FileArea} keeps it.
 *
 * @param createdAt seconds since the epoch, as OpenAI's objects count time
 * @param subject the token subject that uploaded it: the only one that sees it
 * @param sha256 the bytes' SHA-256, lowercase hex
 */
public record FileRecord(
    String id,
    String filename,
    long bytes,
    long createdAt,
    String purpose,
    String subject,
    String sha256) {
  public FileRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(filename, "filename");
    Objects.requireNonNull(purpose, "purpose");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(sha256, "sha256");
  }
}
