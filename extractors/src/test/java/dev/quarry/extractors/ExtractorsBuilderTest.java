package dev.quarry.extractors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ExtractorsBuilderTest {

  @Test
  void workers_setTwice_fails() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> Extractors.builder().workers(2).workers(3));
    assertTrue(e.getMessage().contains("already set to 2"), e.getMessage());
  }

  @Test
  void pdfEnabled_setTwice_failsNamingTheFirstValue() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> Extractors.builder().pdfEnabled(false).pdfEnabled(true));
    assertTrue(e.getMessage().contains("pdfEnabled was already set to false"), e.getMessage());
  }

  @Test
  void queueCapacity_setToZeroThenAgain_fails() {
    // Zero is a value, not "unset": setting it counts.
    assertThrows(
        IllegalStateException.class, () -> Extractors.builder().queueCapacity(0).queueCapacity(3));
  }

  @Test
  void workers_zero_fails() {
    assertThrows(IllegalArgumentException.class, () -> Extractors.builder().workers(0));
  }

  @Test
  void workerHeapMiB_tooSmall_fails() {
    assertThrows(IllegalArgumentException.class, () -> Extractors.builder().workerHeapMiB(16));
  }

  @Test
  void queueCapacity_negative_fails() {
    assertThrows(IllegalArgumentException.class, () -> Extractors.builder().queueCapacity(-1));
  }

  @Test
  void limits_nonPositive_fail() {
    ExtractionLimits defaults = ExtractionLimits.defaults();
    assertThrows(IllegalArgumentException.class, () -> defaults.withMaxDocumentBytes(0));
    assertThrows(IllegalArgumentException.class, () -> defaults.withMaxDocumentPages(0));
    assertThrows(IllegalArgumentException.class, () -> defaults.withMaxExtractedChars(0));
    assertThrows(IllegalArgumentException.class, () -> defaults.withTimeout(Duration.ZERO));
  }

  @Test
  void build_defaults_areTheDocumentedOnes() {
    try (Extractors extractors = Extractors.builder().build()) {
      assertEquals(ExtractionLimits.defaults(), extractors.limits());
      assertEquals(64L << 20, extractors.limits().maxDocumentBytes());
      assertTrue(extractors.pdfEnabled());
    }
  }

  @Test
  void extract_afterClose_fails() {
    Extractors extractors = Extractors.builder().build();
    extractors.close();
    assertThrows(IllegalStateException.class, () -> extractors.extract(Path.of("pom.xml"), null));
  }
}
