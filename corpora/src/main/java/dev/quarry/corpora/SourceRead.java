package dev.quarry.corpora;

import dev.quarry.engine.SourceState;

/**
 * A source's state together with the corpus revision it was read at.
 *
 * @quarry.stable
 */
public record SourceRead(String corpus, String corpusId, long revision, SourceState state) {}
