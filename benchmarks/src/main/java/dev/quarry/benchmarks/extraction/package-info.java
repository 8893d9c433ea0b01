/**
 * What extraction is measured on and against: {@link
 * dev.quarry.benchmarks.extraction.SharedDocuments} (the shared good documents by their manifest)
 * and {@link dev.quarry.benchmarks.extraction.Pdftotext} (poppler's command-line extractor over the
 * same PDFs, the reference for PDF speed).
 */
package dev.quarry.benchmarks.extraction;
