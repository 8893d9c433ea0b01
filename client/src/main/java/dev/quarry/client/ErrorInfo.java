package dev.quarry.client;

/**
 * The inside of the error envelope, as the server sent it. {@code code} is kept verbatim, also when
 * this client does not know it: an unknown code is still a failure, with its message, its
 * retryability and its outcome.
 *
 * @param field for {@code INVALID_REQUEST}, the path of the offending field; else null
 * @param outcome {@code "uncertain"} when a mutation's effect is unknown; else null
 * @quarry.stable
 */
public record ErrorInfo(
    String code, String message, boolean retryable, String field, String outcome) {
  /** Whether the effect of the failed mutation is unknown and must be reconciled. */
  public boolean uncertain() {
    return "uncertain".equals(outcome);
  }
}
