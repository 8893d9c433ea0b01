package dev.quarry.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The events of one run as they arrive over server-sent events, each checked before it is handed
 * out: a nonempty {@code type} and {@code runId} (the same for every event), a {@code timestamp}, a
 * {@code sequence} from 1 growing by exactly one, {@code run.started} first, and exactly one
 * terminal event ({@code run.completed}, {@code run.failed}, {@code run.cancelled}) last. An
 * unknown event is skipped when it carries {@code "optional": true} and is otherwise {@code
 * UNSUPPORTED_EVENT}; anything malformed or out of order, or a stream that ends without its
 * terminal event, is {@code INVALID_STREAM} ({@link ProtocolException}).
 *
 * <p>Closing the stream before its end cancels the run. Not thread-safe.
 *
 * @quarry.experimental
 */
public final class RunStream implements Iterator<RunEvent>, AutoCloseable {
  private static final Set<String> KNOWN =
      Set.of(
          RunEvent.STARTED,
          RunEvent.PROGRESS,
          RunEvent.COMPLETED,
          RunEvent.FAILED,
          RunEvent.CANCELLED);
  private final InputStream body;
  private final BufferedReader lines;
  private RunEvent pending;
  private String runId;
  private long sequence;
  private boolean started;
  private boolean ended;

  RunStream(InputStream body) {
    this.body = body;
    this.lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
  }

  /** The run's id, once its first event has been read; else null. */
  public String runId() {
    return runId;
  }

  @Override
  public boolean hasNext() {
    if (pending == null && !ended) {
      pending = readEvent();
    }
    return pending != null;
  }

  @Override
  public RunEvent next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    RunEvent e = pending;
    pending = null;
    return e;
  }

  /**
   * Reads the rest of the run and returns its result; {@link RunFailedException} when it ended with
   * {@code run.failed} or {@code run.cancelled}.
   */
  public RunResult result() {
    try (this) {
      RunEvent last = null;
      while (hasNext()) {
        last = next();
      }
      if (last == null) {
        throw new IllegalStateException("the run's events were already read or the stream closed");
      }
      assert last.terminal() : "a stream ends only after its terminal event";
      if (RunEvent.COMPLETED.equals(last.type())) {
        return last.result();
      }
      throw new RunFailedException(
          last.runId(), RunEvent.CANCELLED.equals(last.type()), last.error());
    }
  }

  @Override
  public void close() {
    ended = true;
    try {
      body.close();
    } catch (IOException ignored) {
      // closing is how a run is cancelled; a failure to close changes nothing for the caller
    }
  }

  static boolean cancelled(String code) {
    return "CANCELLED".equals(code) || "IDLE_TIMEOUT".equals(code);
  }

  /** The next known event, skipping optional unknown ones; null after the terminal event. */
  private RunEvent readEvent() {
    while (true) {
      String data = readFrame();
      if (data == null) {
        close();
        throw invalid("the stream ended without a terminal event");
      }
      JsonNode event;
      try {
        event = Transport.JSON.readTree(data);
      } catch (IOException e) {
        close();
        throw new ProtocolException(ProtocolException.INVALID_STREAM, "an event is not JSON", e);
      }
      RunEvent known = check(event);
      if (known == null) {
        continue; // an unknown optional event: validated, counted, skipped
      }
      if (known.terminal()) {
        expectEnd();
      }
      return known;
    }
  }

  private RunEvent check(JsonNode e) {
    if (e == null || !e.isObject()) {
      throw invalid("an event is not a JSON object");
    }
    String type = nonEmpty(e, "type");
    String id = nonEmpty(e, "runId");
    nonEmpty(e, "timestamp");
    JsonNode seq = e.get("sequence");
    if (seq == null || !seq.isIntegralNumber() || seq.longValue() != sequence + 1) {
      throw invalid(
          "event sequence " + seq + " after " + sequence + "; expected " + (sequence + 1));
    }
    if (runId == null) {
      runId = id;
    } else if (!runId.equals(id)) {
      throw invalid("an event of run " + id + " inside run " + runId);
    }
    sequence = seq.longValue();
    if (!KNOWN.contains(type)) {
      JsonNode optional = e.get("optional");
      if (optional != null && optional.isBoolean() && optional.booleanValue()) {
        return null;
      }
      close();
      throw new ProtocolException(
          ProtocolException.UNSUPPORTED_EVENT, "event type '" + type + "' is not optional");
    }
    if (started == RunEvent.STARTED.equals(type)) {
      throw invalid(
          started ? "a second run.started" : "the first event is " + type + ", not run.started");
    }
    started = true;
    RunResult result = null;
    ErrorInfo error = null;
    if (RunEvent.COMPLETED.equals(type)) {
      if (!e.path("result").isObject()) {
        throw invalid("run.completed without a result");
      }
      result = Transport.read(e.get("result"), RunResult.class);
    } else if (RunEvent.FAILED.equals(type) || RunEvent.CANCELLED.equals(type)) {
      if (!e.path("error").isObject() || !e.path("error").path("code").isTextual()) {
        throw invalid(type + " without an error code");
      }
      error = Transport.errorInfo(e.get("error"));
    } else if (RunEvent.PROGRESS.equals(type) && !e.path("phase").isTextual()) {
      throw invalid("run.progress without a phase");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> context =
        e.has("context") ? Transport.JSON.convertValue(e.get("context"), Map.class) : null;
    return new RunEvent(
        type,
        id,
        sequence,
        e.get("timestamp").asText(),
        e.path("phase").textValue(),
        context,
        result,
        error);
  }

  /** After the terminal event nothing but the end of the stream may come. */
  private void expectEnd() {
    String after = readFrame();
    if (after != null) {
      close();
      throw invalid("an event after the terminal event");
    }
    close();
  }

  private String nonEmpty(JsonNode e, String field) {
    JsonNode v = e.get(field);
    if (v == null || !v.isTextual() || v.textValue().isEmpty()) {
      throw invalid("an event without a nonempty " + field);
    }
    return v.textValue();
  }

  private ProtocolException invalid(String message) {
    close();
    return new ProtocolException(ProtocolException.INVALID_STREAM, message);
  }

  /**
   * The data of the next SSE frame (its {@code data} lines joined by newlines), skipping comments
   * and frames without data; null at the end of the stream.
   */
  private String readFrame() {
    StringBuilder data = null;
    try {
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.isEmpty()) {
          if (data != null) {
            return data.toString();
          }
          continue;
        }
        if (line.startsWith(":")) {
          continue;
        }
        int colon = line.indexOf(':');
        String name = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) {
          value = value.substring(1);
        }
        if (name.equals("data")) {
          data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
        }
      }
      return data == null ? null : data.toString();
    } catch (IOException e) {
      if (ended) {
        return null;
      }
      close();
      throw new TransportException("the run's stream broke: " + e, e);
    }
  }
}
