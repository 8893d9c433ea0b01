/**
 * Internal: the analyzer of each corpus language ({@link dev.quarry.engine.analysis.Analyzers}),
 * used alike for indexing and for queries, and the language detection of auto corpora ({@link
 * dev.quarry.engine.analysis.LanguageDetection}). Knows nothing of documents or revisions.
 */
package dev.quarry.engine.analysis;
