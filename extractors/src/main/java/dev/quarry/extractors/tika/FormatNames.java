package dev.quarry.extractors.tika;

import java.util.Map;

/** What a client calls a format, for messages: "OpenDocument text", not a parser's class. */
final class FormatNames {

  private static final Map<String, String> NAMES =
      Map.ofEntries(
          Map.entry("application/vnd.oasis.opendocument.text", "OpenDocument text"),
          Map.entry(
              "application/vnd.oasis.opendocument.spreadsheet", "an OpenDocument spreadsheet"),
          Map.entry(
              "application/vnd.oasis.opendocument.presentation", "an OpenDocument presentation"),
          Map.entry(
              "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
              "a Word document (DOCX)"),
          Map.entry(
              "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
              "an Excel workbook (XLSX)"),
          Map.entry(
              "application/vnd.openxmlformats-officedocument.presentationml.presentation",
              "a PowerPoint presentation (PPTX)"),
          Map.entry("application/msword", "a Word 97-2003 document (DOC)"),
          Map.entry("application/vnd.ms-excel", "an Excel 97-2003 workbook (XLS)"),
          Map.entry("application/vnd.ms-powerpoint", "a PowerPoint 97-2003 presentation (PPT)"),
          Map.entry("application/epub+zip", "an EPUB book"),
          Map.entry("application/rtf", "RTF"),
          Map.entry("text/html", "HTML"),
          Map.entry("application/xhtml+xml", "XHTML"),
          Map.entry("application/xml", "XML"),
          Map.entry("message/rfc822", "an e-mail message"),
          Map.entry("application/vnd.ms-outlook", "an Outlook message"));

  private FormatNames() {}

  /**
   * A name for {@code mediaType} that can follow "read as": a known format's name, else the media
   * type.
   */
  static String of(String mediaType) {
    String name = NAMES.get(mediaType);
    return name != null ? name : mediaType;
  }
}
