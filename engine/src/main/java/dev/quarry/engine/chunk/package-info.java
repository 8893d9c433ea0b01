/**
 * Chunking: splitting a source's text into passages sized for retrieval.
 *
 * <p>The entry point is {@link dev.quarry.engine.chunk.Chunker#split}; it returns {@link
 * dev.quarry.engine.chunk.ChunkSpan}s, each a {@code [start, end)} range of the original text with
 * the pages it spans. Everything else here is package-private machinery:
 *
 * <ul>
 *   <li>{@code TokenScanner} cuts the text into tokens (words, CJK letters, pieces of overlong
 *       runs) held in a sliding {@code Tokens} window, noting the line, paragraph, sentence, page
 *       and heading boundaries before each; {@code Sentences}, {@code Markdown} and {@code Scripts}
 *       hold the rules it applies.
 *   <li>{@code SpanPacker} packs tokens into chunks: at most {@code maxWords}, cut at the strongest
 *       boundary that keeps the chunk at least half full, with overlap after a cut.
 *   <li>{@code PageMap} validates page starts and turns offsets into page numbers.
 *   <li>{@code HeadingPaths} gives each span its section: the Markdown headings above it.
 *   <li>{@code Chunker} itself cuts a text's tables (offsets it is given) apart from the rest:
 *       whole rows packed into chunks of their own, each carrying its table and rows.
 * </ul>
 *
 * <p>This package knows text, offsets and pages only: nothing of Lucene, of file formats (an
 * extractor hands it plain text and page starts) or of how chunks are stored.
 */
package dev.quarry.engine.chunk;
