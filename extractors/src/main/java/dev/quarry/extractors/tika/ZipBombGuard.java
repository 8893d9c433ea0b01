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

/**
 * Refuses zip containers (DOCX, XLSX, PPTX, EPUB, OpenDocument) whose central directory
 * declares a decompression bomb, before any parser inflates a byte. The declared sizes can
 * lie, so this is the first line only: POI's inflate-ratio check, Tika's secure content
 * handler and the character budget stop what gets past it.
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

  /** Checks {@code file} if it is a zip; files that are not zips, or unreadable zips, pass. */
  static void check(Path file) throws ExtractionException {
    if (!isZip(file)) {
      return;
    }
    try (ZipFile zip = new ZipFile(file.toFile())) {
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
    } catch (IOException unreadableZip) {
      // The parser reports a broken container in its own words.
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
