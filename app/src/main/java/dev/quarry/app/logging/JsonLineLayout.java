package dev.quarry.app.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;

/**
 * One JSON object per log event, on one line:
 *
 * <pre>{@code
 * {"time":"2026-12-01T03:20:13.530Z","level":"INFO","logger":"dev.quarry.access","thread":"qtp-37",
 *  "message":"method=POST path=/v1/retrieval/search ...","requestId":"3f2a..."}
 * }</pre>
 *
 * {@code requestId} is there on every line logged while a request is served (from the MDC); {@code
 * error} holds the stack trace of an event with an exception. Newlines and control characters
 * inside values are escaped by JSON, so one event is always one line. Thread-safe.
 */
public final class JsonLineLayout extends LayoutBase<ILoggingEvent> {
  /** The MDC key the server binds a request's id to. */
  public static final String REQUEST_ID = "requestId";

  private static final JsonFactory JSON = new JsonFactory();

  @Override
  public String doLayout(ILoggingEvent event) {
    StringWriter out = new StringWriter(256);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField(
          "time", DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochMilli(event.getTimeStamp())));
      g.writeStringField("level", event.getLevel().toString());
      g.writeStringField("logger", event.getLoggerName());
      g.writeStringField("thread", event.getThreadName());
      g.writeStringField("message", event.getFormattedMessage());
      String requestId = event.getMDCPropertyMap().get(REQUEST_ID);
      if (requestId != null) {
        g.writeStringField(REQUEST_ID, requestId);
      }
      IThrowableProxy error = event.getThrowableProxy();
      if (error != null) {
        g.writeStringField("error", ThrowableProxyUtil.asString(error));
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return out.append(CoreConstants.LINE_SEPARATOR).toString();
  }
}
