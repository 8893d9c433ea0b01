package dev.quarry.engine;

import java.util.List;
import java.util.Objects;

/**
 * A short, readable window of a hit's text around its matches, for a person to read.
 *
 * @param text the window: {@code hit.text().substring(start, end)}
 * @param start the window's start in the hit's text (add the hit's {@code start} for the source
 *     text)
 * @param end the window's end (exclusive) in the hit's text
 * @param highlights {@code [start, end)} ranges of query-term matches inside {@code text}, in
 *     UTF-16 code units
 * @param html the window as HTML when asked for: the text escaped, each match wrapped in the
 *     requested markers (inserted as given), and an ellipsis where the window cuts the text; null
 *     otherwise
 * @quarry.stable
 */
public record Snippet(String text, int start, int end, List<int[]> highlights, String html) {
  public Snippet {
    Objects.requireNonNull(text, "text");
    highlights = List.copyOf(highlights);
    if (start < 0 || end < start || end - start != text.length()) {
      throw new IllegalArgumentException(
          "snippet ["
              + start
              + ", "
              + end
              + ") does not hold its "
              + text.length()
              + " characters");
    }
  }
}
