package dev.quarry.client;

/**
 * A corpus as {@code corpora/create}, {@code corpora/read} and {@code corpora/list} describe it
 * ({@code settings} and {@code createdAt} are null in lists).
 *
 * @param sources how many sources the token may see
 * @quarry.stable
 */
public record Corpus(
    String corpus,
    String corpusId,
    long revision,
    long sources,
    Settings settings,
    String createdAt) {}
