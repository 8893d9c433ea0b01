/**
 * Grants and access decisions: {@link dev.quarry.corpora.access.Access} (who asks and what they
 * were granted) and {@link dev.quarry.corpora.access.AccessPolicy} (what that allows). Refusals
 * never name what lies outside the grants. Knows nothing of tokens or how callers authenticate.
 */
package dev.quarry.corpora.access;
