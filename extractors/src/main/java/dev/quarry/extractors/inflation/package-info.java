/**
 * The bounds past which a compressed document is a decompression bomb, shared by every guard that
 * inflates a container's parts before a parser does (zip parts in package {@code tika}, PDF streams
 * in package {@code pdf}), and the count of one document's inflated bytes against them ({@link
 * dev.quarry.extractors.inflation.InflationBudget}).
 *
 * <p>Knows no format and decodes nothing itself.
 */
package dev.quarry.extractors.inflation;
