package dev.quarry.client;

/**
 * The server's answer breaks the wire protocol as this client implements it. {@link #code()} is one
 * of {@link #UNSUPPORTED_PROTOCOL_VERSION} (the answer selects a wire version this client does not
 * implement; its body was not read), {@link #INVALID_STREAM} (a malformed or out-of-order event
 * stream, or one that ended without its terminal event), {@link #UNSUPPORTED_EVENT} (an unknown
 * event not marked optional) or {@link #INVALID_RESPONSE} (a body that is not the JSON expected, or
 * a receipt whose content hash is not the one sent). Never retried automatically.
 *
 * @quarry.stable
 */
public final class ProtocolException extends QuarryClientException {
  public static final String UNSUPPORTED_PROTOCOL_VERSION = "UNSUPPORTED_PROTOCOL_VERSION";
  public static final String INVALID_STREAM = "INVALID_STREAM";
  public static final String UNSUPPORTED_EVENT = "UNSUPPORTED_EVENT";
  public static final String INVALID_RESPONSE = "INVALID_RESPONSE";
  private static final long serialVersionUID = 1L;
  private final String code;

  public ProtocolException(String code, String message) {
    this(code, message, null);
  }

  public ProtocolException(String code, String message, Throwable cause) {
    super(code + ": " + message, cause);
    this.code = code;
  }

  public String code() {
    return code;
  }
}
