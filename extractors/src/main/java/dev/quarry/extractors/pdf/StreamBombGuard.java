package dev.quarry.extractors.pdf;

import static dev.quarry.extractors.inflation.InflationBudget.bomb;

import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.inflation.InflationBudget;
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
 * PDFBox decodes a content stream, a font or a character map whole into the heap (a {@code
 * RandomAccessReadWriteBuffer}), so a FlateDecode stream of 800 MB of zeros (0.8 MB in the file)
 * filled a 512 MiB worker, which took 5 to 49 s to die of it. Here each stream is decoded into
 * nothing and counted, stopping at the first one past its bound, as {@code ZipBombGuard} does for
 * zip parts, with the same bounds ({@link InflationBudget}).
 *
 * <p>Left out are the streams extraction never decodes, so that what they hold cannot refuse an
 * honest document: images (rendering for OCR decodes them, into a raster whose size their width and
 * height fix, and counting a scan's pixels would cost what decoding them costs) and embedded files
 * (attachments: a 40 MB text file attached to a 42 KB PDF is not a bomb to its text).
 * Cross-reference streams are left out too: PDFBox decoded them to open the file, before this check
 * could run. The XMP packet ({@code /Metadata}) is counted: the title reader decodes it. Streams
 * are objects of the file's body, never of object streams, so the cross-reference table names them
 * all.
 *
 * <p>Stateless.
 */
final class StreamBombGuard {

  /** Filters that only image decoders (not text extraction) undo; their streams are not counted. */
  private static final Set<COSName> IMAGE_CODECS =
      Set.of(
          COSName.DCT_DECODE,
          COSName.DCT_DECODE_ABBREVIATION,
          COSName.JPX_DECODE,
          COSName.JBIG2_DECODE,
          COSName.CCITTFAX_DECODE,
          COSName.CCITTFAX_DECODE_ABBREVIATION);

  private StreamBombGuard() {}

  /** Decodes and counts every compressed stream of {@code document} that extraction may decode. */
  static void check(COSDocument document) throws ExtractionException {
    InflationBudget budget = new InflationBudget();
    for (Map.Entry<COSObjectKey, Long> entry :
        new ArrayList<>(document.getXrefTable().entrySet())) {
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
        check(stream, entry.getKey(), budget);
      }
    }
  }

  /** Whether text extraction leaves {@code stream} encoded, or PDFBox decoded it at open. */
  private static boolean neverDecoded(COSStream stream) {
    COSName type = stream.getCOSName(COSName.TYPE);
    return COSName.IMAGE.equals(stream.getCOSName(COSName.SUBTYPE))
        || COSName.EMBEDDED_FILE.equals(type)
        || COSName.XREF.equals(type);
  }

  private static void check(COSStream stream, COSObjectKey key, InflationBudget budget)
      throws ExtractionException {
    List<COSName> filters = filters(stream.getFilters());
    if (filters.isEmpty() || filters.stream().anyMatch(IMAGE_CODECS::contains)) {
      return;
    }
    long encoded = Math.max(1, stream.getLength());
    Path stage = null;
    try {
      InputStream in = stream.createRawInputStream();
      for (int i = 0; i < filters.size(); i++) {
        Filter filter = FilterFactory.INSTANCE.getFilter(filters.get(i));
        boolean last = i == filters.size() - 1;
        Path next = last ? null : Files.createTempFile("quarry-pdf-stream-", ".bin");
        try (InputStream source = in;
            OutputStream sink =
                last ? OutputStream.nullOutputStream() : Files.newOutputStream(next)) {
          InflationBudget.Part part = last ? budget.part(encoded) : budget.stage(encoded);
          try {
            filter.decode(source, part.counting(sink), stream, i);
          } catch (IOException decodeFailed) {
            // Damaged data: PDFBox reports it when a page needs the stream. Past a bound, below.
          }
          if (part.exceeded()) {
            throw bomb(
                "its stream "
                    + key.getNumber()
                    + " decodes to more than "
                    + part.bound()
                    + " bytes, over "
                    + InflationBudget.MAX_RATIO
                    + " times its compressed size");
          }
          if (budget.totalExceeded()) {
            throw bomb(
                "its streams decode to more than " + InflationBudget.MAX_TOTAL_BYTES + " bytes");
          }
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
}
