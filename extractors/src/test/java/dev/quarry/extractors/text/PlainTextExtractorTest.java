package dev.quarry.extractors.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import dev.quarry.extractors.ExtractionLimits;
import dev.quarry.testing.TestSeed;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

class PlainTextExtractorTest {

  private final PlainTextExtractor extractor = new PlainTextExtractor();
  private final ExtractionLimits limits = ExtractionLimits.defaults();

  @TempDir Path dir;

  private Path write(byte[] bytes) throws IOException {
    return Files.write(dir.resolve("file.txt"), bytes);
  }

  @Test
  void extract_validUtf8_isReadWithoutWarnings() throws Exception {
    Extraction extraction =
        extractor.extract(
            write("Grüße, 世界".getBytes(StandardCharsets.UTF_8)), "text/plain", false, limits);
    assertEquals("Grüße, 世界", extraction.text());
    assertTrue(extraction.warnings().isEmpty());
  }

  @Test
  void extract_byteOrderMark_namesTheCharset_andIsDropped() throws Exception {
    byte[] utf16 = "\uFEFFhello there".getBytes(StandardCharsets.UTF_16BE);
    assertEquals(
        "hello there", extractor.extract(write(utf16), "text/plain", false, limits).text());
  }

  @Test
  void extract_legacyCharset_isDetected() throws Exception {
    String french =
        "Les élèves étudient à l'école près de la forêt; où sont les cafés et les théâtres? "
            .repeat(20);
    byte[] latin = french.getBytes(Charset.forName("windows-1252"));
    assertEquals(french, extractor.extract(write(latin), "text/plain", false, limits).text());
  }

  @Test
  @ExtendWith(TestSeed.class)
  void extract_mostlyInvalidBytes_isExtractionFailed(Random random) throws Exception {
    String replay = "replay with " + TestSeed.replay();
    byte[] noise = new byte[4096];
    random.nextBytes(noise);
    for (int i = 0; i < noise.length; i++) {
      noise[i] = (byte) (noise[i] | 0x80); // high bytes only: never valid UTF-8 in a row
    }
    ExtractionException e =
        assertThrows(
            ExtractionException.class,
            () -> extractor.extract(write(noise), "text/plain", false, limits),
            replay);
    assertTrue(
        e.failure() == Failure.EXTRACTION_FAILED || e.failure() == Failure.UNSUPPORTED_MEDIA_TYPE,
        replay + ": " + e);
  }

  @Test
  void extract_overTheCharacterLimit_isDocumentTooLarge() throws Exception {
    ExtractionException e =
        assertThrows(
            ExtractionException.class,
            () ->
                extractor.extract(
                    write("x".repeat(101).getBytes(StandardCharsets.UTF_8)),
                    "text/plain",
                    false,
                    limits.withMaxExtractedChars(100)));
    assertEquals(Failure.DOCUMENT_TOO_LARGE, e.failure());
  }

  @Test
  void extract_onlyWhiteSpace_isNoTextExtracted() throws Exception {
    ExtractionException e =
        assertThrows(
            ExtractionException.class,
            () ->
                extractor.extract(
                    write(" \n\t\n".getBytes(StandardCharsets.UTF_8)),
                    "text/plain",
                    false,
                    limits));
    assertEquals(Failure.NO_TEXT_EXTRACTED, e.failure());
  }
}
