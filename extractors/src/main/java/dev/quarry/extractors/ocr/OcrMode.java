package dev.quarry.extractors.ocr;

import java.util.Locale;

/** Whether optical character recognition reads what has no text of its own. */
public enum OcrMode {
  /**
   * Recognise images, and the pages of a PDF that have no text layer; pages with text keep their
   * own text, which is always better than a recognition of it.
   */
  AUTO,
  /** Never recognise: images are refused and pages without a text layer stay empty. */
  OFF;

  /** The name on the wire and in configuration: {@code auto} or {@code off}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The mode with this wire name, or null. */
  public static OcrMode fromWireName(String name) {
    for (OcrMode mode : values()) {
      if (mode.wireName().equals(name)) {
        return mode;
      }
    }
    return null;
  }
}
