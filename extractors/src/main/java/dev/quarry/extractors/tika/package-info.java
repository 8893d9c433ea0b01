/**
 * Extraction of every format Tika's standard parsers read (Office, OpenDocument, HTML, RTF, EPUB,
 * mail, ...), rendered as text with Markdown ATX headings and, for presentations and spreadsheets,
 * one page per slide or sheet. Guards zip containers against decompression bombs before parsing.
 * Tables are rendered as rows of named cells and kept with their cells: a sheet split into the
 * tables laid on it ({@code SheetTables}), a Word document's merged cells read from the document
 * itself ({@code DocxTableGrids}), and an OOXML workbook's sheets read with POI with their merged
 * cells and blank rows ({@code XlsxSheetGrids}). Entry type: {@link
 * dev.quarry.extractors.tika.TikaExtractor}.
 *
 * <p>Runs only inside a worker process. Does not read PDFs (package {@code pdf} does) or plain text
 * (package {@code text} does).
 */
package dev.quarry.extractors.tika;
