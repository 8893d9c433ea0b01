/**
 * Where corpora live: the {@link dev.quarry.corpora.CorpusStore} seam and its embedded
 * implementation {@link dev.quarry.corpora.registry.LuceneCorpusStore} (one Lucene index per corpus
 * under the data folder, open corpora in a bounded Caffeine cache, the data folder locked against a
 * second process). Knows nothing of grants.
 */
package dev.quarry.corpora.registry;
