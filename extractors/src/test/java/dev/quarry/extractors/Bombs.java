package dev.quarry.extractors;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentNameDictionary;
import org.apache.pdfbox.pdmodel.PDEmbeddedFilesNameTreeNode;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.filespecification.PDComplexFileSpecification;
import org.apache.pdfbox.pdmodel.common.filespecification.PDEmbeddedFile;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;

/**
 * Decompression bombs made on the spot, so that no large or hostile file is committed: small
 * containers whose parts inflate to hundreds of MB or GBs of zeros.
 */
final class Bombs {

  private static final int CHUNK = 1 << 20;

  private Bombs() {}

  /**
   * An OpenDocument text whose {@code content.xml} holds {@code zeros} zero digits in one
   * paragraph. With {@code lyingSizes} its headers declare the part no larger than its compressed
   * bytes, as a bomb made to pass a check of declared sizes does.
   */
  static Path odt(Path file, long zeros, boolean lyingSizes) throws IOException {
    String head =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><office:document-content"
            + " xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\""
            + " xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" office:version=\"1.2\">"
            + "<office:body><office:text><text:p>";
    String tail = "</text:p></office:text></office:body></office:document-content>";
    String manifest =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><manifest:manifest"
            + " xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\" manifest:version=\"1.2\">"
            + "<manifest:file-entry manifest:full-path=\"/\" manifest:media-type=\"application/vnd.oasis.opendocument.text\"/>"
            + "<manifest:file-entry manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/>"
            + "</manifest:manifest>";
    ZipWriter zip = new ZipWriter();
    zip.stored("mimetype", ascii("application/vnd.oasis.opendocument.text"));
    zip.stored("META-INF/manifest.xml", manifest.getBytes(StandardCharsets.UTF_8));
    zip.deflated(
        "content.xml",
        Deflated.of(
            head.getBytes(StandardCharsets.UTF_8),
            (byte) '0',
            zeros,
            tail.getBytes(StandardCharsets.UTF_8)),
        lyingSizes);
    return Files.write(file, zip.finish());
  }

  /**
   * An EPUB whose one chapter holds {@code zeros} zero digits in a paragraph, its headers declaring
   * the chapter no larger than its compressed bytes.
   */
  static Path epub(Path file, long zeros) throws IOException {
    String container =
        "<?xml version=\"1.0\"?><container version=\"1.0\""
            + " xmlns=\"urn:oasis:names:tc:opendocument:xmlns:container\"><rootfiles>"
            + "<rootfile full-path=\"OEBPS/content.opf\" media-type=\"application/oebps-package+xml\"/>"
            + "</rootfiles></container>";
    String opf =
        "<?xml version=\"1.0\"?><package xmlns=\"http://www.idpf.org/2007/opf\" version=\"3.0\""
            + " unique-identifier=\"id\"><metadata xmlns:dc=\"http://purl.org/dc/elements/1.1/\">"
            + "<dc:identifier id=\"id\">bomb</dc:identifier><dc:title>Bomb</dc:title></metadata>"
            + "<manifest><item id=\"c1\" href=\"chapter.xhtml\" media-type=\"application/xhtml+xml\"/></manifest>"
            + "<spine><itemref idref=\"c1\"/></spine></package>";
    String head = "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>";
    String tail = "</p></body></html>";
    ZipWriter zip = new ZipWriter();
    zip.stored("mimetype", ascii("application/epub+zip"));
    zip.stored("META-INF/container.xml", container.getBytes(StandardCharsets.UTF_8));
    zip.stored("OEBPS/content.opf", opf.getBytes(StandardCharsets.UTF_8));
    zip.deflated(
        "OEBPS/chapter.xhtml",
        Deflated.of(
            head.getBytes(StandardCharsets.UTF_8),
            (byte) '0',
            zeros,
            tail.getBytes(StandardCharsets.UTF_8)),
        true);
    return Files.write(file, zip.finish());
  }

  /**
   * A one-page PDF with the text "Hello bomb" whose page has a second content stream, a FlateDecode
   * stream of {@code zeros} zero bytes (white space to a content stream parser).
   */
  static Path pdf(Path file, long zeros) throws IOException {
    Deflated raw = Deflated.of(new byte[0], (byte) 0, zeros, new byte[0]);
    ByteArrayOutputStream deflated = new ByteArrayOutputStream();
    deflated.write(0x78);
    deflated.write(0xDA);
    deflated.write(raw.data);
    deflated.write(ByteBuffer.allocate(4).putInt((int) raw.adler32).array());
    byte[] text = "BT /F1 12 Tf 72 720 Td (Hello bomb) Tj ET".getBytes(StandardCharsets.US_ASCII);
    List<byte[]> objects = new ArrayList<>();
    objects.add(ascii("<< /Type /Catalog /Pages 2 0 R >>"));
    objects.add(ascii("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"));
    objects.add(
        ascii(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents [4 0 R 5 0 R]"
                + " /Resources << /Font << /F1 6 0 R >> >> >>"));
    objects.add(stream("<< /Length " + text.length + " >>", text));
    objects.add(
        stream(
            "<< /Length " + deflated.size() + " /Filter /FlateDecode >>", deflated.toByteArray()));
    objects.add(ascii("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"));
    ByteArrayOutputStream pdf = new ByteArrayOutputStream();
    pdf.write(ascii("%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n"));
    long[] offsets = new long[objects.size()];
    for (int i = 0; i < objects.size(); i++) {
      offsets[i] = pdf.size();
      pdf.write(ascii((i + 1) + " 0 obj\n"));
      pdf.write(objects.get(i));
      pdf.write(ascii("\nendobj\n"));
    }
    long xref = pdf.size();
    StringBuilder table =
        new StringBuilder("xref\n0 " + (objects.size() + 1) + "\n0000000000 65535 f \n");
    for (long offset : offsets) {
      table.append(String.format("%010d 00000 n \n", offset));
    }
    table
        .append("trailer\n<< /Size ")
        .append(objects.size() + 1)
        .append(" /Root 1 0 R >>\nstartxref\n")
        .append(xref)
        .append("\n%%EOF\n");
    pdf.write(ascii(table.toString()));
    return Files.write(file, pdf.toByteArray());
  }

  /**
   * A one-page PDF with the text "Hello attachment" and, attached to it (an embedded file in the
   * document's name tree, as a PDF reader's "attach file" stores it), a text file of {@code bytes}
   * bytes of one repeated line, FlateDecode, as PDFBox writes it: a large file compressed a
   * thousand times over, which no text extraction reads.
   */
  static Path pdfWithAttachment(Path file, long bytes) throws IOException {
    try (PDDocument document = new PDDocument()) {
      PDPage page = new PDPage();
      document.addPage(page);
      try (PDPageContentStream content = new PDPageContentStream(document, page)) {
        content.beginText();
        content.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
        content.newLineAtOffset(72, 720);
        content.showText("Hello attachment");
        content.endText();
      }
      PDEmbeddedFile attached =
          new PDEmbeddedFile(document, new LineRepeated(bytes), COSName.FLATE_DECODE);
      attached.setSubtype("text/plain");
      attached.setSize((int) bytes);
      PDComplexFileSpecification spec = new PDComplexFileSpecification();
      spec.setFile("log.txt");
      spec.setFileUnicode("log.txt");
      spec.setEmbeddedFile(attached);
      PDEmbeddedFilesNameTreeNode files = new PDEmbeddedFilesNameTreeNode();
      files.setNames(Map.of("log.txt", spec));
      PDDocumentNameDictionary names = new PDDocumentNameDictionary(document.getDocumentCatalog());
      names.setEmbeddedFiles(files);
      document.getDocumentCatalog().setNames(names);
      document.save(file.toFile());
    }
    return file;
  }

  /** {@code size} bytes of one line of text over and over, made as they are read. */
  private static final class LineRepeated extends InputStream {
    private static final byte[] LINE =
        ascii("2026-12-05 12:00:00 INFO the attached log repeats this line\n");
    private final long size;
    private long read;

    LineRepeated(long size) {
      this.size = size;
    }

    @Override
    public int read() {
      return read < size ? LINE[(int) (read++ % LINE.length)] : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (read >= size) {
        return -1;
      }
      int n = (int) Math.min(len, size - read);
      for (int i = 0; i < n; i++) {
        b[off + i] = LINE[(int) (read++ % LINE.length)];
      }
      return n;
    }
  }

  /** A gzip file of {@code zeros} zero bytes. */
  static Path gzip(Path file, long zeros) throws IOException {
    Deflated raw = Deflated.of(new byte[0], (byte) 0, zeros, new byte[0]);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 2, (byte) 255});
    out.write(raw.data);
    out.write(
        ByteBuffer.allocate(8)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putInt((int) raw.crc32)
            .putInt((int) raw.size)
            .array());
    return Files.write(file, out.toByteArray());
  }

  /**
   * Raw deflate data of {@code head}, {@code count} copies of {@code fill}, then {@code tail}, made
   * in a moment: after a full flush the compressor starts afresh, so every megabyte of fill
   * compresses to the same bytes, which are written again rather than computed again.
   */
  private record Deflated(byte[] data, long size, long crc32, long adler32) {

    static Deflated of(byte[] head, byte fill, long count, byte[] tail) throws IOException {
      byte[] chunk = new byte[CHUNK];
      java.util.Arrays.fill(chunk, fill);
      Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(flushed(deflater, head));
      byte[] first = flushed(deflater, chunk);
      byte[] again = flushed(deflater, chunk);
      if (count >= 2L * CHUNK && !java.util.Arrays.equals(first, again)) {
        throw new IllegalStateException("a flushed chunk did not compress the same twice");
      }
      long chunks = count / CHUNK;
      for (long i = 0; i < chunks; i++) {
        out.write(first);
      }
      out.write(flushed(deflater, java.util.Arrays.copyOf(chunk, (int) (count % CHUNK))));
      deflater.setInput(tail);
      deflater.finish();
      byte[] buffer = new byte[1 << 16];
      while (!deflater.finished()) {
        out.write(buffer, 0, deflater.deflate(buffer));
      }
      deflater.end();
      CRC32 crc = new CRC32();
      Adler32 adler = new Adler32();
      crc.update(head);
      adler.update(head);
      for (long i = 0; i < chunks; i++) {
        crc.update(chunk);
        adler.update(chunk);
      }
      crc.update(chunk, 0, (int) (count % CHUNK));
      adler.update(chunk, 0, (int) (count % CHUNK));
      crc.update(tail);
      adler.update(tail);
      return new Deflated(
          out.toByteArray(), head.length + count + tail.length, crc.getValue(), adler.getValue());
    }

    private static byte[] flushed(Deflater deflater, byte[] input) {
      deflater.setInput(input);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[1 << 16];
      int n;
      do {
        n = deflater.deflate(buffer, 0, buffer.length, Deflater.FULL_FLUSH);
        out.write(buffer, 0, n);
      } while (n == buffer.length || !deflater.needsInput());
      return out.toByteArray();
    }
  }

  /** A zip written by hand, so that its headers may declare what a bomb declares. */
  private static final class ZipWriter {
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private final ByteArrayOutputStream directory = new ByteArrayOutputStream();
    private int entries;

    void stored(String name, byte[] data) {
      CRC32 crc = new CRC32();
      crc.update(data);
      entry(name, 0, data, data.length, crc.getValue(), data.length);
    }

    void deflated(String name, Deflated deflated, boolean lyingSizes) {
      entry(
          name,
          8,
          deflated.data,
          deflated.size,
          deflated.crc32,
          lyingSizes ? deflated.data.length : deflated.size);
    }

    private void entry(
        String name, int method, byte[] data, long size, long crc, long declaredSize) {
      if (declaredSize > 0xFFFFFFFFL) {
        throw new IllegalArgumentException("a part over 4 GiB needs zip64");
      }
      byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
      int offset = body.size();
      ByteBuffer local =
          le(30 + nameBytes.length)
              .putInt(0x04034b50)
              .putShort((short) 20)
              .putShort((short) 0)
              .putShort((short) method)
              .putShort((short) 0)
              .putShort((short) 0x21)
              .putInt((int) crc)
              .putInt(data.length)
              .putInt((int) declaredSize)
              .putShort((short) nameBytes.length)
              .putShort((short) 0)
              .put(nameBytes);
      body.writeBytes(local.array());
      body.writeBytes(data);
      ByteBuffer central =
          le(46 + nameBytes.length)
              .putInt(0x02014b50)
              .putShort((short) 20)
              .putShort((short) 20)
              .putShort((short) 0)
              .putShort((short) method)
              .putShort((short) 0)
              .putShort((short) 0x21)
              .putInt((int) crc)
              .putInt(data.length)
              .putInt((int) declaredSize)
              .putShort((short) nameBytes.length)
              .putShort((short) 0)
              .putShort((short) 0)
              .putShort((short) 0)
              .putShort((short) 0)
              .putInt(0)
              .putInt(offset)
              .put(nameBytes);
      directory.writeBytes(central.array());
      entries++;
    }

    byte[] finish() {
      int directoryOffset = body.size();
      body.writeBytes(directory.toByteArray());
      body.writeBytes(
          le(22)
              .putInt(0x06054b50)
              .putShort((short) 0)
              .putShort((short) 0)
              .putShort((short) entries)
              .putShort((short) entries)
              .putInt(directory.size())
              .putInt(directoryOffset)
              .putShort((short) 0)
              .array());
      return body.toByteArray();
    }

    private static ByteBuffer le(int size) {
      return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }
  }

  private static byte[] stream(String dictionary, byte[] data) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(ascii(dictionary + "\nstream\n"));
    out.write(data);
    out.write(ascii("\nendstream"));
    return out.toByteArray();
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }
}
