package dev.quarry.extractors.worker;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionException;

/**
 * A worker's answer: an extraction, or a failure code with a message. Sent as one JSON frame.
 *
 * @param extraction the text and structure, when extraction succeeded
 * @param failure the failure's code, when it failed
 * @param message the failure's message for the client, when it failed
 * @param detail what the parser said, for the parent's log only; null when nothing
 */
public record WorkerResponse(
    Extraction extraction, ExtractionException.Failure failure, String message, String detail) {

  static WorkerResponse success(Extraction extraction) {
    return new WorkerResponse(extraction, null, null, null);
  }

  static WorkerResponse failed(ExtractionException e) {
    return new WorkerResponse(null, e.failure(), e.getMessage(), e.detail());
  }

  /** The extraction, or the failure thrown as the caller's typed error. */
  Extraction extractionOrThrow() throws ExtractionException {
    if (extraction != null) {
      return extraction;
    }
    throw new ExtractionException(
        failure == null ? ExtractionException.Failure.EXTRACTION_FAILED : failure,
        message == null ? "The worker gave no reason." : message,
        detail);
  }
}
