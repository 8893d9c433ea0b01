/**
 * Isolation: a bounded pool of long-lived worker JVMs that extract one document at a time. Entry
 * type: {@link dev.quarry.extractors.worker.WorkerPool}; the worker's own entry point is {@link
 * dev.quarry.extractors.worker.WorkerMain}.
 *
 * <p>Parent and worker speak length-prefixed JSON frames over the worker's stdin and stdout
 * (request: {@link dev.quarry.extractors.worker.WorkerRequest}; answer: {@link
 * dev.quarry.extractors.worker.WorkerResponse}). The parent enforces the per-document deadline by
 * killing the process; each worker has its own {@code -Xmx} and exits on OutOfMemoryError. Knows
 * how to route a document to an extractor, not how extractors work.
 */
package dev.quarry.extractors.worker;
