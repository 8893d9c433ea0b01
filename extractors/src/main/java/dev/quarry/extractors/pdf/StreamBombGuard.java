package dev.quarry.extractors.pdf;

import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDocument;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSObject;
import org.apache.pdfbox.cos.COSObjectKey;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.filter.Filter;
import org.apache.pdfbox.filter.FilterFactory;

/**
 * Refuses a PDF whose compressed streams are decompression bombs, before PDFBox reads a page.
 * PDFBox decodes a content stream, a font or a character map whole into the heap (a
 * {@code RandomAccessReadWriteBuffer}), so a FlateDecode stream of 800 MB of zeros (0.8 MB in
 * the file) filled a 512 MiB worker, which took 5 to 49 s to die of it. Here each stream is
 * decoded into nothing and counted, stopping at the first one past its bound, as
 * {@code ZipBombGuard} does for zip parts, with the same bounds.
 *
 * <p>Left out are the streams extraction never decodes, so that what they hold cannot refuse an
 * honest document: images (rendering for OCR decodes them, into a raster whose size their width
 * and height fix, and counting a scan's pixels would cost what decoding them costs) and embedded
 * files (attachments: a 40 MB text file attached to a 42 KB PDF is not a bomb to its text).
 * Cross-reference streams are left out too: PDFBox decoded them to open the file, before this
 * check could run. The XMP packet ({@code /Metadata}) is counted: the title reader decodes it.
 * Streams are objects of the file's body, never of object streams, so the cross-reference
 * table names them all.
 *
 * <p>Stateless.
 */
final class StreamBombGuard {

  /** A stream that decodes to more than this many times its encoded length is a bomb... */
  static final long MAX_RATIO = 100;
  /** ...once it is this large (honest content streams compress 3 to 10 times). */
  static final long RATIO_APPLIES_ABOVE_BYTES = 32L << 20;
  /** The most all streams may decode to. */
  static final long MAX_TOTAL_DECODED_BYTES = 1L << 30;

  /** Filters that only image decoders (not text extraction) undo; their streams are not counted. */
  private static final Set<COSName> IMAGE_CODECS = Set.of(COSName.DCT_DECODE, COSName.DCT_DECODE_ABBREVIATION,
      COSName.JPX_DECODE, COSName.JBIG2_DECODE, COSName.CCITTFAX_DECODE, COSName.CCITTFAX_DECODE_ABBREVIATION);

  private StreamBombGuard() {}

  /** Decodes and counts every compressed stream of {@code document} that extraction may decode. */
  static void check(COSDocument document) throws ExtractionException {
    Counter total = new Counter(MAX_TOTAL_DECODED_BYTES, null);
    for (Map.Entry<COSObjectKey, Long> entry : new ArrayList<>(document.getXrefTable().entrySet())) {
      if (entry.getValue() == null || entry.getValue() < 0) {
        continue; // inside an object stream: never a stream
      }
      COSObject object = document.getObjectFromPool(entry.getKey());
      COSBase base;
      try {
        base = object.getObject();
      } catch (RuntimeException unreadable) {
        continue; // PDFBox reports a broken object when, and if, a page needs it
      }
      if (base instanceof COSStream stream && !neverDecoded(stream)) {
        check(stream, entry.getKey(), total);
      }
    }
  }

  /** Whether text extraction leaves {@code stream} encoded, or PDFBox decoded it at open. */
  private static boolean neverDecoded(COSStream stream) {
    COSName type = stream.getCOSName(COSName.TYPE);
    return COSName.IMAGE.equals(stream.getCOSName(COSName.SUBTYPE))
        || COSName.EMBEDDED_FILE.equals(type) || COSName.XREF.equals(type);
  }

  private static void check(COSStream stream, COSObjectKey key, Counter total) throws ExtractionException {
    List<COSName> filters = filters(stream.getFilters());
    if (filters.isEmpty() || filters.stream().anyMatch(IMAGE_CODECS::contains)) {
      return;
    }
    long encoded = Math.max(1, stream.getLength());
    long bound = Math.max(RATIO_APPLIES_ABOVE_BYTES, MAX_RATIO * encoded);
    Path stage = null;
    try {
      InputStream in = stream.createRawInputStream();
      for (int i = 0; i < filters.size(); i++) {
        Filter filter = FilterFactory.INSTANCE.getFilter(filters.get(i));
        boolean last = i == filters.size() - 1;
        Path next = last ? null : Files.createTempFile("quarry-pdf-stream-", ".bin");
        try (InputStream source = in;
            OutputStream sink = last ? OutputStream.nullOutputStream() : Files.newOutputStream(next)) {
          Counter counter = new Counter(bound, last ? total : null);
          try {
            filter.decode(source, counter.wrap(sink), stream, i);
          } catch (IOException decodeFailed) {
            // Damaged data: PDFBox reports it when a page needs the stream. Past a bound, below.
          }
          counter.throwIfExceeded(key);
        }
        if (stage != null) {
          Files.deleteIfExists(stage);
        }
        stage = next;
        in = last ? InputStream.nullInputStream() : Files.newInputStream(next);
      }
    } catch (IOException unreadable) {
      // A stream that cannot be read is PDFBox's to report.
    } finally {
      if (stage != null) {
        try {
          Files.deleteIfExists(stage);
        } catch (IOException ignored) {
          // a temporary file; the system's cleaner takes it
        }
      }
    }
  }

  private static List<COSName> filters(COSBase filters) {
    List<COSName> names = new ArrayList<>();
    if (filters instanceof COSName name) {
      names.add(name);
    } else if (filters instanceof COSArray array) {
      for (int i = 0; i < array.size(); i++) {
        if (array.getObject(i) instanceof COSName name) {
          names.add(name);
        }
      }
    }
    return names;
  }

  /**
   * Counts bytes written against a bound (and a running total), and fails every write past it,
   * so a decoder stops at once. Decoders may catch what a write throws, hence the flag.
   */
  private static final class Counter {
    private final long bound;
    private final Counter total;
    private long count;
    private boolean exceeded;

    Counter(long bound, Counter total) {
      this.bound = bound;
      this.total = total;
    }

    OutputStream wrap(OutputStream sink) {
      return new OutputStream() {
        @Override
        public void write(int b) throws IOException {
          add(1);
          sink.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          add(len);
          sink.write(b, off, len);
        }
      };
    }

    private void add(long n) throws IOException {
      count += n;
      if (total != null) {
        total.count += n;
        total.exceeded |= total.count > total.bound;
      }
      exceeded |= count > bound;
      if (exceeded || (total != null && total.exceeded)) {
        throw new IOException("decoded stream past its bound");
      }
    }

    void throwIfExceeded(COSObjectKey key) throws ExtractionException {
      if (exceeded) {
        throw new ExtractionException(Failure.DOCUMENT_TOO_LARGE, "The document is a decompression bomb: its stream "
            + key.getNumber() + " decodes to more than " + bound + " bytes, over " + MAX_RATIO
            + " times its compressed size.");
      }
      if (total != null && total.exceeded) {
        throw new ExtractionException(Failure.DOCUMENT_TOO_LARGE,
            "The document is a decompression bomb: its streams decode to more than " + total.bound + " bytes.");
      }
    }
  }
}
