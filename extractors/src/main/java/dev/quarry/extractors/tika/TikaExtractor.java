package dev.quarry.extractors.tika;

import dev.quarry.extractors.ExtractedTable;
import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import dev.quarry.extractors.ExtractionLimits;
import dev.quarry.extractors.text.PagedTextBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.tika.config.TikaConfig;
import org.apache.tika.exception.EncryptedDocumentException;
import org.apache.tika.exception.TikaException;
import org.apache.tika.exception.UnsupportedFormatException;
import org.apache.tika.exception.ZeroByteFileException;
import org.apache.tika.io.TikaInputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.metadata.TikaCoreProperties;
import org.apache.tika.mime.MediaType;
import org.apache.tika.mime.MediaTypeRegistry;
import org.apache.tika.parser.AutoDetectParser;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.Parser;
import org.apache.tika.parser.html.HtmlMapper;
import org.apache.tika.parser.microsoft.OfficeParserConfig;
import org.apache.tika.parser.ocr.TesseractOCRConfig;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Extracts every format Tika's standard parsers read: Office (OOXML and the old binary formats),
 * OpenDocument, HTML, RTF, EPUB, mail and more. Headings come out as Markdown ATX lines; slides and
 * sheets come out as pages. Attachments and embedded documents are extracted too, inline, after
 * their parent's text.
 *
 * <p>Thread safe; build one per process, since the parser registry is slow to load.
 */
public final class TikaExtractor {

  /** OpenDocument presentations and spreadsheets: their slides and sheets are read on their own. */
  private static final String ODP = "application/vnd.oasis.opendocument.presentation";

  private static final String ODP_TEMPLATE =
      "application/vnd.oasis.opendocument.presentation-template";
  private static final String ODT = "application/vnd.oasis.opendocument.text";
  private static final String ODT_TEMPLATE = "application/vnd.oasis.opendocument.text-template";
  private static final String ODS = "application/vnd.oasis.opendocument.spreadsheet";
  private static final String ODS_TEMPLATE =
      "application/vnd.oasis.opendocument.spreadsheet-template";

  /** Formats whose slides or sheets become pages. */
  private static final Set<String> PAGED =
      Set.of(
          "application/vnd.openxmlformats-officedocument.presentationml.presentation",
          "application/vnd.ms-powerpoint.presentation.macroenabled.12",
          "application/vnd.openxmlformats-officedocument.presentationml.slideshow",
          "application/vnd.ms-powerpoint",
          "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
          "application/vnd.ms-excel.sheet.macroenabled.12",
          "application/vnd.ms-excel.sheet.binary.macroenabled.12",
          "application/vnd.ms-excel",
          ODP,
          ODP_TEMPLATE,
          ODS,
          ODS_TEMPLATE);

  private final AutoDetectParser parser;
  private final MediaTypeRegistry registry;

  public TikaExtractor(TikaConfig config) {
    this.parser = new AutoDetectParser(config);
    this.registry = config.getMediaTypeRegistry();
  }

  /** Extracts {@code file}, whose bytes were detected as {@code mediaType}. */
  public Extraction extract(Path file, String mediaType, ExtractionLimits limits)
      throws ExtractionException {
    ParseContext context = newContext();
    if (!supports(MediaType.parse(mediaType), context)) {
      throw new ExtractionException(
          Failure.UNSUPPORTED_MEDIA_TYPE, "No extractor reads " + mediaType + " documents.");
    }
    ZipBombGuard.check(file);
    PagedTextBuilder text =
        new PagedTextBuilder(limits.maxExtractedChars(), limits.maxDocumentPages());
    MarkdownRenderingHandler handler =
        new MarkdownRenderingHandler(text, PAGED.contains(mediaType), limits.maxExtractedChars());
    boolean odp = mediaType.equals(ODP) || mediaType.equals(ODP_TEMPLATE);
    if (!odp
        && (mediaType.contains("presentation")
            || mediaType.equals("application/vnd.ms-powerpoint"))) {
      // OdpSlides heads an OpenDocument slide itself, from its title frame.
      handler.withSlideTitles();
    }
    if (mediaType.contains("spreadsheet") || mediaType.startsWith("application/vnd.ms-excel")) {
      handler.withSheetTables();
    }
    if (mediaType.contains("spreadsheetml")
        || mediaType.startsWith("application/vnd.ms-excel.sheet.macroenabled")) {
      handler.withTableGrids(XlsxSheetGrids.read(file, limits.maxExtractedChars()));
    }
    if (mediaType.contains("wordprocessingml")
        || mediaType.startsWith("application/vnd.ms-word.document")
        || mediaType.startsWith("application/vnd.ms-word.template")) {
      handler.withTableGrids(DocxTableGrids.read(file, limits.maxExtractedChars()));
    }
    Metadata metadata = new Metadata();
    try {
      boolean ods = mediaType.equals(ODS) || mediaType.equals(ODS_TEMPLATE);
      if (odp || ods) {
        // Tika for the metadata (the title); the slides or sheets read on their own, since Tika
        // gives neither their starts nor their names (OdpSlides, OdsSheets).
        parse(file, new DefaultHandler(), metadata, context);
        boolean read = odp ? OdpSlides.read(file, handler) : OdsSheets.read(file, handler);
        if (!read) {
          parse(file, handler, metadata, context);
        }
      } else {
        parse(file, withStructure(file, mediaType, handler, limits), metadata, context);
      }
    } catch (EncryptedDocumentException e) {
      throw new ExtractionException(
          Failure.DOCUMENT_ENCRYPTED,
          "The document is encrypted and needs a password to be opened.");
    } catch (ZeroByteFileException e) {
      throw new ExtractionException(Failure.UNSUPPORTED_MEDIA_TYPE, "The file is empty.");
    } catch (UnsupportedFormatException e) {
      throw new ExtractionException(
          Failure.UNSUPPORTED_MEDIA_TYPE,
          "This variant of " + FormatNames.of(mediaType) + " is not supported.",
          ExtractionException.describe(e));
    } catch (IOException | SAXException | TikaException | RuntimeException e) {
      ExtractionException failure = classify(e, text, mediaType);
      if (failure.failure() != Failure.EXTRACTION_FAILED || !ZipBombGuard.isZip(file)) {
        throw failure;
      }
      // The container's parser gave up (an unsupported variant such as Strict OOXML
      // spreadsheets, or a damaged central directory): read the text of its XML parts.
      return ZipXmlText.extract(file, mediaType, limits, failure);
    }
    if (text.limitFailure() != null) {
      throw text.limitFailure();
    }
    String body = text.text().stripTrailing();
    if (body.isBlank()) {
      throw new ExtractionException(
          Failure.NO_TEXT_EXTRACTED,
          "The document holds no text (images inside it are not read: OCR applies to images and PDF pages only).");
    }
    int[] pageStarts = clampedPageStarts(text.pageStarts(), body.length());
    return new Extraction(
        body,
        pageStarts,
        title(metadata),
        List.of(),
        mediaType,
        Extraction.TIKA,
        pageStarts == null ? null : pageStarts.length,
        body.length(),
        List.of(),
        true,
        null,
        null,
        tablesWithin(handler.tables(), body.length()));
  }

  /**
   * {@code handler}, behind one that adds what Tika's reading of the format lacks: each chart's
   * table where Tika writes its values, for an OOXML package with charts ({@link ChartTextTables});
   * the title paragraphs as headings, for an OpenDocument text ({@link TitleHeadings}).
   */
  private static ContentHandler withStructure(
      Path file, String mediaType, ContentHandler handler, ExtractionLimits limits) {
    if (mediaType.equals(ODT) || mediaType.equals(ODT_TEMPLATE)) {
      // An OpenDocument text's Title and Subtitle paragraphs as headings (TitleHeadings).
      List<OdtTitles.Title> titles = OdtTitles.read(file);
      return titles.isEmpty() ? handler : new TitleHeadings(handler, titles);
    }
    if (!mediaType.contains("openxmlformats") && !mediaType.contains("macroenabled")) {
      return handler;
    }
    List<OoxmlCharts.Chart> charts = OoxmlCharts.read(file, limits.maxExtractedChars());
    return charts.isEmpty() ? handler : new ChartTextTables(handler, charts);
  }

  private void parse(Path file, ContentHandler handler, Metadata metadata, ParseContext context)
      throws IOException, SAXException, TikaException {
    try (InputStream in = TikaInputStream.get(file)) {
      parser.parse(in, handler, metadata, context);
    }
  }

  private ParseContext newContext() {
    ParseContext context = new ParseContext();
    // Recurse into attachments and embedded documents with the same parser.
    context.set(Parser.class, parser);
    // Table cells keep their spans (Tika's default mapping drops colspan and rowspan).
    context.set(HtmlMapper.class, TableSpansHtmlMapper.INSTANCE);
    OfficeParserConfig office = new OfficeParserConfig();
    // The streaming (SAX) readers use less memory and also read Strict OOXML documents.
    office.setUseSAXDocxExtractor(true);
    office.setUseSAXPptxExtractor(true);
    office.setExtractMacros(false);
    context.set(OfficeParserConfig.class, office);
    // Tika's own OCR parser reads every image inside a document (an EPUB's figures, a DOCX's
    // pictures) as soon as tesseract is on the PATH: twenty seconds for a small illustrated EPUB,
    // outside the OCR switch and its budget. Images inside documents are not read
    // (docs/ingestion.md);
    // OCR is Quarry's own, for images and PDF pages.
    TesseractOCRConfig ocr = new TesseractOCRConfig();
    ocr.setSkipOcr(true);
    context.set(TesseractOCRConfig.class, ocr);
    return context;
  }

  private boolean supports(MediaType type, ParseContext context) {
    Set<MediaType> supported = parser.getSupportedTypes(context);
    for (MediaType t = type; t != null; t = registry.getSupertype(t)) {
      if (supported.contains(t)
          && !t.equals(MediaType.OCTET_STREAM)
          && !t.equals(MediaType.APPLICATION_ZIP)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The typed failure for what a parser threw. Its message names the format, never the parser's
   * words (they name classes, such as "TIKA-198: Illegal IOException from
   * org.apache.tika.parser.odf.OpenDocumentParser@..."); those go to the detail, for the log.
   */
  static ExtractionException classify(Throwable e, PagedTextBuilder text, String mediaType) {
    if (text.limitFailure() != null) {
      return text.limitFailure();
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof MarkdownRenderingHandler.LimitExceededSaxException limit) {
        return limit.failure;
      }
      if (t instanceof EncryptedDocumentException
          || t
              instanceof
              org.apache.poi
                  .EncryptedDocumentException) { // qualified: POI's, beside Tika's imported one
        return new ExtractionException(
            Failure.DOCUMENT_ENCRYPTED,
            "The document is encrypted and needs a password to be opened.");
      }
      String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
      if (message.contains("zip bomb") || message.contains("bomb detected")) {
        return new ExtractionException(
            Failure.DOCUMENT_TOO_LARGE,
            "The document is a decompression bomb: a part of it inflates far more than documents do.",
            ExtractionException.describe(e));
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return new ExtractionException(
        Failure.EXTRACTION_FAILED,
        "The document could not be read as "
            + FormatNames.of(mediaType)
            + ": it is damaged, or not what its"
            + " type says.",
        ExtractionException.describe(e));
  }

  /**
   * The tables inside the stripped text (trailing whitespace dropped from the text ends none of
   * them early).
   */
  private static List<ExtractedTable> tablesWithin(List<ExtractedTable> tables, int length) {
    return tables.stream().filter(t -> t.end() <= length).toList();
  }

  private static int[] clampedPageStarts(int[] pageStarts, int length) {
    if (pageStarts == null) {
      return null;
    }
    for (int i = 0; i < pageStarts.length; i++) {
      pageStarts[i] = Math.min(pageStarts[i], length);
    }
    return pageStarts;
  }

  private static String title(Metadata metadata) {
    String title = metadata.get(TikaCoreProperties.TITLE);
    if (title == null) {
      return null;
    }
    String stripped = title.strip();
    return stripped.isEmpty() ? null : stripped;
  }
}
