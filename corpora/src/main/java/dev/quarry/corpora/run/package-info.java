/**
 * Run-time retrieval for a host: {@link dev.quarry.corpora.run.Retrieval} checks the {@code
 * retrieval} run option before the host's stream opens, then searches while reporting real progress
 * ({@link dev.quarry.corpora.run.RetrievalProgress}) and honouring the host's {@link
 * dev.quarry.corpora.run.Cancellation}. Knows nothing of HTTP, event envelopes or idle timers:
 * those are the host's.
 */
package dev.quarry.corpora.run;
