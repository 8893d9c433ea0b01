package dev.quarry.corpora;

import dev.quarry.engine.SourceChunks;

/**
 * A page of a source's chunks together with the corpus they were read from.
 *
 * @quarry.stable
 */
public record SourceText(String corpus, String corpusId, SourceChunks chunks) {}
