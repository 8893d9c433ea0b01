package dev.quarry.benchmarks.corpus;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One document of a benchmark corpus, as a client would submit it to be indexed.
 *
 * @param id the source id; unique within a corpus
 * @param title the title, or null
 * @param text the body text
 */
public record SourceDocument(String id, String title, String text) {
  public SourceDocument {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(text, "text");
  }

  /** The same content under another source id (to index it again as a new source). */
  public SourceDocument withId(String newId) {
    return new SourceDocument(newId, title, text);
  }

  /** The size of the text in UTF-8, the unit of the MB/s figures. */
  public int textUtf8Bytes() {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }
}
