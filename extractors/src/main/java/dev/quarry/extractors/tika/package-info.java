/**
 * Extraction of every format Tika's standard parsers read (Office, OpenDocument, HTML, RTF,
 * EPUB, mail, ...), rendered as text with Markdown ATX headings and, for presentations and
 * spreadsheets, one page per slide or sheet. Guards zip containers against decompression
 * bombs before parsing. Entry type: {@link dev.quarry.extractors.tika.TikaExtractor}.
 *
 * <p>Runs only inside a worker process. Does not read PDFs (package {@code pdf} does) or plain
 * text (package {@code text} does).
 */
package dev.quarry.extractors.tika;
