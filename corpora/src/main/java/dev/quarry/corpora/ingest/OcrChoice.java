package dev.quarry.corpora.ingest;

import java.util.Locale;

/**
 * What a caller asks of optical character recognition for a document or a job: the corpora's own
 * word for it, so that a host (and api's wire) speaks to corpora without the extractors' types. The
 * ingest pipeline maps it onto the extractors' mode.
 */
public enum OcrChoice {
  /** Recognise images, and the pages of a PDF that have no text layer. */
  AUTO,
  /** Never recognise: images are refused and pages without a text layer stay empty. */
  OFF;

  /** The name on the wire and in a job folder: {@code auto} or {@code off}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The choice with this wire name, or null. */
  public static OcrChoice fromWireName(String name) {
    for (OcrChoice choice : values()) {
      if (choice.wireName().equals(name)) {
        return choice;
      }
    }
    return null;
  }
}
