package dev.quarry.api.runs;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.engine.ErrorCode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Writes one run's events to its open {@code text/event-stream}, each as one frame ({@code id:
 * <sequence>}, {@code data: <json>}, a blank line), flushed as it comes, until the terminal event.
 * While no event comes it writes a comment frame ({@code :}) every heartbeat interval: comments are
 * not events, so clients skip them, and they never count as progress. They exist so that a client
 * that went away is noticed: a write to a closed connection fails, and the run is then cancelled
 * ({@code CANCELLED}), as is a run whose writer thread is interrupted.
 *
 * <p>One per streaming request, used by that request's thread only.
 */
final class SseWriter {
  private static final byte[] HEARTBEAT = ":\n\n".getBytes(StandardCharsets.UTF_8);

  private final OutputStream out;
  private final ObjectMapper mapper;
  private final long heartbeatNanos;

  SseWriter(OutputStream out, ObjectMapper mapper, Duration heartbeat) {
    this.out = out;
    this.mapper = mapper;
    this.heartbeatNanos = heartbeat.toNanos();
  }

  /** Writes {@code events} until the terminal one has been written or the client is gone. */
  void pump(BlockingQueue<RunEvent> events, RetrievalRuns.Run run) {
    try {
      while (true) {
        RunEvent event = events.poll(heartbeatNanos, TimeUnit.NANOSECONDS);
        if (event == null) {
          write(HEARTBEAT);
          continue;
        }
        write(frame(event));
        if (event.terminal()) {
          return;
        }
      }
    } catch (IOException e) {
      run.cancel(ErrorCode.CANCELLED, "the client closed the stream");
    } catch (InterruptedException e) {
      run.cancel(ErrorCode.CANCELLED, "the server stopped streaming the run");
      Thread.currentThread().interrupt();
    }
  }

  private byte[] frame(RunEvent event) throws IOException {
    // Jackson escapes line breaks inside strings, so the JSON is one line: one data field.
    String json = mapper.writeValueAsString(event.toJson());
    return ("id: " + event.sequence() + "\ndata: " + json + "\n\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  private void write(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }
}
