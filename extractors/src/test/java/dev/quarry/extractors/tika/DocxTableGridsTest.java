package dev.quarry.extractors.tika;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DocxTableGridsTest {
  @TempDir Path dir;

  private Path docx(String body) throws Exception {
    Path file = dir.resolve("t.docx");
    try (OutputStream out = Files.newOutputStream(file);
        ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry("word/document.xml"));
      zip.write(
          ("<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>"
                  + body
                  + "</w:body></w:document>")
              .getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
    }
    return file;
  }

  private static String tc(String props, String text) {
    return "<w:tc>"
        + (props.isEmpty() ? "" : "<w:tcPr>" + props + "</w:tcPr>")
        + "<w:p><w:r><w:t>"
        + text
        + "</w:t></w:r></w:p></w:tc>";
  }

  @Test
  void mergedCells_repeatTheirValue_inEveryColumnAndRowTheyCover() throws Exception {
    String table =
        "<w:tbl>"
            + "<w:tr>"
            + tc("", "A")
            + tc("", "B")
            + tc("", "C")
            + "</w:tr>"
            + "<w:tr>"
            + tc("", "a1")
            + tc("<w:gridSpan w:val=\"2\"/>", "wide")
            + "</w:tr>"
            + "<w:tr>"
            + tc("<w:vMerge w:val=\"restart\"/>", "tall")
            + tc("", "b2")
            + tc("", "c2")
            + "</w:tr>"
            + "<w:tr>"
            + tc("<w:vMerge/>", "")
            + tc("", "b3")
            + tc("", "c3")
            + "</w:tr>"
            + "<w:tr><w:trPr><w:gridBefore w:val=\"2\"/></w:trPr>"
            + tc("", "late")
            + "</w:tr>"
            + "</w:tbl>";
    List<DocxTableGrids.Grid> grids = DocxTableGrids.read(docx(table), 10_000);
    assertEquals(
        List.of(
            List.of("A", "B", "C"),
            List.of("a1", "wide", "wide"),
            List.of("tall", "b2", "c2"),
            List.of("tall", "b3", "c3"),
            List.of("", "", "late")),
        grids.get(0).rows());
    assertEquals(
        "ABCa1widetallb2c2b3c3late",
        grids.get(0).signature(),
        "each cell's text once, as Tika reports it");
  }

  @Test
  void aNestedTable_isTextOfItsCell() throws Exception {
    String table =
        "<w:tbl><w:tr>"
            + tc("", "outer")
            + "<w:tc><w:p><w:r><w:t>holds</w:t></w:r></w:p><w:tbl><w:tr>"
            + tc("", "inner")
            + "</w:tr></w:tbl></w:tc>"
            + "</w:tr></w:tbl>";
    List<DocxTableGrids.Grid> grids = DocxTableGrids.read(docx(table), 10_000);
    assertEquals(1, grids.size());
    assertEquals(List.of(List.of("outer", "holds inner")), grids.get(0).rows());
  }

  @Test
  void notAZip_givesNoGrids() throws Exception {
    Path file = dir.resolve("x.docx");
    Files.writeString(file, "not a zip");
    assertEquals(List.of(), DocxTableGrids.read(file, 10_000));
  }
}
