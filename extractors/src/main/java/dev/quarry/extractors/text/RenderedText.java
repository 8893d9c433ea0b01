package dev.quarry.extractors.text;

import dev.quarry.extractors.ExtractedTable;
import java.util.List;

/**
 * Text as rendered for indexing, and the tables read from it (offsets in that text).
 *
 * @param text the rendered text
 * @param tables its tables, in text order
 */
public record RenderedText(String text, List<ExtractedTable> tables) {
  public RenderedText {
    tables = List.copyOf(tables);
  }
}
