package dev.quarry.extractors.tika;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionLimits;
import dev.quarry.extractors.ExtractionWarning;
import dev.quarry.extractors.text.PagedTextBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParser;
import javax.xml.parsers.SAXParserFactory;
import org.apache.commons.io.input.CloseShieldInputStream;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The last resort for zip-based office documents whose parser failed: streams the zip (which
 * tolerates a damaged central directory) and collects the character data of the parts that hold a
 * document's text. Structure is lost, so the result carries a {@code PARTIALLY_READ} warning. XML
 * is read without DTDs or external entities.
 */
final class ZipXmlText {

  /** Parts that hold text in OOXML and OpenDocument packages; styles and settings do not. */
  private static final Pattern TEXT_PARTS =
      Pattern.compile(
          "content\\.xml|word/(document|footnotes|endnotes)\\.xml|xl/sharedStrings\\.xml"
              + "|xl/worksheets/sheet\\d+\\.xml|ppt/slides/slide\\d+\\.xml");

  private ZipXmlText() {}

  /**
   * Extracts the text parts of {@code file}, or throws {@code parserFailure} when there are none or
   * the zip cannot be streamed either.
   */
  static Extraction extract(
      Path file, String mediaType, ExtractionLimits limits, ExtractionException parserFailure)
      throws ExtractionException {
    PagedTextBuilder text =
        new PagedTextBuilder(limits.maxExtractedChars(), limits.maxDocumentPages());
    try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(file))) {
      SAXParser sax = secureParser();
      for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
        if (TEXT_PARTS.matcher(entry.getName()).matches()) {
          sax.reset();
          sax.parse(CloseShieldInputStream.wrap(zip), new CharacterCollector(text));
        }
      }
    } catch (IOException | SAXException | ParserConfigurationException | RuntimeException e) {
      if (text.limitFailure() != null) {
        throw text.limitFailure();
      }
      // A part cut short means a truncated document: half of it is not the document.
      throw parserFailure;
    }
    String body = text.text().strip();
    if (body.isEmpty()) {
      throw parserFailure;
    }
    return new Extraction(
        body,
        null,
        null,
        List.of(),
        mediaType,
        Extraction.TIKA,
        null,
        body.length(),
        List.of(
            new ExtractionWarning(
                ExtractionWarning.PARTIALLY_READ,
                "The document's structure could not be read (it is damaged, or a variant its reader does not"
                    + " know); its text was collected without headings or pages.")),
        false);
  }

  static SAXParser secureParser() throws ParserConfigurationException, SAXException {
    SAXParserFactory factory = SAXParserFactory.newInstance();
    factory.setNamespaceAware(true);
    factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
    factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
    return factory.newSAXParser();
  }

  /** Appends character data, ending a line at each paragraph, row or cell. */
  private static final class CharacterCollector extends DefaultHandler {
    private final PagedTextBuilder text;

    CharacterCollector(PagedTextBuilder text) {
      this.text = text;
    }

    @Override
    public void characters(char[] ch, int start, int length) throws SAXException {
      append(new String(ch, start, length));
    }

    @Override
    public void endElement(String uri, String localName, String qName) throws SAXException {
      if (localName.equals("p")
          || localName.equals("h")
          || localName.equals("si")
          || localName.equals("c")
          || localName.equals("row")
          || localName.equals("tr")) {
        append("\n");
      }
    }

    private void append(String s) throws SAXException {
      try {
        text.append(s);
      } catch (ExtractionException e) {
        throw new MarkdownRenderingHandler.LimitExceededSaxException(e);
      }
    }
  }
}
