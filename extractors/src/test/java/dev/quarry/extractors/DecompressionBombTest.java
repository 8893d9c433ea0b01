package dev.quarry.extractors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.ExtractionException.Failure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Decompression bombs of every container format are refused as {@code DOCUMENT_TOO_LARGE} within
 * seconds, before a parser inflates them into the worker's heap, and the worker goes on. The bound
 * is generous (a loaded machine); the times are printed.
 */
class DecompressionBombTest {

  /** Far above an early refusal, far below the half minute a parser needs to fill a worker. */
  private static final Duration GENEROUS = Duration.ofSeconds(15);

  private static final Extractors extractors = TestExtractors.oneWorker();

  @BeforeAll
  static void startPool() throws Exception {
    // A warm worker, so the time measured is the bomb's own.
    Path warm = Files.createTempFile("warm", ".md");
    Files.writeString(warm, "# Warm\n\nThe worker is ready.\n");
    extractors.extract(warm, "text/markdown");
    Files.delete(warm);
  }

  @Test
  void odtWhosePartInflatesToGigabytes_isRefusedEarly(@TempDir Path dir) throws Exception {
    assertRefusedEarly(Bombs.odt(dir.resolve("bomb.odt"), 2L << 30, false), "bomb.odt");
  }

  @Test
  void odtThatDeclaresSmallSizes_isRefusedEarly(@TempDir Path dir) throws Exception {
    assertRefusedEarly(Bombs.odt(dir.resolve("liar.odt"), 2L << 30, true), "liar.odt");
  }

  @Test
  void epubThatDeclaresSmallSizes_isRefusedEarly(@TempDir Path dir) throws Exception {
    assertRefusedEarly(Bombs.epub(dir.resolve("liar.epub"), 2L << 30), "liar.epub");
  }

  @Test
  void pdfWithAFlateStreamOfHundredsOfMegabytes_isRefusedEarly(@TempDir Path dir) throws Exception {
    assertRefusedEarly(Bombs.pdf(dir.resolve("bomb.pdf"), 800L << 20), "bomb.pdf");
  }

  @Test
  void gzipOfGigabytes_isRefusedAsAnArchive_withoutBeingInflated(@TempDir Path dir)
      throws Exception {
    Path bomb = Bombs.gzip(dir.resolve("bomb.gz"), 2L << 30);
    for (String name : new String[] {"bomb.gz", "bomb.txt"}) {
      long started = System.nanoTime();
      ExtractionException refused =
          assertThrows(
              ExtractionException.class,
              () -> extractors.extractWith(bomb, new ExtractionOptions(null, name, null)));
      long millis = (System.nanoTime() - started) / 1_000_000;
      System.out.printf("%s (%d bytes): %s after %d ms%n", name, Files.size(bomb), refused, millis);
      assertEquals(Failure.UNSUPPORTED_MEDIA_TYPE, refused.failure(), refused.toString());
      assertTrue(millis < GENEROUS.toMillis(), name + " was refused after " + millis + " ms");
    }
  }

  @Test
  void pdfWithAModestFlateStream_isRead(@TempDir Path dir) throws Exception {
    Extraction extraction =
        extractors.extractWith(
            Bombs.pdf(dir.resolve("fine.pdf"), 1L << 20),
            new ExtractionOptions(null, "fine.pdf", null));
    assertTrue(extraction.text().contains("Hello bomb"), extraction.text());
  }

  @Test
  void pdfWithALargeCompressibleAttachment_isRead(@TempDir Path dir) throws Exception {
    // 40 MB attached, over 32 MiB and a thousand times its compressed size: a bomb's shape, in a
    // stream that text extraction never decodes.
    Path pdf = Bombs.pdfWithAttachment(dir.resolve("attached.pdf"), 40_000_000);
    assertTrue(
        Files.size(pdf) < 400_000, "the attachment is compressed: " + Files.size(pdf) + " bytes");
    Extraction extraction =
        extractors.extractWith(pdf, new ExtractionOptions(null, "attached.pdf", null));
    assertTrue(extraction.text().contains("Hello attachment"), extraction.text());
  }

  private static void assertRefusedEarly(Path bomb, String name)
      throws IOException, ExtractionException {
    long started = System.nanoTime();
    ExtractionException refused =
        assertThrows(
            ExtractionException.class,
            () -> extractors.extractWith(bomb, new ExtractionOptions(null, name, null)));
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    System.out.printf(
        "%s (%d bytes): %s after %d ms%n", name, Files.size(bomb), refused, took.toMillis());
    assertEquals(Failure.DOCUMENT_TOO_LARGE, refused.failure(), refused.toString());
    assertTrue(refused.getMessage().contains("decompression bomb"), refused.getMessage());
    assertTrue(
        took.compareTo(GENEROUS) < 0, name + " was refused after " + took.toMillis() + " ms");
    Path next = Files.createTempFile("next", ".md");
    try {
      Files.writeString(next, "# Next\n\nThe next document is read.\n");
      assertTrue(extractors.extract(next, "text/markdown").text().contains("next document"));
    } finally {
      Files.delete(next);
    }
  }
}
