package dev.quarry.app.cli;

/**
 * A mistake of the person at the command line (a missing token, an unreachable server): the command
 * prints {@code quarry: MESSAGE} on one line and exits with 2, without a stack trace.
 */
final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
