package dev.quarry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quarry.app.server.ServerConfig;
import dev.quarry.app.server.TestScans;
import dev.quarry.extractors.ocr.Tesseract;
import dev.quarry.testing.TestTokens;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A single ingest's OCR choice ({@link IngestRequest#withOcr}) against real servers: on one without
 * the feature {@code ocr}, {@code auto} is refused naming the field {@code ocr} and {@code off}
 * gives an image the refusal it gets anyway; on one with OCR switched on (skipped when Tesseract
 * with English data is not installed), {@code off} refuses what the server would otherwise
 * recognise, and {@code auto} recognises a scanned page, found by search, its receipt carrying the
 * OCR report ({@link Receipt#ocr()}, {@link Receipt#ocrWarnings()}), a page scanned upside down
 * included.
 */
class ClientOcrOverHttpTest {
  @TempDir static Path dir;
  @RegisterExtension static final RealServer.PerClass server = RealServer.perClass();
  static QuarryClient admin;
  static Path png;
  static Path scan;
  static Path upsideDown;

  @BeforeAll
  static void start() throws Exception {
    admin = server.client(TestTokens.ADMIN);
    admin.createCorpus("c1", null);
    BufferedImage page = TestScans.render(TestScans.textPdf(1, TestScans.PAGE), 200);
    png = Files.write(dir.resolve("logbook.png"), TestScans.encode(page, "png"));
    scan = Files.write(dir.resolve("scan.pdf"), TestScans.imageOnlyPdf(page));
    upsideDown =
        Files.write(
            dir.resolve("upside-down.png"), TestScans.encode(TestScans.turned(page, 180), "png"));
  }

  @Test
  void withoutTheFeature_autoIsRefusedNamingOcr_andOffGivesTheImagesRefusal() {
    assertFalse(admin.protocol().hasFeature("ocr"), "this server has OCR switched off");
    ApiException.InvalidRequestException auto =
        assertThrows(
            ApiException.InvalidRequestException.class,
            () -> admin.ingest(IngestRequest.of("c1", "auto.png").withOcr("auto"), png));
    assertEquals(400, auto.status());
    assertEquals("INVALID_REQUEST", auto.code());
    assertEquals("ocr", auto.field(), auto::getMessage);
    assertEquals(
        "SOURCE_NOT_FOUND",
        assertThrows(ApiException.NotFoundException.class, () -> admin.readSource("c1", "auto.png"))
            .code(),
        "a refused ingest creates nothing");
    ApiException.InvalidRequestException off =
        assertThrows(
            ApiException.InvalidRequestException.class,
            () -> admin.ingest(IngestRequest.of("c1", "off.png").withOcr("off"), png));
    ApiException.InvalidRequestException unset =
        assertThrows(
            ApiException.InvalidRequestException.class,
            () -> admin.ingest(IngestRequest.of("c1", "unset.png"), png));
    assertEquals(415, off.status());
    assertEquals("UNSUPPORTED_MEDIA_TYPE", off.code());
    assertEquals(unset.code(), off.code(), "off is what this server does anyway");
  }

  @Test
  void withOcrOn_offRefusesTheImageAndTheScan_autoRecognisesThem() throws Exception {
    assumeTrue(
        Tesseract.onPath().available(),
        "tesseract with English language data is not installed (Debian: tesseract-ocr tesseract-ocr-eng); skipping");
    ServerConfig ocr =
        ServerConfig.parse(
            ("{\"extraction\": {\"ocr\": \"auto\"}, \"limits\": {\"extractionTimeoutMillis\":"
                    + " 120000}}")
                .getBytes(StandardCharsets.UTF_8));
    try (RealServer withOcr = new RealServer(dir.resolve("ocr-server"), ocr)) {
      QuarryClient client = withOcr.client(TestTokens.ADMIN);
      assertTrue(client.protocol().hasFeature("ocr"), "this server has OCR switched on");
      client.createCorpus("scans", null);
      ApiException.InvalidRequestException image =
          assertThrows(
              ApiException.InvalidRequestException.class,
              () -> client.ingest(IngestRequest.of("scans", "off.png").withOcr("off"), png));
      assertEquals(415, image.status());
      assertEquals("UNSUPPORTED_MEDIA_TYPE", image.code());
      ApiException.InvalidRequestException scanned =
          assertThrows(
              ApiException.InvalidRequestException.class,
              () -> client.ingest(IngestRequest.of("scans", "off.pdf").withOcr("off"), scan));
      assertEquals(422, scanned.status());
      assertEquals("NO_TEXT_EXTRACTED", scanned.code());

      Receipt recognised =
          client.ingest(IngestRequest.of("scans", "logbook.png").withOcr("auto"), png);
      assertEquals("indexed", recognised.status());
      assertEquals("tesseract", recognised.extractor(), recognised::toString);
      assertEquals("image/png", recognised.mediaType());
      assertTrue(
          client.search("scans", "northern lighthouse logbook").results().stream()
              .anyMatch(h -> h.source().equals("logbook.png")),
          "the recognised words are found");
      assertRecognised(recognised);
      assertEquals(
          List.of(), recognised.ocrWarnings(), "an upright page read well warns of nothing");
      Receipt pdf = client.ingest(IngestRequest.of("scans", "scan.pdf").withOcr("auto"), scan);
      assertEquals("pdfbox", pdf.extractor(), pdf::toString);
      assertTrue(pdf.characters() > 100, pdf::toString);
      assertRecognised(pdf);

      Receipt text =
          client.ingest(
              IngestRequest.of("scans", "notes.txt"),
              Files.writeString(
                  dir.resolve("notes.txt"), "Notes typed about the northern lighthouse.\n"));
      assertNull(text.ocr(), "no OCR report when nothing was recognised: " + text);
      assertEquals(List.of(), text.ocrWarnings());

      assumeTrue(
          Tesseract.onPath().detectsOrientation(),
          "tesseract has no orientation data (osd; Debian: tesseract-ocr-osd); skipping the page scanned upside down");
      Receipt turned = client.ingest(IngestRequest.of("scans", "upside-down.png"), upsideDown);
      assertRecognised(turned);
      assertEquals(
          List.of("OCR_ROTATED"),
          turned.ocrWarnings().stream().map(Receipt.Warning::code).toList(),
          turned::toString);
      assertEquals(List.of(1), turned.ocrWarnings().get(0).pages());
      assertTrue(turned.ocrWarnings().get(0).message().contains("180 degrees"), turned::toString);
      assertTrue(
          client.search("scans", "seven ships passing the cape").results().stream()
              .anyMatch(h -> h.source().equals("upside-down.png")),
          "the page was read upright");
    }
  }

  /**
   * A server with {@code "ocrDetectOrientation": false} reads a page scanned upside down as it
   * lies: no turn is reported and few of its words are found (the same page is read upright with
   * detection on, above).
   */
  @Test
  void withOrientationDetectionOff_anUpsideDownPageIsReadAsItLies() throws Exception {
    assumeTrue(
        Tesseract.onPath().available(),
        "tesseract with English language data is not installed (Debian: tesseract-ocr tesseract-ocr-eng); skipping");
    assumeTrue(
        Tesseract.onPath().detectsOrientation(),
        "tesseract has no orientation data (osd; Debian: tesseract-ocr-osd); skipping the page scanned upside down");
    ServerConfig upright =
        ServerConfig.parse(
            ("{\"extraction\": {\"ocr\": \"auto\", \"ocrDetectOrientation\": false},"
                    + " \"limits\": {\"extractionTimeoutMillis\": 120000}}")
                .getBytes(StandardCharsets.UTF_8));
    try (RealServer uprightOnly = new RealServer(dir.resolve("upright-server"), upright)) {
      QuarryClient client = uprightOnly.client(TestTokens.ADMIN);
      client.createCorpus("scans", null);
      Receipt turned;
      try {
        turned = client.ingest(IngestRequest.of("scans", "upside-down.png"), upsideDown);
      } catch (ApiException.InvalidRequestException e) {
        // Nothing legible at all is the other way of reading the page as it lies.
        assertEquals("NO_TEXT_EXTRACTED", e.code(), e::getMessage);
        return;
      }
      assertNotNull(turned.ocr(), turned::toString);
      assertTrue(
          turned.ocrWarnings().stream().noneMatch(w -> w.code().equals("OCR_ROTATED")),
          turned::toString);
      String text =
          String.join(
              " ",
              client.readChunks("scans", "upside-down.png", null, null, null).chunks().stream()
                  .map(SourceText.Chunk::text)
                  .toList());
      double found = wordsFound(String.join(" ", TestScans.PAGE), text);
      assertTrue(found < 0.5, "share of the page's words read: " + found + " in: " + text);
    }
  }

  /**
   * The share of {@code expected}'s distinct words of five letters or more that {@code text} holds.
   */
  private static double wordsFound(String expected, String text) {
    Set<String> read = Set.copyOf(Arrays.asList(text.toLowerCase(Locale.ROOT).split("[^\\p{L}]+")));
    List<String> wanted =
        Arrays.stream(expected.toLowerCase(Locale.ROOT).split("[^\\p{L}]+"))
            .filter(w -> w.length() >= 5)
            .distinct()
            .toList();
    return (double) wanted.stream().filter(read::contains).count() / wanted.size();
  }

  /** The receipt's OCR report: one page read, its words, a high confidence. */
  private static void assertRecognised(Receipt receipt) {
    assertNotNull(receipt.ocr(), receipt::toString);
    assertEquals(1, receipt.ocr().pagesRecognized(), receipt::toString);
    assertTrue(receipt.ocr().words() >= 20, receipt::toString);
    assertTrue(receipt.ocr().meanConfidence() > 80, receipt::toString);
  }
}
