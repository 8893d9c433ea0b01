package dev.quarry.extractors.tika;

import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

/**
 * Refuses zip containers (DOCX, XLSX, PPTX, EPUB, OpenDocument) that are decompression bombs,
 * before any parser inflates them. First the sizes the central directory declares, which cost
 * nothing to read; then, since they can lie, the parts are inflated into nothing and counted,
 * stopping at the first part past its bound. That pass costs one inflation of an honest
 * document's parts (milliseconds for an office file) and bounds a bomb's cost by the limits
 * below, where a parser would inflate and parse all of it (an OpenDocument bomb of 2 MB that
 * declared small sizes took its parser 10 to 28 s to reach the character budget; POI, which
 * reads OOXML, has a ratio check of its own, ODF and EPUB parsers have none).
 */
final class ZipBombGuard {

  /** An entry that inflates more than this many times its compressed size is a bomb... */
  static final long MAX_RATIO = 100;
  /**
   * ...once it is this large. Smaller parts compress very well for honest reasons (a vector
   * image of a few MB in a real DOCX inflates 129 times); the budget and POI catch the rest.
   */
  static final long RATIO_APPLIES_ABOVE_BYTES = 32L << 20;
  /** The most all entries may inflate to: an Office file's XML is a few times its text. */
  static final long MAX_TOTAL_UNCOMPRESSED_BYTES = 1L << 30;
  /** More parts than this is a crafted file. */
  static final int MAX_ENTRIES = 20_000;

  private ZipBombGuard() {}

  /**
   * Checks {@code file} if it is a zip; files that are not zips, or unreadable zips, pass. One
   * reading of the central directory serves both passes.
   */
  static void check(Path file) throws ExtractionException {
    if (!isZip(file)) {
      return;
    }
    ZipFile zip;
    try {
      zip = new ZipFile(file.toFile());
    } catch (IOException damagedDirectory) {
      // No sizes to trust; parsers fall back to the local headers, and so does the count.
      checkStreamed(file, new InflatedTotal());
      return;
    }
    try (zip) {
      checkDeclared(zip);
      checkInflated(zip);
    } catch (IOException ignored) {
      // closing a read-only zip
    }
  }

  private static void checkDeclared(ZipFile zip) throws ExtractionException {
    long total = 0;
    int count = 0;
    for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
      ZipEntry entry = entries.nextElement();
      if (++count > MAX_ENTRIES) {
        throw bomb("it has more than " + MAX_ENTRIES + " parts");
      }
      long size = entry.getSize();
      long compressed = entry.getCompressedSize();
      if (size < 0) {
        continue;
      }
      total += size;
      if (size > RATIO_APPLIES_ABOVE_BYTES && compressed > 0 && size / compressed > MAX_RATIO) {
        throw bomb("its part " + entry.getName() + " inflates " + size / compressed
            + " times, to " + size + " bytes");
      }
      if (total > MAX_TOTAL_UNCOMPRESSED_BYTES) {
        throw bomb("its parts inflate to more than " + MAX_TOTAL_UNCOMPRESSED_BYTES + " bytes");
      }
    }
  }

  /**
   * Inflates every part as a parser would find it and counts: through the central directory as
   * parsers read a file, or, when that is damaged, through the local headers as their fallbacks
   * stream it ({@link #checkStreamed}).
   */
  private static void checkInflated(ZipFile zip) throws ExtractionException {
    InflatedTotal total = new InflatedTotal();
    for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
      ZipEntry entry = entries.nextElement();
      try (InputStream in = zip.getInputStream(entry)) {
        total.count(entry.getName(), in, entry.getCompressedSize());
      } catch (IOException unreadablePart) {
        // The parser reports a broken part in its own words.
      }
    }
  }

  private static void checkStreamed(Path file, InflatedTotal total) throws ExtractionException {
    try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(file))) {
      for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
        total.count(entry.getName(), zip, entry.getCompressedSize());
      }
    } catch (IOException unreadableZip) {
      // The parser reports a broken container in its own words.
    }
  }

  /** Counts inflated bytes against the per-part ratio and the total, as they come. */
  private static final class InflatedTotal {
    private final byte[] buffer = new byte[1 << 16];
    private long total;

    /**
     * Reads {@code in} to its end, or to the first bound it passes. The compressed size is the
     * declared one (unknown: -1); a lie there only moves the ratio's bound, the total still holds.
     */
    void count(String name, InputStream in, long compressed) throws IOException, ExtractionException {
      long bound = Math.max(RATIO_APPLIES_ABOVE_BYTES, compressed > 0 ? MAX_RATIO * compressed : 0);
      long size = 0;
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        size += n;
        total += n;
        if (size > bound) {
          throw bomb("its part " + name + " inflates to more than " + bound + " bytes"
              + (compressed > 0 ? ", over " + MAX_RATIO + " times its compressed size" : ""));
        }
        if (total > MAX_TOTAL_UNCOMPRESSED_BYTES) {
          throw bomb("its parts inflate to more than " + MAX_TOTAL_UNCOMPRESSED_BYTES + " bytes");
        }
      }
    }
  }

  /** Whether {@code file} starts with a zip local file header. */
  static boolean isZip(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] head = in.readNBytes(4);
      return head.length == 4 && head[0] == 'P' && head[1] == 'K' && head[2] == 3 && head[3] == 4;
    } catch (IOException e) {
      return false;
    }
  }

  private static ExtractionException bomb(String why) {
    return new ExtractionException(Failure.DOCUMENT_TOO_LARGE,
        "The document is a decompression bomb: " + why + ".");
  }
}
