package dev.quarry.engine;

/**
 * The one exception type of Quarry's core: a stable {@link ErrorCode}, a message for people, and
 * optionally the path of the offending request field and whether a mutation's outcome is unknown.
 *
 * @quarry.stable
 */
public class QuarryException extends RuntimeException {
  private final ErrorCode code;
  private final String field;
  private final boolean uncertain;

  public QuarryException(ErrorCode code, String message) {
    this(code, message, null, false, null);
  }

  public QuarryException(ErrorCode code, String message, Throwable cause) {
    this(code, message, null, false, cause);
  }

  public QuarryException(
      ErrorCode code, String message, String field, boolean uncertain, Throwable cause) {
    super(message, cause);
    if (code == null) {
      throw new NullPointerException("code");
    }
    this.code = code;
    this.field = field;
    this.uncertain = uncertain;
  }

  /**
   * An {@link ErrorCode#INVALID_REQUEST} naming the field path, such as {@code operations[2].text}.
   */
  public static QuarryException invalid(String field, String message) {
    return new QuarryException(ErrorCode.INVALID_REQUEST, message, field, false, null);
  }

  public ErrorCode code() {
    return code;
  }

  /** The path of the offending request field, or null. */
  public String field() {
    return field;
  }

  /** True when a mutation may or may not have taken effect; the caller must reconcile. */
  public boolean uncertain() {
    return uncertain;
  }

  public boolean retryable() {
    return code.retryable();
  }

  /**
   * The same error with its field path prefixed, e.g. {@code text} becomes {@code
   * operations[3].text}.
   */
  public QuarryException withFieldPrefix(String prefix) {
    String path =
        field == null ? prefix : field.startsWith("[") ? prefix + field : prefix + "." + field;
    QuarryException e = new QuarryException(code, getMessage(), path, uncertain, getCause());
    e.setStackTrace(getStackTrace());
    return e;
  }
}
