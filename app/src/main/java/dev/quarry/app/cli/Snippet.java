package dev.quarry.app.cli;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A short window of a search hit's text around its first highlight, with the highlighted words
 * marked: in bold on a terminal, between {@code **} otherwise. A whole chunk (hundreds of words) is
 * too much to read in a list of results.
 */
final class Snippet {
  /** Characters shown: about two lines of a terminal. */
  static final int WIDTH = 160;

  private static final String BOLD = "\u001b[1m";
  private static final String PLAIN = "\u001b[0m";

  private Snippet() {}

  /**
   * @param text the hit's text
   * @param highlights the hit's {@code highlights}, {@code [[start, end], ...]} in UTF-16 units of
   *     {@code text}, in order; missing or empty for none
   */
  static String of(String text, JsonNode highlights, boolean bold) {
    int first = highlights != null && highlights.size() > 0 ? highlights.get(0).get(0).asInt() : 0;
    int start = Math.max(0, first - WIDTH / 4);
    while (start > 0 && !Character.isWhitespace(text.charAt(start - 1))) {
      start--; // begin at a word
    }
    int end = Math.min(text.length(), start + WIDTH);
    while (end < text.length() && !Character.isWhitespace(text.charAt(end))) {
      end++; // end at a word
    }
    return marked(text, highlights, start, end, start > 0, end < text.length(), bold);
  }

  /**
   * The server's snippet of a hit (its {@code snippet} object: the window's {@code text}, its
   * {@code start} and {@code end} in the hit's text and the matches inside it), marked as {@link
   * #of} marks, with an ellipsis where it cuts the hit's text of {@code textLength} units.
   */
  static String ofServer(JsonNode snippet, int textLength, boolean bold) {
    String text = snippet.path("text").asText();
    return marked(
        text,
        snippet.get("highlights"),
        0,
        text.length(),
        snippet.path("start").asInt() > 0,
        snippet.path("end").asInt(textLength) < textLength,
        bold);
  }

  /** {@code text} from {@code start} to {@code end}, each highlight inside marked, on one line. */
  private static String marked(
      String text,
      JsonNode highlights,
      int start,
      int end,
      boolean cutBefore,
      boolean cutAfter,
      boolean bold) {
    StringBuilder out = new StringBuilder(cutBefore ? "…" : "");
    int at = start;
    if (highlights != null) {
      for (JsonNode span : highlights) {
        int from = Math.max(span.get(0).asInt(), at);
        int to = Math.min(span.get(1).asInt(), end);
        if (from >= to) {
          continue;
        }
        out.append(text, at, from)
            .append(bold ? BOLD : "**")
            .append(text, from, to)
            .append(bold ? PLAIN : "**");
        at = to;
      }
    }
    out.append(text, at, end).append(cutAfter ? "…" : "");
    return out.toString().replaceAll("\\s+", " ").strip();
  }
}
