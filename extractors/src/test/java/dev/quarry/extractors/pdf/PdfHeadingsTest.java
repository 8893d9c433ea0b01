package dev.quarry.extractors.pdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.OutlineEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PdfHeadingsTest {
  static final String PAGE1 = "Annual report\nIntroduction\nWe grew.\n";
  static final String PAGE2 = "2 Results and\nfindings\nSales rose.\n# 5 is a tag\n";
  static final String TEXT = PAGE1 + PAGE2;
  static final int[] STARTS = {0, PAGE1.length()};

  @Test
  void outline_marksTheLineHoldingEachBookmark_atItsDepth_andFindsTitlesOnTwoLines() {
    PdfHeadings.Result r =
        PdfHeadings.apply(
            TEXT,
            STARTS,
            List.of(
                new OutlineEntry("Introduction", 1, 1),
                new OutlineEntry("Results and findings", 2, 2),
                new OutlineEntry("Not on the page", 1, 2)),
            List.of(),
            Map.of());
    assertEquals(2, r.headings(), "a bookmark whose title is on no line is left out");
    assertEquals(
        "Annual report\n\n# Introduction\n\nWe grew.\n"
            + "## 2 Results and findings\n\nSales rose.\n\\# 5 is a tag\n",
        r.text());
    assertArrayEquals(
        new int[] {0, r.text().indexOf("## 2")}, r.pageStarts(), "page starts move with the text");
  }

  @Test
  void withoutOutline_largerAndBoldAloneLines_areHeadings_largestFirst() {
    List<List<LineStyle>> styles =
        List.of(
            List.of(
                new LineStyle("Annual report", 20, true),
                new LineStyle("Introduction", 10, true),
                new LineStyle("We grew.", 10, false)),
            List.of(
                new LineStyle("2 Results and", 14, false),
                new LineStyle("findings", 14, false),
                new LineStyle("Sales rose.", 10, false),
                new LineStyle("# 5 is a tag", 10, false)));
    PdfHeadings.Result r = PdfHeadings.apply(TEXT, STARTS, List.of(), styles, Map.of());
    assertEquals(
        "# Annual report\n\n### Introduction\n\nWe grew.\n"
            + "## 2 Results and findings\n\nSales rose.\n\\# 5 is a tag\n",
        r.text());
    assertEquals(3, r.headings());
  }

  @Test
  void noHeadings_leaveTheTextAsItWas() {
    PdfHeadings.Result r =
        PdfHeadings.apply(TEXT, STARTS, List.of(), List.of(List.of(), List.of()), Map.of());
    assertEquals(0, r.headings());
  }

  /**
   * Four or more heading-like lines of one size, each over a line or two, label a figure or a form
   * (a syntax diagram's keywords over their explanations): not headings. Numbered ones head short
   * sections (minutes of a meeting) and stay headings, and so does a heading over a paragraph.
   */
  @Test
  void withoutOutline_aChainOfLabelsOverOneLineEach_isNotHeadings_butNumberedSectionsAre() {
    List<String> figure =
        List.of(
            "Row permissions",
            "A row permission is a database object that says which rows a user may read.",
            "It is written once and checked by every query of the table it is defined on.",
            "The statement that creates one reads as follows, one clause a line.",
            "CREATE PERMISSION name",
            "Names the row permission.",
            "ON table",
            "Identifies the table.",
            "FOR ROWS",
            "Says that a row permission is created.",
            "Only rows matching the condition are seen.",
            "WHERE condition",
            "A condition that can be true or false.",
            "ENABLE",
            "Enables the permission at once.");
    List<String> minutes =
        List.of(
            "1. Opening",
            "The meeting opened at nine.",
            "2. Agenda",
            "The agenda was adopted.",
            "3. Questions",
            "None were asked.",
            "4. Closing",
            "The meeting closed at ten.");
    StringBuilder text = new StringBuilder();
    List<List<LineStyle>> styles = new ArrayList<>();
    int[] starts = new int[2];
    for (int p = 0; p < 2; p++) {
      starts[p] = text.length();
      List<LineStyle> page = new ArrayList<>();
      for (String line : p == 0 ? figure : minutes) {
        boolean label =
            p == 0
                ? line.equals("Row permissions")
                    || line.equals(line.toUpperCase(Locale.ROOT))
                    || line.matches("[A-Z ]+ [a-z]+")
                : Character.isDigit(line.charAt(0));
        page.add(new LineStyle(line, label ? 12 : 10, label));
        text.append(line).append('\n');
      }
      styles.add(page);
    }
    PdfHeadings.Result r = PdfHeadings.apply(text.toString(), starts, List.of(), styles, Map.of());
    assertTrue(r.text().startsWith("# Row permissions\n"), r.text());
    assertTrue(r.text().contains("\nCREATE PERMISSION name\n"), r.text());
    assertTrue(r.text().contains("\nENABLE\n"), r.text());
    for (String numbered : List.of("1. Opening", "2. Agenda", "3. Questions", "4. Closing")) {
      assertTrue(r.text().contains("# " + numbered + "\n"), numbered + " in " + r.text());
    }
    assertEquals(5, r.headings(), r.text());
  }

  @Test
  void withoutOutline_aHeadingLikeLineAtTheTopOfThreePages_isARunningHeader() {
    StringBuilder text = new StringBuilder();
    int[] starts = new int[3];
    List<List<LineStyle>> styles = new ArrayList<>();
    for (int p = 0; p < 3; p++) {
      starts[p] = text.length();
      String header = "Field guide " + (p + 1);
      String title = "Chapter " + "ABC".charAt(p);
      text.append(header).append('\n').append(title).append("\nBirds sing at dawn.\n");
      styles.add(
          List.of(
              new LineStyle(header, 10, true),
              new LineStyle(title, 14, false),
              new LineStyle("Birds sing at dawn.", 10, false)));
    }
    PdfHeadings.Result r = PdfHeadings.apply(text.toString(), starts, List.of(), styles, Map.of());
    assertEquals(3, r.headings(), r.text());
    assertTrue(r.text().startsWith("Field guide 1\n\n# Chapter A\n"), r.text());
  }
}
