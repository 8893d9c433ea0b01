package dev.quarry.app.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import dev.quarry.app.server.LogFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the format of the server's log lines at start-up. Logging is process-wide by nature, so
 * this changes the one Logback configuration of the process: the {@code STDERR} appender of {@code
 * logback.xml}.
 */
public final class Logging {
  /** The appender {@code logback.xml} writes with. */
  static final String APPENDER = "STDERR";

  private Logging() {}

  /**
   * Writes log lines in {@code format} from now on. {@link LogFormat#TEXT} keeps {@code
   * logback.xml}'s pattern. When Logback is not the backend, or a configuration of the user's own
   * ({@code -Dlogback.configurationFile}) has no {@code STDERR} appender, that configuration stays
   * and a warning says so.
   */
  public static void use(LogFormat format) {
    if (format == LogFormat.TEXT) {
      return;
    }
    Logger log = LoggerFactory.getLogger(Logging.class);
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      log.warn("log format {} ignored: the logging backend is not Logback", format);
      return;
    }
    Appender<ILoggingEvent> appender =
        context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender(APPENDER);
    if (!(appender instanceof OutputStreamAppender<ILoggingEvent> stream)) {
      log.warn(
          "log format {} ignored: the Logback configuration has no {} appender to change",
          format,
          APPENDER);
      return;
    }
    JsonLineLayout layout = new JsonLineLayout();
    layout.setContext(context);
    layout.start();
    LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
    encoder.setContext(context);
    encoder.setLayout(layout);
    encoder.start();
    // Swapped under the appender's lock by setEncoder; stopping first keeps a line from being cut.
    stream.stop();
    stream.setEncoder(encoder);
    stream.start();
  }
}
