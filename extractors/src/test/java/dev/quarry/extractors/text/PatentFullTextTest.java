package dev.quarry.extractors.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import dev.quarry.extractors.ExtractionLimits;
import dev.quarry.extractors.Extractors;
import dev.quarry.extractors.SharedDocs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A patent in the USPTO's full-text format (APS) read as one: an excerpt of U.S. patent 5,700,647
 * (public domain, as every U.S. patent's text), and the whole of it from the shared documents.
 */
class PatentFullTextTest {
  private final PlainTextExtractor extractor = new PlainTextExtractor();

  @TempDir Path dir;

  private static String excerpt() throws IOException {
    try (InputStream in =
        PatentFullTextTest.class.getResourceAsStream("pftaps057006474-excerpt.txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private Extraction extract(String text) throws Exception {
    Path file = Files.writeString(dir.resolve("patent.txt"), text);
    return extractor.extract(file, "text/plain", false, ExtractionLimits.defaults());
  }

  private static List<String> headings(String markdown) {
    return Arrays.stream(markdown.split("\n")).filter(l -> l.startsWith("#")).toList();
  }

  @Test
  void excerpt_isHeadedByItsTitleSectionsAndClaims() throws Exception {
    Extraction extraction = extract(excerpt());

    assertTrue(extraction.markdownHeadings());
    assertEquals("Carbocation containing cyanine-type dye", extraction.title());
    assertEquals(
        List.of(
            "# Carbocation containing cyanine-type dye",
            "## Abstract",
            "## Related applications",
            "## BACKGROUND OF THE INVENTION",
            "## SUMMARY OF THE INVENTION",
            "## BRIEF DESCRIPTION OF THE DRAWINGS",
            "## DETAILED DESCRIPTION OF THE PREFERRED EMBODIMENTS",
            "## EXAMPLE 1",
            "## EXAMPLE 2",
            "## Claims"),
        headings(extraction.text()));
  }

  @Test
  void bibliography_namesNumbersDatesPeopleAndCitations() throws Exception {
    String text = extract(excerpt()).text();

    assertTrue(
        text.contains(
            "\nPatent 5700647, issued 1997-12-23; application 5686806, filed 1995-12-07\n"),
        text);
    assertTrue(
        text.contains("\nInventors: Takeshi Miyazaki (Ebina, JPX); Kazumi Tanaka (Yokohama, JPX);"),
        text);
    assertTrue(text.contains("\nAssignee: Canon Kabushiki Kaisha (Tokyo, JPX)\n"), text);
    assertTrue(text.contains("\nPriority: JPX 3-150428 (1991-06-21); JPX 3-281645"), text);
    assertTrue(
        text.contains("\nRelated U.S. application: 900302, filed 1992-06-18, patent 5512446\n"),
        text);
    assertTrue(text.contains("\nU.S. classification: 435/6 (also 436/139, 430/93,"), text);
    assertTrue(text.contains("\nPrimary examiner: Scott W. Houtteman\n"), text);
    assertTrue(text.contains("\nU.S. patents cited: 3770383 (Price, 1973-11); 3789116"), text);
    assertTrue(text.contains("\nForeign patents cited: 2191674 (JPX, 1990-07)\n"), text);
    // A reference's continuation lines are joined; references are set apart by semicolons.
    assertTrue(
        text.contains(
            "Determination of Protein in Human Serum by High-Performance Liquid Chromatography"
                + " with Semiconductor Laser Fluorometric Detection,\" Analytical Chemistry, vol. 58,"
                + " No. 13, Nov. 1986, pp. 2649-2653; Derwent Abstract"),
        text);
  }

  @Test
  void paragraphs_joinTheirLines_tablesKeepThem_claimsStayWhole() throws Exception {
    String text = extract(excerpt()).text();

    assertTrue(
        text.contains(
            "\n\nThe present invention relates to a labeled complex for microassay using"
                + " near-infrared radiation. More specifically,"),
        text);
    assertTrue(
        text.contains(
            "```\nTABLE 1\n  - No. G  R X.sub.1 R.sub.1 R.sub.2 R.sub.3 R.sub.4 R.sub.5 R.sub.6\n"
                + " R.sub.7\n"),
        text);
    int claims = text.indexOf("## Claims");
    assertTrue(text.indexOf("\n\nWhat is claimed is:\n\n", claims) > claims, text);
    assertTrue(
        text.contains(
            "\n\n2. The labeled complex according to claim 1, wherein the substance from a living"
                + " organism is an antibody or an antigen."),
        text);
    assertFalse(text.contains("\n\n1.\n"), "a claim's number is not a paragraph of its own");
  }

  @Test
  void claimNumber_absentFromItsText_leadsIt() throws Exception {
    String text =
        extract("PATN\nTTL  A lamp\nCLMS\nNUM  1.\nPAR  A lamp comprising a wick.\n").text();
    assertTrue(text.endsWith("## Claims\n\n1. A lamp comprising a wick."), text);
  }

  @Test
  void weeklyFile_ofTwoPatents_rendersEach() throws Exception {
    String file =
        "HHHHHT  APS1 issue of 19971223\n"
            + "PATN\nWKU  057006474\nTTL  Carbocation containing cyanine-type dye\n"
            + "ABST\nPAL  To provide a reagent with excellent stability under storage.\n"
            + "PATN\nWKU  057006482\nTTL  A second patent\n"
            + "ABST\nPAL  Its abstract.\n";
    Extraction extraction = extract(file);
    assertEquals(
        List.of(
            "# Carbocation containing cyanine-type dye",
            "## Abstract",
            "# A second patent",
            "## Abstract"),
        headings(extraction.text()));
    assertEquals("Carbocation containing cyanine-type dye", extraction.title());
    assertTrue(extraction.text().contains("\n\nPatent 5700648\n\n"), extraction.text());
  }

  @Test
  void textThatWouldBeMarkdown_isEscaped() throws Exception {
    String text =
        extract("PATN\nTTL  Counting\nDETD\nPAR  # 5 is the count.\nPAR  ``` fences, too\n").text();
    assertTrue(text.contains("\n\n\\# 5 is the count.\n\n\\``` fences, too"), text);
    assertEquals(
        List.of("# Counting", "## Detailed description"), headings(text), "one heading each");
  }

  @Test
  void plainText_thatIsNotTheFormatThroughout_staysPlain() throws Exception {
    for (String text :
        List.of(
            "PATN\nTTL  A lamp\nThis line is prose, not a field.\n",
            "TTL  A lamp without its patent group\nABST\nPAL  Text.\n",
            "PATN is how the format starts.\n",
            "  PATN\nTTL  Indented\n",
            "PATN\t\nTTL  A tab after the group's tag\n",
            "PATN\n  continues a group's opening line\nTTL  A lamp\n")) {
      Extraction extraction = extract(text);
      assertEquals(text, extraction.text());
      assertFalse(extraction.markdownHeadings(), text);
      assertNull(extraction.title(), text);
    }
  }

  @Test
  void mangledPatents_areReadOrLeftPlain_neverFail() throws Exception {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    System.out.println("mangledPatents seed: -Dtests.seed=" + seed);
    Random random = new Random(seed);
    List<String> lines = List.of(excerpt().split("\n", -1));
    List<String> pieces =
        List.of(
            "PATN",
            "PATN ",
            "PATN\t",
            "  ",
            "\t",
            "    x",
            "PAC",
            "PAC  ",
            "TBL",
            "NUM  1.",
            "INVT",
            "NAM  ;",
            "APD  00000000",
            "OCL  1",
            "WKU  000000000",
            "```",
            "\r",
            "");
    for (int round = 0; round < 400; round++) {
      List<String> mangled = new ArrayList<>(lines.subList(0, 1 + random.nextInt(lines.size())));
      for (int edit = random.nextInt(6); edit > 0; edit--) {
        // A quarter of the edits land on the first lines, where the format is recognised.
        int at =
            random.nextInt(
                random.nextInt(4) == 0 ? Math.min(3, mangled.size() + 1) : mangled.size() + 1);
        String piece = pieces.get(random.nextInt(pieces.size()));
        if (random.nextBoolean() || at == mangled.size()) {
          mangled.add(at, piece);
        } else {
          String line = mangled.get(at);
          int cut = random.nextInt(line.length() + 1);
          mangled.set(at, line.substring(0, cut) + piece + line.substring(cut));
        }
      }
      String text = String.join("\n", mangled);
      try {
        PatentFullText.Patents patents = PatentFullText.read(text, 1_000_000);
        assertTrue(patents == null || patents.markdown().startsWith("# "), text);
      } catch (RuntimeException | AssertionError e) {
        throw new AssertionError("seed " + seed + ", round " + round + ":\n" + text, e);
      }
    }
  }

  @Test
  void renderingPastTheCharacterLimit_isDocumentTooLarge() throws Exception {
    // Each bare PATN renders as a heading longer than itself.
    String patents = "PATN\n".repeat(2_000);
    Path file = Files.writeString(dir.resolve("patents.txt"), patents);
    ExtractionException e =
        assertThrows(
            ExtractionException.class,
            () ->
                extractor.extract(
                    file,
                    "text/plain",
                    false,
                    ExtractionLimits.defaults().withMaxExtractedChars(15_000)));
    assertEquals(Failure.DOCUMENT_TOO_LARGE, e.failure());
  }

  @Test
  void sharedPatent_readsEveryExampleAndClaim() throws Exception {
    Path patent = SharedDocs.docs().resolve("good/docling__pftaps057006474.txt");
    try (Extractors extractors = Extractors.builder().build()) {
      Extraction extraction = extractors.extract(patent, "text/plain");
      List<String> headings = headings(extraction.text());
      assertEquals(20, headings.size(), headings::toString);
      assertTrue(headings.contains("## COMPARATIVE EXAMPLE 1"), headings::toString);
      assertEquals("## Claims", headings.get(headings.size() - 1));
      assertTrue(
          extraction.text().contains("\n\n20. The method according to claim 12, wherein A is"),
          "the last claim");
    }
  }
}
