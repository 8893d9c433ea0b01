package dev.quarry.extractors.text;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import dev.quarry.extractors.ExtractionLimits;
import dev.quarry.extractors.ExtractionWarning;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.parser.txt.Icu4jEncodingDetector;
import org.apache.tika.parser.txt.UniversalEncodingDetector;

/**
 * Reads plain text and Markdown directly, without a parser. A patent in the USPTO's full-text
 * format (APS) is read as one: its title, sections and claims headed ({@link PatentFullText}).
 *
 * <p>The charset is, in order: the one a byte-order mark names; UTF-8 when the bytes are valid
 * UTF-8, or hold UTF-8 sequences with one or at most 1% damaged ones; the one Tika's universal
 * detector names with confidence (legacy encodings such as windows-1252 or Shift_JIS); the one
 * Tika's ICU-based detector names, when the text it decodes to is free of control characters
 * (EBCDIC, IBM866 and other encodings the universal detector does not know). The extraction reports
 * the charset used. When none applies the bytes are decoded as UTF-8, each malformed sequence
 * becomes U+FFFD and the extraction carries an {@code INVALID_ENCODING} warning. When more than
 * {@link #MAX_REPLACED_FRACTION} of the characters had to be replaced the bytes are not text at all
 * and extraction fails with {@code EXTRACTION_FAILED}.
 */
public final class PlainTextExtractor {

  /** Past a quarter of replaced characters the result would be noise, not a damaged text. */
  static final double MAX_REPLACED_FRACTION = 0.25;

  /** UTF-8 with a few damaged sequences is damaged UTF-8, not another charset. */
  static final double MOSTLY_UTF8_FRACTION = 0.01;

  /** Real text in the right charset has next to no control characters; binary has many. */
  static final double MAX_CONTROL_FRACTION = 0.001;

  private final HtmlBlockReader htmlBlocks;

  /** An extractor that leaves Markdown's HTML tables as they are written. */
  public PlainTextExtractor() {
    this(HtmlBlockReader.NONE);
  }

  /** An extractor that reads Markdown's HTML tables with {@code htmlBlocks}. */
  public PlainTextExtractor(HtmlBlockReader htmlBlocks) {
    this.htmlBlocks = htmlBlocks;
  }

  /**
   * Reads {@code file} as text.
   *
   * @param markdown whether the text is Markdown (its headings are already ATX lines)
   */
  public Extraction extract(Path file, String mediaType, boolean markdown, ExtractionLimits limits)
      throws ExtractionException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new ExtractionException(Failure.EXTRACTION_FAILED, "The file could not be read.");
    }
    List<ExtractionWarning> warnings = new ArrayList<>();
    Decoded decoded = decode(bytes, warnings);
    String text = decoded.text();
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    if (text.length() > limits.maxExtractedChars()) {
      throw PagedTextBuilder.tooManyCharacters(limits.maxExtractedChars());
    }
    if (text.isBlank()) {
      throw new ExtractionException(Failure.NO_TEXT_EXTRACTED, "The file holds only white space.");
    }
    return markdownExtraction(
        text, mediaType, markdown, warnings, decoded.charset().name(), limits);
  }

  /**
   * Reads a file declared as text whose bytes the detector could not place (EBCDIC, say): Tika's
   * ICU-based charset detector names the charset, and the decoded text must be free of control
   * characters, or the bytes are not text and fail with {@code UNSUPPORTED_MEDIA_TYPE}.
   */
  public Extraction extractDeclared(
      Path file, String mediaType, boolean markdown, ExtractionLimits limits)
      throws ExtractionException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new ExtractionException(Failure.EXTRACTION_FAILED, "The file could not be read.");
    }
    Charset charset = detectByIcu(bytes);
    String text = charset == null ? null : new String(bytes, charset);
    if (text == null || !looksLikeText(text)) {
      throw new ExtractionException(
          Failure.UNSUPPORTED_MEDIA_TYPE,
          "The file is declared as text but its bytes are not text in any known charset.");
    }
    if (text.length() > limits.maxExtractedChars()) {
      throw PagedTextBuilder.tooManyCharacters(limits.maxExtractedChars());
    }
    if (text.isBlank()) {
      throw new ExtractionException(Failure.NO_TEXT_EXTRACTED, "The file holds only white space.");
    }
    return markdownExtraction(text, mediaType, markdown, List.of(), charset.name(), limits);
  }

  /**
   * The extraction of decoded text; Markdown with its pipe tables and HTML tables read as tables
   * ({@link MarkdownTables}); plain text that is a patent in the USPTO's full-text format rendered
   * as Markdown, its sections headed ({@link PatentFullText}).
   */
  private Extraction markdownExtraction(
      String text,
      String mediaType,
      boolean markdown,
      List<ExtractionWarning> warnings,
      String charset,
      ExtractionLimits limits)
      throws ExtractionException {
    PatentFullText.Patents patents =
        markdown ? null : PatentFullText.read(text, limits.maxExtractedChars());
    RenderedText rendered =
        markdown
            ? MarkdownTables.render(text, htmlBlocks, limits.maxExtractedChars())
            : new RenderedText(patents == null ? text : patents.markdown(), List.of());
    if (rendered.text().length() > limits.maxExtractedChars()) {
      // Every row names its cells by their header, so a long table renders longer than it is
      // written.
      throw PagedTextBuilder.tooManyCharacters(limits.maxExtractedChars());
    }
    return new Extraction(
        rendered.text(),
        null,
        patents == null ? null : patents.title(),
        List.of(),
        mediaType,
        Extraction.TEXT,
        null,
        rendered.text().length(),
        warnings,
        markdown || patents != null,
        charset,
        null,
        rendered.tables());
  }

  /** The charset Tika's ICU-based detector names, or null. */
  private static Charset detectByIcu(byte[] bytes) {
    try {
      return new Icu4jEncodingDetector().detect(new ByteArrayInputStream(bytes), new Metadata());
    } catch (IOException | RuntimeException undetectable) {
      return null;
    }
  }

  /** Whether decoded text is free of what real text in its right charset never holds. */
  private static boolean looksLikeText(String text) {
    return !text.isBlank() && controlCharacters(text) <= MAX_CONTROL_FRACTION * text.length();
  }

  /** Text and the charset it was decoded from. */
  private record Decoded(String text, Charset charset) {}

  private static long controlCharacters(String text) {
    return text.chars()
        .filter(c -> (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f') || c == 0xFFFD)
        .count();
  }

  private static Decoded decode(byte[] bytes, List<ExtractionWarning> warnings)
      throws ExtractionException {
    Charset bom = charsetOfByteOrderMark(bytes);
    if (bom != null) {
      return new Decoded(new String(bytes, bom), bom);
    }
    try {
      return new Decoded(
          strictDecoder(StandardCharsets.UTF_8).decode(ByteBuffer.wrap(bytes)).toString(),
          StandardCharsets.UTF_8);
    } catch (CharacterCodingException notUtf8) {
      // fall through to detection
    }
    String lenient = new String(bytes, StandardCharsets.UTF_8);
    long replaced = lenient.chars().filter(c -> c == '\uFFFD').count();
    boolean hasUtf8Sequences = lenient.chars().anyMatch(c -> c >= 0x80 && c != '\uFFFD');
    if (!hasUtf8Sequences || replaced > Math.max(1, MOSTLY_UTF8_FRACTION * lenient.length())) {
      Charset detected = detectLegacyCharset(bytes);
      if (detected != null && !detected.equals(StandardCharsets.UTF_8)) {
        try {
          return new Decoded(
              strictDecoder(detected).decode(ByteBuffer.wrap(bytes)).toString(), detected);
        } catch (CharacterCodingException wrongGuess) {
          // fall through to ICU
        }
      }
      Charset icu = detectByIcu(bytes);
      if (icu != null && !icu.equals(StandardCharsets.UTF_8)) {
        try {
          String text = strictDecoder(icu).decode(ByteBuffer.wrap(bytes)).toString();
          if (looksLikeText(text)) {
            return new Decoded(text, icu);
          }
        } catch (CharacterCodingException wrongGuess) {
          // fall through to lenient UTF-8
        }
      }
    }
    String text = lenient;
    long nonBlank = text.chars().filter(c -> !Character.isWhitespace(c)).count();
    if (replaced > MAX_REPLACED_FRACTION * Math.max(1, nonBlank)) {
      throw new ExtractionException(
          Failure.EXTRACTION_FAILED,
          "The file is not text: "
              + replaced
              + " of its "
              + nonBlank
              + " characters are not valid UTF-8 and no other charset fits.");
    }
    warnings.add(
        new ExtractionWarning(
            ExtractionWarning.INVALID_ENCODING,
            replaced + " byte sequences are not valid UTF-8 and were replaced with U+FFFD."));
    return new Decoded(text, StandardCharsets.UTF_8);
  }

  private static CharsetDecoder strictDecoder(Charset charset) {
    return charset
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
  }

  private static Charset charsetOfByteOrderMark(byte[] b) {
    if (b.length >= 3 && (b[0] & 0xFF) == 0xEF && (b[1] & 0xFF) == 0xBB && (b[2] & 0xFF) == 0xBF) {
      return StandardCharsets.UTF_8;
    }
    if (b.length >= 2 && (b[0] & 0xFF) == 0xFE && (b[1] & 0xFF) == 0xFF) {
      return StandardCharsets.UTF_16;
    }
    if (b.length >= 2 && (b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xFE) {
      return StandardCharsets.UTF_16;
    }
    return null;
  }

  private static Charset detectLegacyCharset(byte[] bytes) {
    try {
      return new UniversalEncodingDetector()
          .detect(new ByteArrayInputStream(bytes), new Metadata());
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
