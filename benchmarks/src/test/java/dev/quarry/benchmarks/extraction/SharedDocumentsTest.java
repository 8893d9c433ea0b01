package dev.quarry.benchmarks.extraction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SharedDocumentsTest {
  private static final String HEADER = "filename\tbytes\tmedia_type\tsource\tpdf_pages\tlabels\n";

  private static Path sharedWith(Path dir, String manifest) throws IOException {
    Path good = Files.createDirectories(dir.resolve("data").resolve("docs").resolve("good"));
    Files.writeString(good.resolve(SharedDocuments.MANIFEST), manifest);
    return dir;
  }

  @Test
  void read_splitsPdfsFromOthers_withTheManifestsPageCounts(@TempDir Path dir) throws IOException {
    Path shared =
        sharedWith(
            dir,
            HEADER
                + "a.pdf\t10\tapplication/pdf\tsomewhere\t3\t\n"
                + "b.docx\t20\tapplication/vnd.openxmlformats-officedocument.wordprocessingml.document\tsomewhere\t\t\n"
                + "c.pdf\t30\tapplication/pdf\tsomewhere\tNA\tscanned\n");
    assertNull(SharedDocuments.unavailableReason(shared));
    SharedDocuments documents = SharedDocuments.read(shared);
    Path good = shared.resolve("data/docs/good");
    assertEquals(
        List.of(
            new SharedDocuments.Document(good.resolve("a.pdf"), 3),
            new SharedDocuments.Document(good.resolve("c.pdf"), 0)),
        documents.of(SharedDocuments.Kind.PDF));
    assertEquals(
        List.of(new SharedDocuments.Document(good.resolve("b.docx"), 0)),
        documents.of(SharedDocuments.Kind.OTHER));
  }

  @Test
  void read_aLineWithMissingColumns_isRefusedNamingIt(@TempDir Path dir) throws IOException {
    Path shared = sharedWith(dir, HEADER + "a.pdf\t10\tapplication/pdf\n");
    IOException e = assertThrows(IOException.class, () -> SharedDocuments.read(shared));
    assertTrue(e.getMessage().contains("a.pdf"), e.getMessage());
  }

  @Test
  void read_aManifestWithoutPageCounts_isRefusedNamingTheColumn(@TempDir Path dir)
      throws IOException {
    Path shared = sharedWith(dir, "filename\tmedia_type\na.pdf\tapplication/pdf\n");
    IOException e = assertThrows(IOException.class, () -> SharedDocuments.read(shared));
    assertTrue(e.getMessage().contains("pdf_pages"), e.getMessage());
  }

  @Test
  void unavailableReason_namesTheMissingManifest(@TempDir Path dir) {
    String reason = SharedDocuments.unavailableReason(dir);
    assertTrue(reason.contains(SharedDocuments.MANIFEST) && reason.contains("--shared"), reason);
  }

  @Test
  void kind_fromParam_refusesOthersNamingTheKinds() {
    assertEquals(SharedDocuments.Kind.OTHER, SharedDocuments.Kind.fromParam("other"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SharedDocuments.Kind.fromParam("PDF"));
    assertTrue(e.getMessage().contains("pdf or other"), e.getMessage());
  }
}
