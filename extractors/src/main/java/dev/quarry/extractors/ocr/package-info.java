/**
 * Optical character recognition with Tesseract: the bounded {@code tesseract} process ({@link
 * dev.quarry.extractors.ocr.Tesseract}), its TSV output read back into text ({@link
 * dev.quarry.extractors.ocr.TesseractTsv}), the per-document tally of pages and confidence ({@link
 * dev.quarry.extractors.ocr.Recognizer}) and the extractor of images ({@link
 * dev.quarry.extractors.ocr.ImageExtractor}). Runs inside extraction workers only.
 */
package dev.quarry.extractors.ocr;
