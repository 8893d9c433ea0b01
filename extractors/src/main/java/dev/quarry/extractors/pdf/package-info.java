/**
 * PDF extraction with PDFBox, page by page: text with page starts (NFKC-normalised, form field
 * values included, line-end hyphenation joined, a word drawn left of the one before it on its line
 * set apart), title (info dictionary or XMP), outline, and the pages without a text layer, and the
 * ruled tables found from the rules drawn on each page ({@code RuledTables}; a table's text is
 * written after its page's other lines, as rows of named cells). Entry type: {@link
 * dev.quarry.extractors.pdf.PdfExtractor}.
 *
 * <p>Runs only inside a worker process. Knows nothing of other formats or of the pool.
 */
package dev.quarry.extractors.pdf;
