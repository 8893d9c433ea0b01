package dev.quarry.extractors.detect;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import org.apache.tika.config.TikaConfig;
import org.apache.tika.detect.Detector;
import org.apache.tika.io.TikaInputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.metadata.TikaCoreProperties;
import org.apache.tika.mime.MediaType;
import org.apache.tika.mime.MediaTypeRegistry;
import org.apache.tika.mime.MimeType;
import org.apache.tika.mime.MimeTypes;

/**
 * Detects a document's media type from its bytes with Tika's default detector (magic numbers, plus
 * container inspection for OOXML, OLE2, OpenDocument and EPUB), and decides which extractor reads
 * it.
 *
 * <p>A file name, when known, is a hint as Tika's detector takes it: it may only specialise what
 * the bytes show (a {@code .md} name on plain text is Markdown, a {@code .txt} name on bytes no
 * magic recognises is text), never contradict it (a {@code .txt} that is a PDF is a PDF), and never
 * give bytes that show nothing a binary format ({@code rand.pdf} of random bytes is not a PDF). One
 * more specialisation is Quarry's own: Markdown may open with an HTML comment or tag, which a byte
 * detector takes for XML or HTML, so a Markdown name or declaration on such bytes means Markdown.
 *
 * <p>Thread safe once built; build one per process, since loading Tika's configuration is slow.
 */
public final class MediaTypeDetector {

  private static final MediaType MARKDOWN = MediaType.parse("text/markdown");
  private static final Set<String> MARKDOWN_NAMES =
      Set.of("text/markdown", "text/x-markdown", "text/x-web-markdown");
  private static final Set<String> MARKDOWN_LOOKALIKES =
      Set.of("text/plain", "text/html", "application/xml", "text/x-web-markdown");

  /** Archives would be unpacked recursively (a zip quine never ends); they are not documents. */
  private static final Set<String> ARCHIVES =
      Set.of(
          "application/zip",
          "application/x-tar",
          "application/gzip",
          "application/x-gzip",
          "application/x-bzip2",
          "application/x-xz",
          "application/x-7z-compressed",
          "application/x-rar-compressed",
          "application/vnd.rar",
          "application/java-archive",
          "application/x-compress",
          "application/zstd",
          "application/x-lzma",
          "application/x-archive",
          "application/x-cpio",
          "application/x-iso9660-image");

  private static final Set<String> ENCRYPTED =
      Set.of(
          "application/x-tika-ooxml-protected",
          "application/encrypted",
          "application/x-tika-msoffice-protected");
  private static final Set<String> PROGRAMS =
      Set.of(
          "application/x-executable",
          "application/x-sharedlib",
          "application/x-msdownload",
          "application/x-dosexec",
          "application/x-mach-o-executable",
          "application/java-vm",
          "application/x-elf",
          "application/x-object",
          "application/x-coredump");

  /** Images Tesseract (through Leptonica) reads. */
  private static final Set<String> OCR_IMAGES =
      Set.of("image/png", "image/jpeg", "image/tiff", "image/webp");

  private final Detector detector;
  private final MediaTypeRegistry registry;
  private final MimeTypes names;

  public MediaTypeDetector(TikaConfig config) {
    this.detector = config.getDetector();
    this.registry = config.getMediaTypeRegistry();
    this.names = config.getMimeRepository();
  }

  /** The media type of the bytes in {@code file}, without parameters, lower case. */
  public String detect(Path file) throws IOException {
    return detect(file, null);
  }

  /**
   * The media type of the bytes in {@code file}, with {@code fileName} (or null) as a hint that may
   * specialise but never contradict what the bytes show; without parameters, lower case.
   *
   * <p>Tika lets a name decide when the bytes match no magic number and do not look like text
   * ({@code rand.pdf} of random bytes would be a PDF, read and failed as a damaged one; 256 KB of
   * NUL bytes named {@code .txt} would be text). Here such bytes stay {@code
   * application/octet-stream} whatever their name; the extraction router still reads them as text
   * when they are named or declared text and decode as text (EBCDIC, say).
   */
  public String detect(Path file, String fileName) throws IOException {
    Metadata metadata = new Metadata();
    // One stream for both checks: each detector marks it, reads the head and resets it, so the
    // file is opened and its head read once.
    try (TikaInputStream in = TikaInputStream.get(file)) {
      if (fileName != null && !fileName.isBlank()) {
        if (showNothing(in)) {
          return MediaType.OCTET_STREAM.toString();
        }
        metadata.set(TikaCoreProperties.RESOURCE_NAME_KEY, fileName);
      }
      return detector.detect(in, metadata).getBaseType().toString();
    }
  }

  /**
   * Whether no magic number matches the bytes and they do not look like text. Only magic is asked:
   * the container detectors refine what magic already recognised (a zip, an OLE2 file). {@code in}
   * is reset to where it was.
   */
  private boolean showNothing(TikaInputStream in) throws IOException {
    return names.detect(in, new Metadata()).equals(MediaType.OCTET_STREAM);
  }

  /** The media type a file name's extension suggests, or null. */
  public String typeOfName(String fileName) {
    if (fileName == null) {
      return null;
    }
    MimeType type = names.getMimeType(fileName);
    String base = type == null ? null : type.getType().getBaseType().toString();
    return base == null || base.equals("application/octet-stream") ? null : base;
  }

  /**
   * The media type a document is extracted as: the detected one, refined by the declared one or the
   * file name only where bytes cannot tell (Markdown is plain text, or XML when it opens with a
   * comment, to a byte detector).
   */
  public String refine(String detected, String declared, String fileName) {
    String named = typeOfName(fileName);
    if (named != null && MARKDOWN_NAMES.contains(named) && MARKDOWN_LOOKALIKES.contains(detected)) {
      return MARKDOWN.toString();
    }
    return refine(detected, declared);
  }

  /**
   * The media type a document is extracted as: the detected one, refined by the declared one only
   * where bytes cannot tell (Markdown is plain text to a byte detector).
   */
  public String refine(String detected, String declared) {
    String declaredBase = baseOf(declared);
    if (declaredBase != null
        && MARKDOWN_NAMES.contains(declaredBase)
        && MARKDOWN_LOOKALIKES.contains(detected)) {
      // Markdown may open with HTML comments or tags, which a byte detector takes for markup.
      return MARKDOWN.toString();
    }
    return detected;
  }

  /**
   * Whether a declared media type disagrees with the one the bytes show. A declared type that the
   * detected one specialises (declared {@code application/zip}, detected DOCX), or an alias of it,
   * agrees.
   */
  public boolean disagrees(String declared, String detected) {
    String declaredBase = baseOf(declared);
    if (declaredBase == null || declaredBase.equals("application/octet-stream")) {
      return false;
    }
    MediaType declaredType = registry.normalize(MediaType.parse(declaredBase));
    MediaType detectedType = registry.normalize(MediaType.parse(detected));
    if (declaredType == null || detectedType == null) {
      return true;
    }
    return !declaredType.equals(detectedType)
        && !registry.isSpecializationOf(detectedType, declaredType);
  }

  /** Which extractor reads {@code mediaType}. */
  public DocumentKind kindOf(String mediaType) {
    MediaType type = MediaType.parse(mediaType);
    if (type == null) {
      return DocumentKind.UNSUPPORTED;
    }
    String base = type.getBaseType().toString();
    if (base.equals("application/pdf") || base.equals("application/x-pdf")) {
      return DocumentKind.PDF;
    }
    if (MARKDOWN_NAMES.contains(base)) {
      return DocumentKind.MARKDOWN;
    }
    if (base.equals("text/plain")
        || base.equals("text/csv")
        || base.equals("text/tab-separated-values")) {
      return DocumentKind.PLAIN_TEXT;
    }
    if (ENCRYPTED.contains(base)) {
      return DocumentKind.ENCRYPTED;
    }
    if (OCR_IMAGES.contains(base)) {
      return DocumentKind.IMAGE;
    }
    String top = type.getType();
    if (base.equals("application/octet-stream")
        || ARCHIVES.contains(base)
        || PROGRAMS.contains(base)
        || top.equals("image")
        || top.equals("audio")
        || top.equals("video")
        || top.equals("font")
        || top.equals("model")
        || top.equals("chemical")) {
      return DocumentKind.UNSUPPORTED;
    }
    return DocumentKind.TIKA;
  }

  private static String baseOf(String declared) {
    if (declared == null || declared.isBlank()) {
      return null;
    }
    MediaType parsed = MediaType.parse(declared.trim().toLowerCase(Locale.ROOT));
    return parsed == null ? null : parsed.getBaseType().toString();
  }
}
