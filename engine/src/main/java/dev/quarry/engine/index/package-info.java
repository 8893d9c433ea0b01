/**
 * Internal: the write path and storage of a corpus. {@link
 * dev.quarry.engine.index.LuceneCorpusIndex} implements {@link dev.quarry.engine.CorpusIndex};
 * {@link dev.quarry.engine.index.Fields} is the Lucene schema; {@code CorpusWriter} is the single
 * writer thread that plans mutations, writes them in groups and commits once per group; {@code
 * IndexStore} owns the IndexWriter, the committed revision (kept in the commit's user data) and the
 * published {@link dev.quarry.engine.index.IndexSnapshot}.
 *
 * <p>Versions are kept with Lucene soft deletes: replacing or deleting a source stamps its old
 * documents with the superseding revision, and a retention merge policy keeps them for the retained
 * window. This package must not know about grants, HTTP or extraction.
 */
package dev.quarry.engine.index;
