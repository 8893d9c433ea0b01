package dev.quarry.benchmarks.extraction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PdftotextTest {
  /** The shared documents' first PDF through the real pdftotext: one file, its manifest's pages. */
  @Test
  void measure_runsAtLeastOneFile_countingTheManifestsPages() throws Exception {
    Path shared = BuildSharedDir.path();
    assumeTrue(SharedDocuments.unavailableReason(shared) == null, "no shared documents; skipping");
    assumeTrue(Pdftotext.installed(), "pdftotext is not installed; skipping");
    SharedDocuments.Document first = SharedDocuments.read(shared).pdfs().get(0);
    Pdftotext.Throughput run = Pdftotext.measure(List.of(first), Duration.ZERO);
    assertEquals(1, run.documents());
    assertEquals(first.pages(), run.pages());
    assertTrue(run.seconds() > 0 && run.pagesPerSecond() > 0, run.toString());
  }
}
