package dev.quarry.client;

import java.util.List;

/**
 * What a retrieval run found: passages shaped as search results, at one revision.
 *
 * @quarry.experimental
 */
public record RunResult(String corpus, String corpusId, long revision, List<Hit> passages) {}
