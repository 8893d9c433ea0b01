package dev.quarry.app.console;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;

/**
 * Small documents written by the tests themselves: a PDF with one line per page, a DOCX, Markdown.
 */
final class TinyDocuments {
  private TinyDocuments() {}

  /** A PDF whose page i (from 1) holds {@code pages.get(i - 1)}. */
  static Path pdf(Path dir, String name, List<String> pages) {
    try (PDDocument doc = new PDDocument()) {
      PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
      for (String text : pages) {
        PDPage page = new PDPage();
        doc.addPage(page);
        try (PDPageContentStream content = new PDPageContentStream(doc, page)) {
          content.beginText();
          content.setFont(font, 12);
          content.newLineAtOffset(72, 700);
          content.showText(text);
          content.endText();
        }
      }
      Path file = dir.resolve(name);
      doc.save(file.toFile());
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A minimal Word document (the three parts a reader needs) with one paragraph per entry. */
  static Path docx(Path dir, String name, List<String> paragraphs) {
    StringBuilder body = new StringBuilder();
    for (String p : paragraphs) {
      body.append("<w:p><w:r><w:t xml:space=\"preserve\">")
          .append(escapeXml(p))
          .append("</w:t></w:r></w:p>");
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      put(
          zip,
          "[Content_Types].xml",
          """
          <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
          <Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
          <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
          <Default Extension="xml" ContentType="application/xml"/>
          <Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
          </Types>""");
      put(
          zip,
          "_rels/.rels",
          """
          <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
          <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
          <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
          </Relationships>""");
      put(
          zip,
          "word/document.xml",
          """
          <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
          <w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>%s</w:body></w:document>"""
              .formatted(body));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return write(dir.resolve(name), bytes.toByteArray());
  }

  static Path text(Path dir, String name, String text) {
    return write(dir.resolve(name), text.getBytes(StandardCharsets.UTF_8));
  }

  static Path bytes(Path dir, String name, byte[] content) {
    return write(dir.resolve(name), content);
  }

  private static void put(ZipOutputStream zip, String name, String xml) throws IOException {
    zip.putNextEntry(new ZipEntry(name));
    zip.write(xml.strip().getBytes(StandardCharsets.UTF_8));
    zip.closeEntry();
  }

  private static Path write(Path file, byte[] content) {
    try {
      return Files.write(file, content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String escapeXml(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
