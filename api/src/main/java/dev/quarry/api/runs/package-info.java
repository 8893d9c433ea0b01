/**
 * Run-time retrieval as wire runs: the reference host's {@code POST /v1/runs} ({@link
 * dev.quarry.api.runs.RunsEndpoint}) and what a host needs to run retrievals as runs of its own
 * ({@link dev.quarry.api.runs.RetrievalRuns}: ids, events, idle timeouts, capacity).
 *
 * <p>A run is {@code run.started}, one {@code run.progress} per retrieval phase ({@code
 * retrieval.resolving-sources}, {@code retrieval.embedding-query} on a corpus with an embedding
 * model, {@code retrieval.searching}, {@code retrieval.completed}) and exactly one terminal event
 * ({@code run.completed}, {@code run.failed} or {@code run.cancelled}), numbered from 1 by one;
 * {@code RunEvents} guards that order against the races of the run, its idle timer and its stream
 * writer. The events are documented in {@code docs/runs.md}.
 *
 * <p>Must not know: how a retrieval searches (that is {@code corpora.run}), or how tokens are
 * stored; grants are decided by {@code Retrieval.prepare} before any event.
 */
package dev.quarry.api.runs;
