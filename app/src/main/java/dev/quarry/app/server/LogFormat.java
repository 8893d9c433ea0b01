package dev.quarry.app.server;

import java.util.Locale;

/**
 * How the server writes its log lines: for people ({@link #TEXT}) or for log shippers ({@link
 * #JSON}).
 */
public enum LogFormat {
  /**
   * {@code 2026-12-01T03:20:13.530+0000 [thread] INFO logger request=ID - message}, one line per
   * event ({@code request=ID} on the lines logged while a request is served).
   */
  TEXT,
  /** One JSON object per line: time, level, logger, thread, message, requestId, error. */
  JSON;

  /** The format named {@code name} ({@code text}, {@code json}), or null. */
  public static LogFormat fromName(String name) {
    for (LogFormat f : values()) {
      if (f.name().toLowerCase(Locale.ROOT).equals(name)) {
        return f;
      }
    }
    return null;
  }
}
