package dev.quarry.extractors.tika;

import static dev.quarry.extractors.inflation.InflationBudget.bomb;

import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.inflation.InflationBudget;
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
 * stopping at the first part past its bound. That pass costs one inflation of an honest document's
 * parts (milliseconds for an office file) and bounds a bomb's cost by the bounds of {@link
 * InflationBudget} (the same as for PDF streams), where a parser would inflate and parse all of it
 * (an OpenDocument bomb of 2 MB that declared small sizes took its parser 10 to 28 s to reach the
 * character budget; POI, which reads OOXML, has a ratio check of its own, ODF and EPUB parsers have
 * none).
 */
final class ZipBombGuard {

  /** More parts than this is a crafted file. */
  static final int MAX_ENTRIES = 20_000;

  private static final int BUFFER_BYTES = 1 << 16;

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
      checkStreamed(file, new InflationBudget());
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
      if (size > InflationBudget.RATIO_APPLIES_ABOVE_BYTES
          && compressed > 0
          && size / compressed > InflationBudget.MAX_RATIO) {
        throw bomb(
            "its part "
                + entry.getName()
                + " inflates "
                + size / compressed
                + " times, to "
                + size
                + " bytes");
      }
      if (total > InflationBudget.MAX_TOTAL_BYTES) {
        throw tooMuchInAll();
      }
    }
  }

  /**
   * Inflates every part as a parser would find it and counts: through the central directory as
   * parsers read a file, or, when that is damaged, through the local headers as their fallbacks
   * stream it ({@link #checkStreamed}).
   */
  private static void checkInflated(ZipFile zip) throws ExtractionException {
    InflationBudget budget = new InflationBudget();
    byte[] buffer = new byte[BUFFER_BYTES];
    for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
      ZipEntry entry = entries.nextElement();
      try (InputStream in = zip.getInputStream(entry)) {
        count(budget, entry.getName(), in, entry.getCompressedSize(), buffer);
      } catch (IOException unreadablePart) {
        // The parser reports a broken part in its own words.
      }
    }
  }

  private static void checkStreamed(Path file, InflationBudget budget) throws ExtractionException {
    byte[] buffer = new byte[BUFFER_BYTES];
    try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(file))) {
      for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
        count(budget, entry.getName(), zip, entry.getCompressedSize(), buffer);
      }
    } catch (IOException unreadableZip) {
      // The parser reports a broken container in its own words.
    }
  }

  /**
   * Reads {@code in} to its end, or to the first bound it passes. The compressed size is the
   * declared one (unknown: -1); a lie there only moves the ratio's bound, the total still holds.
   */
  private static void count(
      InflationBudget budget, String name, InputStream in, long compressed, byte[] buffer)
      throws IOException, ExtractionException {
    InflationBudget.Part part = budget.part(compressed);
    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
      if (!part.add(n)) {
        if (part.exceeded()) {
          throw bomb(
              "its part "
                  + name
                  + " inflates to more than "
                  + part.bound()
                  + " bytes"
                  + (compressed > 0
                      ? ", over " + InflationBudget.MAX_RATIO + " times its compressed size"
                      : ""));
        }
        throw tooMuchInAll();
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

  private static ExtractionException tooMuchInAll() {
    return bomb("its parts inflate to more than " + InflationBudget.MAX_TOTAL_BYTES + " bytes");
  }
}
