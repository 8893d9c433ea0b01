package dev.quarry.api.wire;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.util.List;

/** The wire version and the headers of the contract. */
public final class ProtocolHeaders {
  /** Sent on every response; a request may send it to select a version. */
  public static final String VERSION_HEADER = "AgenticDriver-Version";

  public static final String VERSION = "1.0";
  public static final List<String> SUPPORTED_VERSIONS = List.of(VERSION);
  public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

  /** Set to {@code true} on a mutation's response when it replays an earlier request's receipt. */
  public static final String IDEMPOTENT_REPLAYED = "Idempotent-Replayed";

  /** Request headers a browser may send, for CORS. */
  public static final List<String> CORS_REQUEST_HEADERS =
      List.of(
          "Authorization",
          "Content-Type",
          VERSION_HEADER,
          "AgenticDriver-Accept-Optional-Events",
          IDEMPOTENCY_KEY);

  private ProtocolHeaders() {}

  /**
   * Accepts an absent header (version 1.0) or exactly {@code 1.0}; anything else is
   * UNSUPPORTED_PROTOCOL_VERSION.
   */
  public static void checkRequestedVersion(String header) {
    if (header == null || SUPPORTED_VERSIONS.contains(header.strip())) {
      return;
    }
    String shown = header.length() > 32 ? header.substring(0, 32) + "..." : header;
    throw new QuarryException(
        ErrorCode.UNSUPPORTED_PROTOCOL_VERSION,
        "AgenticDriver-Version '"
            + shown
            + "' is not supported; supported versions: "
            + String.join(", ", SUPPORTED_VERSIONS));
  }
}
