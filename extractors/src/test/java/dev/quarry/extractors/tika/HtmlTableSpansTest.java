package dev.quarry.extractors.tika;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionLimits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.tika.config.TikaConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An HTML document's cells that span rows or columns, read through Tika as a reader sees them. */
class HtmlTableSpansTest {
  @TempDir Path dir;

  @Test
  void cellsSpanningRowsAndColumns_repeatInEverySlotTheyCover() throws Exception {
    Path file = dir.resolve("voyages.html");
    Files.writeString(
        file,
        """
        <html><body><h1>Voyages</h1>
        <table>
          <tr><th rowspan="2">Ship</th><th colspan="2">Voyage</th></tr>
          <tr><th>Port</th><th>Tons</th></tr>
          <tr><td rowspan="2">Aurora</td><td>Bergen</td><td>1250</td></tr>
          <tr><td>Oslo</td><td>980</td></tr>
        </table></body></html>
        """);
    Extraction extraction =
        new TikaExtractor(TikaConfig.getDefaultConfig())
            .extract(file, "text/html", ExtractionLimits.defaults());
    assertEquals(
        List.of(
            List.of("Ship", "Voyage", "Voyage"),
            List.of("Ship", "Port", "Tons"),
            List.of("Aurora", "Bergen", "1250"),
            List.of("Aurora", "Oslo", "980")),
        extraction.tables().get(0).rows(),
        "before spans were kept, Oslo stood under Ship");
  }
}
