package dev.quarry.extractors.tika;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionLimits;
import java.nio.file.Path;
import java.util.List;
import org.apache.tika.config.TikaConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An OpenDocument text's Title and Subtitle paragraphs read as headings. */
class OdtTitlesTest {
  private static final String ODT = "application/vnd.oasis.opendocument.text";

  @TempDir Path dir;

  /**
   * A title in an automatic style derived from Title, a subtitle in a style of the styles part
   * derived from Subtitle, a heading, a table whose cell is in the title's style, and a paragraph
   * later with the title's text.
   */
  private static final String CONTENT =
      OdfPackages.content(
          """
        <office:automatic-styles>
          <style:style style:name="P1" style:family="paragraph" style:parent-style-name="Title"/>
          <style:style style:name="P2" style:family="paragraph" style:parent-style-name="Year_20_line"/>
        </office:automatic-styles>
        <office:body><office:text>
          <text:p text:style-name="P1">Annual<text:s/> report</text:p>
          <text:p text:style-name="P2">Fiscal year 2026</text:p>
          <text:h text:outline-level="1">Income</text:h>
          <text:p text:style-name="Text_20_body">Sales grew.</text:p>
          <table:table table:name="T"><table:table-row><table:table-cell>
            <text:p text:style-name="P1">In a cell</text:p>
          </table:table-cell></table:table-row></table:table>
          <text:p text:style-name="Text_20_body">Annual report</text:p>
        </office:text></office:body>
      """);

  private static final String STYLES =
      OdfPackages.styles(
          """
        <office:styles>
          <style:style style:name="Year_20_line" style:family="paragraph" style:parent-style-name="Subtitle"/>
        </office:styles>
      """);

  @Test
  void titleAndSubtitleParagraphs_areHeadings_andNothingElseIs() throws Exception {
    Path file = OdfPackages.write(dir.resolve("report.odt"), ODT, CONTENT, STYLES);
    assertEquals(
        List.of(
            new OdtTitles.Title(1, "Annual report"), new OdtTitles.Title(2, "Fiscal year 2026")),
        OdtTitles.read(file));
    Extraction extraction =
        new TikaExtractor(TikaConfig.getDefaultConfig())
            .extract(file, ODT, ExtractionLimits.defaults());
    String text = extraction.text();
    assertTrue(text.startsWith("# Annual report\n\n## Fiscal year 2026\n\n# Income"), text);
    assertFalse(text.contains("# In a cell"), "a cell is not a title: " + text);
    assertTrue(text.strip().endsWith("\nAnnual report"), "the title's text later is text: " + text);
  }
}
