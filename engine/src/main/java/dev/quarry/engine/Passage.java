package dev.quarry.engine;

import java.util.Objects;

/**
 * A pre-chunked passage of a source, kept exactly as given.
 *
 * @quarry.stable
 */
public record Passage(String text, Metadata metadata) {
  public Passage {
    Objects.requireNonNull(text, "text");
    metadata = metadata == null ? Metadata.EMPTY : metadata;
  }
}
