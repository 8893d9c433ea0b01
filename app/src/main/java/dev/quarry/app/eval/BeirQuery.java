package dev.quarry.app.eval;

import java.util.Objects;

/** One query of a BEIR collection: its id and text. */
public record BeirQuery(String id, String text) {
  public BeirQuery {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(text, "text");
  }
}
