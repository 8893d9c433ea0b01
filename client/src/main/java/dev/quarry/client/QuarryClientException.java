package dev.quarry.client;

/**
 * Everything this client throws. Subclasses say what went wrong; none is checked.
 *
 * @quarry.stable
 */
public class QuarryClientException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public QuarryClientException(String message, Throwable cause) {
    super(message, cause);
  }
}
