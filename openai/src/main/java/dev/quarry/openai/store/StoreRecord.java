package dev.quarry.openai.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * What a vector store holds beyond its corpus: the name and metadata a client gave it.
 *
 * @param metadata OpenAI's string-to-string metadata, as a JSON object
 * @param createdAt seconds since the epoch
 */
public record StoreRecord(String name, ObjectNode metadata, String description, long createdAt) {
  public StoreRecord {
    Objects.requireNonNull(metadata, "metadata");
  }
}
