package dev.quarry.client;

import java.util.List;

/**
 * One page of a keyset listing. {@code next} is the cursor (for lists) or the revision (for
 * history, as a string) to continue from; null on the last page.
 *
 * @quarry.stable
 */
public record Page<T>(List<T> items, String next) {}
