package dev.quarry.extractors.tika;

import java.util.Locale;
import org.apache.tika.parser.html.DefaultHtmlMapper;

/**
 * Tika's default HTML mapping, which also keeps a table cell's {@code colspan} and {@code rowspan}:
 * the default drops both, so a cell spanning two rows stood in one, and every later cell of the row
 * it spans slid one column left. {@link TableCollector} lays spanning cells on the grid.
 */
final class TableSpansHtmlMapper extends DefaultHtmlMapper {
  static final TableSpansHtmlMapper INSTANCE = new TableSpansHtmlMapper();

  @Override
  public String mapSafeAttribute(String elementName, String attributeName) {
    String element = elementName.toLowerCase(Locale.ROOT);
    String attribute = attributeName.toLowerCase(Locale.ROOT);
    if ((element.equals("td") || element.equals("th"))
        && (attribute.equals("colspan") || attribute.equals("rowspan"))) {
      return attribute;
    }
    return super.mapSafeAttribute(elementName, attributeName);
  }
}
