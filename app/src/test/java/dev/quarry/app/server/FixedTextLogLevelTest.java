package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.quarry.api.routes.ErrorResponses;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A message swapped for fixed text is logged whole, through the server's logging: as a warning when
 * the error is the client's (4xx), so no request can write ERROR lines at will; as an error when it
 * is the server's.
 */
class FixedTextLogLevelTest {
  private final Logger logger = (Logger) LoggerFactory.getLogger(ErrorResponses.class);
  private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

  @BeforeEach
  void listen() {
    lines.start();
    logger.addAppender(lines);
  }

  @AfterEach
  void stopListening() {
    logger.detachAppender(lines);
  }

  @Test
  void aClientErrorSwappedForFixedText_isAWarning() {
    for (ErrorCode code : List.of(ErrorCode.INVALID_REQUEST, ErrorCode.NOT_FOUND)) {
      lines.list.clear();
      ErrorResponses.of(new QuarryException(code, "no endpoint GET /Main.java"));
      assertEquals(1, lines.list.size(), lines.list::toString);
      assertEquals(Level.WARN, lines.list.get(0).getLevel(), lines.list::toString);
    }
  }

  @Test
  void aServerFaultSwappedForFixedText_isAnError() {
    ErrorResponses.of(new QuarryException(ErrorCode.INTERNAL, "failed at Foo.java:12"));
    assertEquals(1, lines.list.size(), lines.list::toString);
    assertEquals(Level.ERROR, lines.list.get(0).getLevel(), lines.list::toString);
  }
}
