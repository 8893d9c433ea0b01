package dev.quarry.client;

/**
 * The server refused or failed a request and said why in its error envelope. {@link #code()} is the
 * server's code verbatim (branch on it, never on the message); the subclass is chosen by the HTTP
 * status, so a code this client has never heard of still arrives as the right kind of failure.
 *
 * @quarry.stable
 */
public class ApiException extends QuarryClientException {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final transient ErrorInfo error;

  public ApiException(int status, ErrorInfo error) {
    super(status + " " + error.code() + ": " + error.message(), null);
    this.status = status;
    this.error = error;
  }

  public int status() {
    return status;
  }

  public ErrorInfo error() {
    return error;
  }

  public String code() {
    return error.code();
  }

  public boolean retryable() {
    return error.retryable();
  }

  /** Whether a mutation's effect is unknown ({@code outcome: "uncertain"}). */
  public boolean uncertain() {
    return error.uncertain();
  }

  /** The type of the failure answered with {@code status}. */
  static ApiException of(int status, ErrorInfo error) {
    return switch (status) {
      case 400, 413, 415, 422 -> new InvalidRequestException(status, error);
      case 401 -> new UnauthenticatedException(status, error);
      case 403 -> new ForbiddenException(status, error);
      case 404, 410 -> new NotFoundException(status, error);
      case 409 -> new ConflictException(status, error);
      case 429, 503 -> new UnavailableException(status, error);
      default -> new ApiException(status, error);
    };
  }

  /** 400, 413, 415, 422: the request (or the document it carried) is not acceptable as it is. */
  public static final class InvalidRequestException extends ApiException {
    private static final long serialVersionUID = 1L;

    InvalidRequestException(int status, ErrorInfo error) {
      super(status, error);
    }

    /** The path of the offending field ({@code topK}, {@code operations[2].text}), or null. */
    public String field() {
      return error().field();
    }
  }

  /** 401: no, malformed or unknown token. */
  public static final class UnauthenticatedException extends ApiException {
    private static final long serialVersionUID = 1L;

    UnauthenticatedException(int status, ErrorInfo error) {
      super(status, error);
    }
  }

  /** 403: the token's grants do not allow it (whether or not the corpus exists). */
  public static final class ForbiddenException extends ApiException {
    private static final long serialVersionUID = 1L;

    ForbiddenException(int status, ErrorInfo error) {
      super(status, error);
    }
  }

  /** 404 and 410: no such corpus, source or endpoint, or a revision or cursor past retention. */
  public static final class NotFoundException extends ApiException {
    private static final long serialVersionUID = 1L;

    NotFoundException(int status, ErrorInfo error) {
      super(status, error);
    }
  }

  /** 409: a conflict with the current state (revision, corpus id, idempotency key, name in use). */
  public static final class ConflictException extends ApiException {
    private static final long serialVersionUID = 1L;

    ConflictException(int status, ErrorInfo error) {
      super(status, error);
    }
  }

  /**
   * 429 and 503: overloaded or unavailable for now; {@link #retryable()} says whether to try again.
   */
  public static final class UnavailableException extends ApiException {
    private static final long serialVersionUID = 1L;

    UnavailableException(int status, ErrorInfo error) {
      super(status, error);
    }
  }
}
