package dev.quarry.client;

import java.util.List;

/** {@code search}: the revision answered at (ask again with it for the same answer) and the results. */
public record SearchResult(String corpus, String corpusId, long revision, long tookMs, List<Hit> results) {}
