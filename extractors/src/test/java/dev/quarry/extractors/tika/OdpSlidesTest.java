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

/** An OpenDocument presentation read slide by slide, as a slide deck. */
class OdpSlidesTest {
  private static final String ODP = "application/vnd.oasis.opendocument.presentation";

  @TempDir Path dir;

  private static final String CONTENT =
      OdfPackages.content(
          """
        <office:body><office:presentation>
          <draw:page draw:name="Slide1">
            <draw:frame presentation:class="subtitle"><draw:text-box>
              <text:p>Ships of the line</text:p></draw:text-box></draw:frame>
            <draw:frame presentation:class="title"><draw:text-box>
              <text:p>The <text:span>fleet</text:span></text:p></draw:text-box></draw:frame>
            <draw:frame><svg:desc>a table of ships</svg:desc><table:table>
              <table:table-row><table:table-cell><text:p>Ship</text:p></table:table-cell>
                <table:table-cell table:number-columns-spanned="2"><text:p>Voyage</text:p></table:table-cell>
                <table:covered-table-cell><text:p>hidden</text:p></table:covered-table-cell></table:table-row>
              <table:table-row><table:table-cell><text:p>Aurora</text:p></table:table-cell>
                <table:table-cell><text:p>Bergen</text:p></table:table-cell>
                <table:table-cell><text:p>1250</text:p></table:table-cell></table:table-row>
            </table:table></draw:frame>
          </draw:page>
          <draw:page draw:name="Slide2">
            <draw:frame><draw:text-box><text:list>
              <text:list-item><text:p>First<text:s/>point</text:p></text:list-item>
              <text:list-item><text:p>Second point</text:p></text:list-item>
            </text:list></draw:text-box></draw:frame>
            <presentation:notes><draw:frame presentation:class="notes"><draw:text-box>
              <text:p>Say it slowly.</text:p></draw:text-box></draw:frame></presentation:notes>
          </draw:page>
        </office:presentation></office:body>
      """);

  private static final String STYLES =
      OdfPackages.styles(
          """
        <office:master-styles><style:master-page style:name="Default">
          <draw:frame presentation:class="title"><draw:text-box>
            <text:p>Click to edit Master title style</text:p></draw:text-box></draw:frame>
        </style:master-page></office:master-styles>
      """);

  private Path deck() throws Exception {
    return OdfPackages.write(dir.resolve("fleet.odp"), ODP, CONTENT, STYLES);
  }

  @Test
  void eachSlideIsAPage_headedByItsTitleFrameOrItsName_withoutTheMasterPages() throws Exception {
    Extraction extraction =
        new TikaExtractor(TikaConfig.getDefaultConfig())
            .extract(deck(), ODP, ExtractionLimits.defaults());
    String text = extraction.text();
    assertEquals(
        """
        Ships of the line

        # The fleet

        Ship = Aurora; Voyage = Bergen; Voyage = 1250

        # Slide2

        - First point

        - Second point

        Say it slowly.""",
        text);
    int[] pages = extraction.pageStarts();
    assertEquals(2, pages.length);
    assertEquals(0, pages[0]);
    assertEquals("", text.substring(text.indexOf("1250") + 4, pages[1]).strip());
    assertTrue(text.substring(pages[1]).strip().startsWith("# Slide2"), "page 2 is slide 2");
    assertEquals(
        List.of(List.of("Ship", "Voyage", "Voyage"), List.of("Aurora", "Bergen", "1250")),
        extraction.tables().get(0).rows(),
        "a cell spanning two columns fills both; the covered cell is not read");
    assertFalse(text.contains("Master"), "a master page's placeholder is not the deck's text");
  }
}
