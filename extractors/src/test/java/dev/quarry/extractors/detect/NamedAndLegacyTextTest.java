package dev.quarry.extractors.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionOptions;
import dev.quarry.extractors.Extractors;
import dev.quarry.extractors.ScannedPages;
import dev.quarry.extractors.SharedDocs;
import dev.quarry.extractors.TestExtractors;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files whose bytes alone mislead detection: Markdown opening with an HTML comment (taken for XML),
 * and plain text in legacy charsets no magic recognises (EBCDIC, IBM866). The file name is the hint
 * that settles them, as an upload's name is; it never overrides what the bytes show.
 */
class NamedAndLegacyTextTest {
  private static final String ENGLISH =
      "The quick brown fox jumps over the lazy dog. "
          + "Plain text written on a mainframe is stored in EBCDIC, where letters have other codes than in ASCII. "
          + "A search engine should still index every word of it, and say which encoding it read.\n";
  private static final String RUSSIAN =
      "Съешь же ещё этих мягких французских булок, да выпей чаю. "
          + "Текст в старой кодировке DOS должен быть прочитан и проиндексирован целиком, "
          + "а кодировка должна быть названа в отчёте об извлечении.\n";
  private static final Extractors extractors = TestExtractors.oneWorker();

  private static Extraction extract(Path file, String name) throws ExtractionException {
    return extractors.extractWith(file, new ExtractionOptions(null, name, null));
  }

  @Test
  void markdownOpeningWithHtmlComment_isMarkdownByItsName(@TempDir Path dir) throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("upload.part"),
            "<!-- generated: do not edit -->\n<!-- toc -->\n# Installing\n\nRun the installer, then *restart*.\n");
    Extraction extraction = extract(file, "README_ZH.md");
    assertEquals("text/markdown", extraction.mediaType());
    assertEquals("text", extraction.extractor());
    assertTrue(extraction.markdownHeadings());
    assertTrue(extraction.text().contains("# Installing"), extraction.text());
    assertEquals("UTF-8", extraction.encoding());
  }

  @Test
  void pdfNamedTxt_isAPdf(@TempDir Path dir) throws Exception {
    Path pdf =
        ScannedPages.textPdf(
            dir.resolve("upload.part"), List.of(List.of("Minutes of the annual meeting.")));
    Extraction extraction = extract(pdf, "minutes.txt");
    assertEquals("application/pdf", extraction.mediaType());
    assertEquals("pdfbox", extraction.extractor());
  }

  @Test
  void randomBytes_namedPdf_areUnsupported_asUnderAnyOtherName(@TempDir Path dir) throws Exception {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    System.out.println("randomBytes_namedPdf seed: -Dtests.seed=" + seed);
    byte[] random = new byte[4096];
    new java.util.Random(seed).nextBytes(random);
    random[0] = 0x01; // no magic number by chance (seed replays the rest)
    Path file = Files.write(dir.resolve("upload.part"), random);
    for (String name :
        List.of(
            "rand.bin", "rand.pdf", "rand.docx", "rand.odt", "rand.epub", "rand.html", "rand")) {
      ExtractionException refused =
          org.junit.jupiter.api.Assertions.assertThrows(
              ExtractionException.class, () -> extract(file, name), name);
      assertEquals(
          ExtractionException.Failure.UNSUPPORTED_MEDIA_TYPE,
          refused.failure(),
          name + ": " + refused);
    }
  }

  @Test
  void truncatedPdf_namedPdf_isStillExtractionFailed(@TempDir Path dir) throws Exception {
    Path pdf =
        ScannedPages.textPdf(
            dir.resolve("whole.pdf"), List.of(List.of("Minutes of the annual meeting.")));
    byte[] bytes = Files.readAllBytes(pdf);
    Path half =
        Files.write(dir.resolve("upload.part"), java.util.Arrays.copyOf(bytes, bytes.length / 2));
    for (String name : List.of("minutes.pdf", "minutes.bin")) {
      ExtractionException refused =
          org.junit.jupiter.api.Assertions.assertThrows(
              ExtractionException.class, () -> extract(half, name), name);
      assertEquals(
          ExtractionException.Failure.EXTRACTION_FAILED, refused.failure(), name + ": " + refused);
    }
  }

  @Test
  void textNamedCsvOrMarkdown_isStillSpecialisedByItsName(@TempDir Path dir) throws Exception {
    Path file =
        Files.writeString(dir.resolve("upload.part"), "# Budget\n\nname,amount\nrent,1200\n");
    assertEquals("text/markdown", extract(file, "budget.md").mediaType());
    assertEquals("text/csv", extract(file, "budget.csv").mediaType());
    assertEquals("text/plain", extract(file, "budget.bin").mediaType());
  }

  @Test
  void ebcdicText_namedTxt_isDecoded_andItsCharsetReported(@TempDir Path dir) throws Exception {
    Path file =
        Files.write(
            dir.resolve("upload.part"), repeat(ENGLISH, 4).getBytes(Charset.forName("IBM500")));
    Extraction extraction = extract(file, "english.cp500.txt");
    assertEquals("text/plain", extraction.mediaType());
    assertEquals("IBM500", extraction.encoding());
    assertTrue(
        extraction.text().contains("The quick brown fox jumps over the lazy dog."),
        extraction.text());
  }

  @Test
  void ibm866Text_namedTxt_isDecoded_andItsCharsetReported(@TempDir Path dir) throws Exception {
    Path file =
        Files.write(
            dir.resolve("upload.part"), repeat(RUSSIAN, 4).getBytes(Charset.forName("IBM866")));
    Extraction extraction = extract(file, "russian.cp866.txt");
    assertEquals("text/plain", extraction.mediaType());
    assertEquals("IBM866", extraction.encoding());
    assertTrue(extraction.text().contains("французских булок"), extraction.text());
  }

  @Test
  void utf8Text_reportsUtf8(@TempDir Path dir) throws Exception {
    Path file =
        Files.writeString(dir.resolve("notes.txt"), "Grüße aus Köln.\n", StandardCharsets.UTF_8);
    assertEquals("UTF-8", extract(file, null).encoding());
  }

  @Test
  void sharedCollection_filesThatFailedBefore() throws Exception {
    Path readme = SharedDocs.good("ocrmypdf__repo_README_ZH.md");
    Path english = SharedDocs.good("tika__english.cp500.txt");
    Path russian = SharedDocs.good("tika__russian.cp866.txt");

    Extraction markdown = extract(readme, "README_ZH.md");
    assertEquals("text/markdown", markdown.mediaType());
    assertTrue(markdown.markdownHeadings());

    Extraction ebcdic = extract(english, "english.cp500.txt");
    assertEquals("IBM500", ebcdic.encoding());
    System.out.println(
        "tika__english.cp500.txt decoded as "
            + ebcdic.encoding()
            + ": "
            + ebcdic.text().substring(0, Math.min(80, ebcdic.text().length())).strip());

    Extraction dos = extract(russian, "russian.cp866.txt");
    assertEquals("IBM866", dos.encoding());
    System.out.println(
        "tika__russian.cp866.txt decoded as "
            + dos.encoding()
            + ": "
            + dos.text().substring(0, Math.min(80, dos.text().length())).strip());
  }

  private static String repeat(String text, int times) {
    return text.repeat(times);
  }
}
