package dev.quarry.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A run's event stream as a client reads it, and the contract's envelope rules checked on it: every
 * frame one {@code id} and one {@code data} line, the id equal to the sequence, sequences from 1 by
 * one, a constant nonempty runId, ISO-8601 UTC timestamps with milliseconds, {@code run.started}
 * first, the progress phases in order with their context keys, exactly one terminal event and
 * nothing after it.
 */
public final class RunStream {
  public static final ObjectMapper JSON = new ObjectMapper();
  public static final Set<String> REQUIRED_TYPES =
      Set.of("run.started", "run.progress", "run.completed", "run.failed", "run.cancelled");
  public static final Set<String> TERMINAL_TYPES =
      Set.of("run.completed", "run.failed", "run.cancelled");
  public static final List<String> PHASES =
      List.of("retrieval.resolving-sources", "retrieval.searching", "retrieval.completed");

  /** The phase a run on a corpus with an embedding model adds before searching. */
  public static final String EMBEDDING_QUERY = "retrieval.embedding-query";

  public static final List<Set<String>> PHASE_CONTEXT_KEYS =
      List.of(
          Set.of("corpus"),
          Set.of("corpus", "revision", "sources"),
          Set.of("corpus", "revision", "results"));
  private static final Pattern TIMESTAMP =
      Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");

  public final List<JsonNode> events;

  /** Comment frames seen (heartbeats); never events. */
  public final int comments;

  private RunStream(List<JsonNode> events, int comments) {
    this.events = List.copyOf(events);
    this.comments = comments;
  }

  /**
   * Parses a whole {@code text/event-stream} body; fails on anything but id, data and comment
   * lines.
   */
  public static RunStream parse(String body) {
    List<JsonNode> events = new ArrayList<>();
    int comments = 0;
    String id = null;
    String data = null;
    for (String line : body.split("\n", -1)) {
      if (line.isEmpty()) {
        if (data != null) {
          JsonNode event = read(data);
          assertEquals(
              String.valueOf(event.path("sequence").asLong()),
              id,
              "a frame's id is its event's sequence");
          events.add(event);
        }
        id = null;
        data = null;
      } else if (line.startsWith(":")) {
        comments++;
      } else if (line.startsWith("id: ")) {
        assertEquals(null, id, "one id per frame");
        id = line.substring(4);
      } else if (line.startsWith("data: ")) {
        assertEquals(null, data, "one data line per frame");
        data = line.substring(6);
      } else {
        fail("unexpected line in the stream: " + line);
      }
    }
    assertEquals(null, data, "the stream ends after a complete frame");
    return new RunStream(events, comments);
  }

  private static JsonNode read(String data) {
    try {
      return JSON.readTree(data);
    } catch (IOException e) {
      throw new UncheckedIOException("an event's data is not JSON: " + data, e);
    }
  }

  /** Checks every envelope rule and returns this stream's terminal event. */
  public JsonNode checkEnvelope() {
    assertFalse(events.isEmpty(), "a run sends at least run.started and a terminal event");
    String runId = events.get(0).path("runId").asText();
    assertTrue(runId.startsWith("run_") && runId.length() > 4, "runId: " + runId);
    assertEquals("run.started", events.get(0).path("type").asText());
    int terminals = 0;
    int phase = 0;
    for (int i = 0; i < events.size(); i++) {
      JsonNode e = events.get(i);
      String type = e.path("type").asText();
      assertTrue(REQUIRED_TYPES.contains(type), "only the required vocabulary: " + type);
      assertFalse(e.has("optional"), "no advisory events");
      assertEquals(runId, e.path("runId").asText(), "runId is constant");
      assertTrue(e.path("sequence").isIntegralNumber(), "sequence is an integer");
      assertEquals(i + 1, e.path("sequence").asLong(), "sequences start at 1 and grow by one");
      String timestamp = e.path("timestamp").asText();
      assertTrue(
          TIMESTAMP.matcher(timestamp).matches(), "ISO-8601 UTC with milliseconds: " + timestamp);
      assertNotNull(Instant.parse(timestamp));
      if (type.equals("run.progress") && e.path("phase").asText().equals(EMBEDDING_QUERY)) {
        // Only on a corpus with an embedding model, between resolving the sources and searching.
        assertEquals(
            1, phase, "retrieval.embedding-query comes right after retrieval.resolving-sources");
        Set<String> keys = new HashSet<>();
        e.path("context").fieldNames().forEachRemaining(keys::add);
        assertEquals(Set.of("corpus", "model"), keys, "context of " + EMBEDDING_QUERY);
      } else if (type.equals("run.progress")) {
        assertTrue(phase < PHASES.size(), "no phase after retrieval.completed");
        assertEquals(PHASES.get(phase), e.path("phase").asText(), "phases in order");
        Set<String> keys = new HashSet<>();
        e.path("context").fieldNames().forEachRemaining(keys::add);
        assertEquals(PHASE_CONTEXT_KEYS.get(phase), keys, "context of " + PHASES.get(phase));
        phase++;
      }
      if (TERMINAL_TYPES.contains(type)) {
        terminals++;
        assertEquals(events.size() - 1, i, "nothing follows the terminal event");
      }
    }
    assertEquals(1, terminals, "exactly one terminal event");
    JsonNode terminal = events.get(events.size() - 1);
    if (terminal.path("type").asText().equals("run.completed")) {
      assertEquals(PHASES.size(), phase, "a completed run reported every phase");
      assertTrue(
          terminal.path("result").path("passages").isArray(),
          "run.completed carries result.passages");
    } else {
      JsonNode error = terminal.path("error");
      assertFalse(error.path("code").asText().isEmpty(), "an unsuccessful run carries error.code");
      assertTrue(
          error.path("message").isTextual() && error.path("retryable").isBoolean(),
          error.toString());
    }
    return terminal;
  }

  public String runId() {
    return events.get(0).path("runId").asText();
  }
}
