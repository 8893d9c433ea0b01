/**
 * Internal: the analyzer of each corpus language ({@link dev.quarry.engine.analysis.Analyzers}), used
 * alike for indexing and for queries. Knows nothing of documents or revisions.
 */
package dev.quarry.engine.analysis;
