package dev.quarry.api.runs;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.Set;

/**
 * One wire event of a run: its envelope ({@code type}, {@code runId}, {@code sequence}, {@code
 * timestamp}) and the fields of its type ({@code phase} and {@code context}, {@code result}, {@code
 * error}).
 *
 * @param data the type's own fields; copied into {@link #toJson} after the envelope
 */
public record RunEvent(
    String type, String runId, long sequence, Instant timestamp, ObjectNode data) {
  public static final String STARTED = "run.started";
  public static final String PROGRESS = "run.progress";
  public static final String COMPLETED = "run.completed";
  public static final String FAILED = "run.failed";
  public static final String CANCELLED = "run.cancelled";

  /** The event types that end a run; exactly one of them is a run's last event. */
  public static final Set<String> TERMINAL_TYPES = Set.of(COMPLETED, FAILED, CANCELLED);

  private static final DateTimeFormatter ISO_MILLIS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  public RunEvent {
    if (type == null || type.isEmpty()) {
      throw new IllegalArgumentException("an event has a nonempty type");
    }
    if (runId == null || runId.isEmpty()) {
      throw new IllegalArgumentException("an event has a nonempty runId");
    }
    if (sequence < 1) {
      throw new IllegalArgumentException("sequence starts at 1; got " + sequence);
    }
    Objects.requireNonNull(timestamp, "timestamp");
    data = data == null ? JsonNodeFactory.instance.objectNode() : data.deepCopy();
  }

  public boolean terminal() {
    return TERMINAL_TYPES.contains(type);
  }

  /** The event as sent: the envelope first, then the type's fields. */
  public ObjectNode toJson() {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("type", type);
    out.put("runId", runId);
    out.put("sequence", sequence);
    out.put("timestamp", ISO_MILLIS.format(timestamp));
    out.setAll(data);
    return out;
  }
}
