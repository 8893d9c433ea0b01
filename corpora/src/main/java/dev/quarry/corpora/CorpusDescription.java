package dev.quarry.corpora;

import dev.quarry.engine.CorpusInfo;

/**
 * A corpus as a caller sees it: its identity and settings, its latest revision, and how many of its
 * sources the caller may see.
 *
 * @quarry.stable
 */
public record CorpusDescription(CorpusInfo info, long revision, long sources) {}
