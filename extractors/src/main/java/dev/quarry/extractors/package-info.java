/**
 * Bytes to text, isolated from hostile input.
 *
 * <p>The entry type is {@link dev.quarry.extractors.Extractors}: build one, share it, close it.
 *
 * <pre>{@code
 * try (Extractors extractors = Extractors.builder()
 *     .limits(ExtractionLimits.defaults().withMaxDocumentPages(500))
 *     .workers(2)
 *     .build()) {
 *   Extraction extraction = extractors.extract(uploadedFile, declaredMediaType);
 *   // extraction.text(), pageStarts(), title(), outline(), warnings(), markdownHeadings(), tables()
 * } catch (ExtractionException e) {
 *   // e.failure() is the contract's error code: DOCUMENT_TOO_LARGE, DOCUMENT_ENCRYPTED, ...
 * }
 * }</pre>
 *
 * <ul>
 *   <li>{@link dev.quarry.extractors.Extraction}: the text, page starts, title, outline, media type
 *       detected from the bytes, extractor name and warnings.
 *   <li>{@link dev.quarry.extractors.ExtractionLimits}: bytes, pages, characters and time per
 *       document.
 *   <li>{@link dev.quarry.extractors.ExtractionException}: a typed failure whose {@link
 *       dev.quarry.extractors.ExtractionException.Failure} names the error code.
 * </ul>
 *
 * <p>Every document is parsed in a worker process (package {@code worker}), never on the caller's
 * heap. This package knows nothing of Lucene, corpora or HTTP; it turns files into text and says
 * why when it cannot.
 */
package dev.quarry.extractors;
