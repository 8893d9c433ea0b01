package dev.quarry.extractors.pdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionLimits;
import dev.quarry.extractors.SharedDocs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * PDF extraction's output (text, page starts, title, outline, warnings, or the typed failure) stays
 * byte for byte what it was when {@code pdf-output-fingerprints.tsv} was written, for shared good
 * PDFs. Speed work on the extractor must not change what it extracts; a change meant to alter the
 * output rewrites the file (each line is a file name and the SHA-256 of {@link #canonical}).
 *
 * <p>The file holds every good PDF; a few varied ones are checked by default, all of them with
 * {@code -Dquarry.pdfFingerprints=all} (about half a minute more). Skipped, saying so, without the
 * shared documents.
 */
class PdfOutputFingerprintTest {

  /**
   * Forms and many fonts, ligatures, Type 3 fonts, right to left, marked content, columns,
   * outlines, no text.
   */
  static final Set<String> CHECKED_BY_DEFAULT =
      Set.of(
          "pdfminer__f1040nr.pdf",
          "docling__2305.03393v1-pg9.pdf",
          "pdfjs__issue918.pdf",
          "pdfbox__BidiSample.pdf",
          "pypdf__pdflatex-forms.pdf",
          "pdfjs__chrome-text-selection-markedContent.pdf",
          "pdfminer__naacl06-shinyama.pdf",
          "docling__llncsdoc.pdf",
          "pdfjs__file_pdfjs_test.pdf",
          "pdfjs__standard_fonts.pdf",
          "pdfbox__PDFBOX-2984-rotations.pdf",
          "ocrmypdf__cardinal.pdf");

  @Test
  void extractedOutputIsUnchanged() throws IOException {
    Path good = SharedDocs.docs().resolve("good");
    boolean all = "all".equals(System.getProperty("quarry.pdfFingerprints"));
    Map<String, String> expected = expectedFingerprints();
    List<String> changed = new ArrayList<>();
    int checked = 0;
    for (Map.Entry<String, String> entry : expected.entrySet()) {
      if (!all && !CHECKED_BY_DEFAULT.contains(entry.getKey())) {
        continue;
      }
      checked++;
      String actual = fingerprint(good.resolve(entry.getKey()));
      if (!actual.equals(entry.getValue())) {
        changed.add(entry.getKey() + "\t" + actual);
      }
    }
    assertEquals(
        all ? expected.size() : CHECKED_BY_DEFAULT.size(),
        checked,
        "files named but missing from the list");
    assertTrue(
        changed.isEmpty(),
        "extraction output changed for (file and new fingerprint, for a change meant to alter it)\n"
            + String.join("\n", changed));
  }

  @Test
  void fingerprintTellsOutputsApart() {
    Extraction one =
        new Extraction(
            "a\nb",
            new int[] {0, 2},
            null,
            List.of(),
            "application/pdf",
            Extraction.PDFBOX,
            2,
            3,
            List.of(),
            false);
    Extraction otherStarts =
        new Extraction(
            "a\nb",
            new int[] {0, 1},
            null,
            List.of(),
            "application/pdf",
            Extraction.PDFBOX,
            2,
            3,
            List.of(),
            false);
    assertTrue(
        !canonical(one).equals(canonical(otherStarts)), "page starts are part of the output");
  }

  /** The SHA-256 of what extracting {@code pdf} with default limits and no OCR gives. */
  static String fingerprint(Path pdf) {
    String output;
    try {
      output = canonical(new PdfExtractor().extract(pdf, ExtractionLimits.defaults()));
    } catch (ExtractionException e) {
      output = "failure " + e.failure() + "\n" + e.getMessage();
    }
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(output.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Every part of an extraction a caller sees, one per line, the text last but for its tables. */
  static String canonical(Extraction extraction) {
    return "pages "
        + extraction.pages()
        + "\nstarts "
        + Arrays.toString(extraction.pageStarts())
        + "\ntitle "
        + extraction.title()
        + "\noutline "
        + extraction.outline()
        + "\nwarnings "
        + extraction.warnings()
        + "\nextractor "
        + extraction.extractor()
        + "\ncharacters "
        + extraction.characters()
        + "\ntext\n"
        + extraction.text()
        // Only when there are some, so a PDF without tables keeps the fingerprint it had.
        + (extraction.tables().isEmpty() ? "" : "\ntables " + extraction.tables());
  }

  private static Map<String, String> expectedFingerprints() throws IOException {
    Map<String, String> fingerprints = new LinkedHashMap<>();
    try (InputStream in =
        PdfOutputFingerprintTest.class.getResourceAsStream("pdf-output-fingerprints.tsv")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank() && !line.startsWith("#")) {
          String[] cells = line.split("\t");
          fingerprints.put(cells[0], cells[1]);
        }
      }
    }
    return fingerprints;
  }
}
