package dev.quarry.client;

import java.util.List;

/**
 * {@code sources/batch}: the one revision of the batch and a receipt per operation, in order.
 *
 * @quarry.stable
 */
public record BatchResult(String corpus, String corpusId, long revision, List<Receipt> results) {}
