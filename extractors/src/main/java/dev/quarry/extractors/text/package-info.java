/**
 * Text assembly shared by the extractors ({@link dev.quarry.extractors.text.PagedTextBuilder}:
 * text, page starts and the character and page budget) and the direct reader of plain text and
 * Markdown with charset detection ({@link dev.quarry.extractors.text.PlainTextExtractor}), which
 * reads Markdown pipe tables as tables ({@code MarkdownTables}) and patents in the USPTO's
 * full-text format as headed Markdown ({@code PatentFullText}).
 *
 * <p>Knows no document format beyond plain text, and nothing of processes.
 */
package dev.quarry.extractors.text;
