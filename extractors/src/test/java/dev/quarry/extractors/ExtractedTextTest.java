package dev.quarry.extractors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What comes out of chosen real documents: words, pages, reading order, scripts, structure. */
class ExtractedTextTest {

  private static final Extractors extractors = TestExtractors.oneWorker();

  private static Extraction extract(String goodFile) throws ExtractionException {
    return extractors.extract(SharedDocs.good(goodFile), SharedDocs.declaredType(goodFile));
  }

  private static String collapseSpaces(String text) {
    return text.replaceAll("\\s+", " ");
  }

  @Test
  void pdf_wordKnownOnPageThree_landsInPageThree() throws ExtractionException {
    Extraction extraction = extract("docling__bookmark_sample.pdf");
    assertEquals(3, extraction.pages());
    int offset = extraction.text().indexOf("4. Termination");
    assertTrue(offset >= 0, "the heading is extracted");
    assertEquals(3, extraction.pageOf(offset));
    assertTrue(extraction.pageText(3).contains("Sample Agreement — page 3"));
    assertFalse(extraction.pageText(2).contains("Termination"));
  }

  @Test
  void pdf_twoColumnPaper_keepsSentencesOfOneColumnTogether() throws ExtractionException {
    String text = collapseSpaces(extract("pdfjs__tracemonkey.pdf").text());
    assertTrue(
        text.contains(
            "Dynamic languages such as JavaScript are more difficult to compile than statically"
                + " typed ones. Since no concrete type information is available, traditional compilers need to emit"
                + " generic code"),
        "left column read in order, hyphenated word joined");
  }

  @Test
  void pdf_ligatures_areNormalised() throws ExtractionException {
    String text = extract("pdfjs__copy_paste_ligatures.pdf").text();
    assertTrue(text.contains("abcdeffffiflffifflststghijklmno"), text);
    assertTrue(
        text.chars().noneMatch(c -> c >= 0xFB00 && c <= 0xFB06), "no ligature code points remain");
  }

  @Test
  void pdf_japanese_textIsPresent() throws ExtractionException {
    assertTrue(extract("pdfjs__issue16063.pdf").text().contains("電線接続端子部"));
  }

  @Test
  void pdf_arabic_textIsPresentInReadingOrder() throws ExtractionException {
    String text = extract("docling__right_to_left_01.pdf").text();
    assertTrue(text.contains("تحسين الإنتاجية وحل المشكلات"), text.substring(0, 200));
  }

  @Test
  void pdf_arabicLinesWithLatinWords_readFromTheirRightEdge() throws ExtractionException {
    String text = extract("docling__right_to_left_01.pdf").text();
    // Docling's reading of the same lines; the Latin words stand left of the Arabic that
    // begins each line, and were read first.
    assertTrue(
        text.startsWith("# تحسين الإنتاجية وحل المشكلات من خلال البرمجة بلغة R و Python\n"),
        text.substring(0, 200));
    assertTrue(
        text.contains("تعتبر البرمجة بلغة R و Python من الأدوات القوية"), text.substring(0, 400));
  }

  @Test
  void pdf_persianTable_cellsReadRightToLeft() throws ExtractionException {
    Extraction extraction = extract("docling__right_to_left_03.pdf");
    assertTrue(extraction.text().contains("اميدنامه پذيرش در بازار اصلی - کالای داخلی"));
    List<List<String>> rows = extraction.tables().get(0).rows();
    // The first column is the rightmost: each row names a standard's property, then its value.
    assertEquals(List.of("شماره استاندارد ملی", "20300"), rows.get(1));
    assertTrue(
        rows.stream().anyMatch(r -> r.contains("سازمان ملی استاندارد ايران")), rows.toString());
  }

  @Test
  void pdf_lineThatBeginsLeftToRight_keepsItsOrder() throws ExtractionException {
    // PDFBox's own bidirectional sample, and its expected text.
    String text = extract("pdfbox__BidiSample.pdf").text();
    assertTrue(text.contains("test الختبار\n"), text);
    assertTrue(text.contains("«self test» «إختبار ذاتي»"), text);
    assertTrue(text.contains("A line with an Arabic العربية word embedded."), text);
  }

  @Test
  void pdf_titleAndOutline_areRead() throws ExtractionException {
    Extraction extraction = extract("docling__bookmark_sample.pdf");
    assertNotNull(extraction.title());
    List<OutlineEntry> outline = extraction.outline();
    assertEquals(new OutlineEntry("PART I - DEFINITIONS", 1, 1), outline.get(0));
    assertTrue(outline.stream().anyMatch(e -> e.level() == 2), "nested entries keep their level");
    assertTrue(
        outline.stream().anyMatch(e -> Integer.valueOf(3).equals(e.page())), outline.toString());
  }

  @Test
  void pdf_pagesWithoutText_areListedInAWarning() throws ExtractionException {
    Extraction extraction =
        extractors.extract(SharedDocs.bad("pdfjs__Pages-tree-refs.pdf"), "application/pdf");
    ExtractionWarning warning =
        extraction.warnings().stream()
            .filter(w -> w.code().equals(ExtractionWarning.NO_TEXT_LAYER))
            .findFirst()
            .orElseThrow();
    assertFalse(warning.pages().isEmpty());
    for (int page : warning.pages()) {
      assertTrue(extraction.pageText(page).isBlank(), "page " + page + " has no text");
    }
  }

  @Test
  void pdf_wholeScan_withOcrOff_isNoTextExtracted_sayingOcrIsOff() {
    // Resolved before assertThrows: a missing shared folder must skip the test, not count as a
    // wrong exception.
    java.nio.file.Path scan = SharedDocs.good("ocrmypdf__skew.pdf");
    ExtractionException failure =
        org.junit.jupiter.api.Assertions.assertThrows(
            ExtractionException.class, () -> extractors.extract(scan, "application/pdf"));
    assertEquals(ExtractionException.Failure.NO_TEXT_EXTRACTED, failure.failure());
    assertTrue(failure.getMessage().contains("OCR is off"), failure.getMessage());
  }

  @Test
  void docx_headings_areMarkdownAtxLines() throws ExtractionException {
    Extraction extraction = extract("docling__word_sample.docx");
    assertTrue(extraction.markdownHeadings());
    assertTrue(extraction.text().contains("\n# Swimming in the lake\n"), extraction.text());
    assertTrue(extraction.text().contains("\n## Let’s eat\n"), extraction.text());
    assertEquals(null, extraction.pages());
  }

  @Test
  void html_headingsAndTitle_areRead() throws ExtractionException {
    Extraction extraction = extract("tika__testHTML.html");
    assertEquals("Title : Test Indexation Html", extraction.title());
    assertTrue(extraction.text().contains("# Test Indexation Html\n"), extraction.text());
    assertFalse(extraction.text().contains("<"), "no markup");
  }

  @Test
  void pptx_eachSlideIsAPage() throws ExtractionException {
    Extraction extraction = extract("docling__powerpoint_sample.pptx");
    assertEquals(3, extraction.pages());
    assertEquals(2, extraction.pageOf(extraction.text().indexOf("Second slide title")));
    assertEquals(3, extraction.pageOf(extraction.text().indexOf("Final notes on the third slide")));
  }

  @Test
  void xlsx_eachSheetIsAPage() throws ExtractionException {
    Extraction extraction = extract("tika__testEXCEL.xlsx");
    assertEquals(3, extraction.pages());
    assertEquals(1, extraction.pageOf(extraction.text().indexOf("Numbers and their Squares")));
    assertTrue(extraction.pageText(2).contains("Feuil2"));
  }

  @Test
  void markdown_isReadAsIs_withMarkdownHeadings() throws ExtractionException {
    Extraction extraction = extract("ocrmypdf__repo_README_ZH.md");
    assertEquals("text", extraction.extractor());
    assertEquals("text/markdown", extraction.mediaType());
    assertTrue(extraction.markdownHeadings());
    assertTrue(extraction.text().startsWith("<!-- SPDX"), "the file's own text, untouched");
  }

  @Test
  void text_inEbcdic_isDecoded() throws ExtractionException {
    Extraction extraction = extract("tika__english.cp500.txt");
    assertTrue(
        extraction.text().chars().filter(Character::isLetter).count() > 100, extraction.text());
  }

  @Test
  void declaredTypeThatDisagrees_isAWarning_andTheBytesWin() throws ExtractionException {
    Extraction extraction =
        extractors.extract(SharedDocs.bad("gen__docx-named.pdf"), "application/pdf");
    assertEquals(
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        extraction.mediaType());
    assertTrue(
        extraction.warnings().stream()
            .anyMatch(w -> w.code().equals(ExtractionWarning.DECLARED_MEDIA_TYPE_MISMATCH)));
  }

  @Test
  void declaredTypeThatAgrees_isNoWarning() throws ExtractionException {
    assertEquals(List.of(), extract("pdfjs__tracemonkey.pdf").warnings());
  }
}
