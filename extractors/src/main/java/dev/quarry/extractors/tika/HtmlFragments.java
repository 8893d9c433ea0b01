package dev.quarry.extractors.tika;

import dev.quarry.extractors.ExtractedTable;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.text.PagedTextBuilder;
import dev.quarry.extractors.text.RenderedText;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.tika.exception.TikaException;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.html.HtmlMapper;
import org.apache.tika.parser.html.JSoupParser;
import org.xml.sax.SAXException;

/**
 * HTML inside another format's text, read as an HTML document's body is: Markdown's raw HTML
 * blocks, such as the {@code <table>} a Markdown file holds where a pipe table cannot say what it
 * needs (cells spanning rows or columns, two header rows). Its tables are rendered and kept as
 * every format's tables are ({@link ExtractedTable}), through the same handler as HTML documents.
 * It is the extractors' {@code HtmlBlockReader}.
 */
public final class HtmlFragments {
  private HtmlFragments() {}

  /**
   * {@code html} rendered as text with its tables read, within {@code maxChars} characters.
   *
   * @throws ExtractionException {@code DOCUMENT_TOO_LARGE} when the rendering passes {@code
   *     maxChars}; a fragment the parser cannot read fails as an HTML document would
   */
  public static RenderedText render(String html, int maxChars) throws ExtractionException {
    PagedTextBuilder text = new PagedTextBuilder(maxChars, 1);
    MarkdownRenderingHandler handler = new MarkdownRenderingHandler(text, false, maxChars);
    Metadata metadata = new Metadata();
    metadata.set(Metadata.CONTENT_TYPE, "text/html; charset=UTF-8");
    ParseContext context = new ParseContext();
    context.set(HtmlMapper.class, TableSpansHtmlMapper.INSTANCE);
    try {
      new JSoupParser()
          .parse(
              new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)),
              handler,
              metadata,
              context);
    } catch (IOException | SAXException | TikaException | RuntimeException e) {
      throw TikaExtractor.classify(e, text, "text/html");
    }
    if (text.limitFailure() != null) {
      throw text.limitFailure();
    }
    String rendered = text.text();
    int lead = 0;
    while (lead < rendered.length() && Character.isWhitespace(rendered.charAt(lead))) {
      lead++;
    }
    String body = rendered.strip();
    List<ExtractedTable> tables = new ArrayList<>();
    for (ExtractedTable t : handler.tables()) {
      if (t.start() >= lead && t.end() - lead <= body.length()) {
        tables.add(t.movedBy(-lead));
      }
    }
    return new RenderedText(body, tables);
  }
}
