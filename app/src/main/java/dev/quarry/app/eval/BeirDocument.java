package dev.quarry.app.eval;

import java.util.Objects;

/** One document of a BEIR corpus: its id, title (empty when absent) and text. */
public record BeirDocument(String id, String title, String text) {
  public BeirDocument {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(text, "text");
  }
}
