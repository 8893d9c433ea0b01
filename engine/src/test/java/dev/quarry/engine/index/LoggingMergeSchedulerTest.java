package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class LoggingMergeSchedulerTest {
  @Test
  void mergeFailures_areLoggedOnceWithTheCorpus_neverThrownOnTheMergeThread() throws IOException {
    Logger logger = Logger.getLogger(LoggingMergeScheduler.class.getName());
    List<LogRecord> records = new CopyOnWriteArrayList<>();
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
              records.add(record);
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    logger.addHandler(capture);
    try (LoggingMergeScheduler scheduler =
        new LoggingMergeScheduler("handbook", dev.quarry.engine.EngineListener.NONE)) {
      // What Lucene's default scheduler rethrows on the merge thread (a raw trace on stderr).
      scheduler.handleMergeException(new IOException("No space left on device"));
      scheduler.handleMergeException(new IOException("No space left on device"));
      scheduler.handleMergeException(new IOException("No space left on device"));
      assertEquals(3, scheduler.failures());
    } finally {
      logger.removeHandler(capture);
    }
    assertEquals(1, records.size(), "one log line for repeated failures: " + records);
    assertEquals(Level.SEVERE, records.get(0).getLevel());
    assertTrue(records.get(0).getMessage().contains("'handbook'"), records.get(0).getMessage());
    assertTrue(records.get(0).getThrown() instanceof IOException);
  }
}
