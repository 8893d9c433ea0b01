package dev.quarry.api.runs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Encodes the AG-UI events this binding writes ({@link AguiEvents}) as AG-UI's protobuf {@code
 * Event} message (the schema of {@code @ag-ui/proto} 1.0): the event in its {@code oneof} field, a
 * {@code BaseEvent} with the type's enum number, the timestamp and the metadata, then the event's
 * own fields; JSON values ({@code result}) are {@code google.protobuf.Value}. A hand-written
 * encoder for a dozen flat messages, rather than a code generator and a runtime library for them.
 */
final class AguiProto {
  private AguiProto() {}

  /** A string or JSON-value field of an event: its JSON name and its protobuf field number. */
  private record Field(String name, int number, boolean value) {}

  /**
   * An event type: its field in the {@code Event} oneof, its {@code EventType} number, its own
   * fields.
   */
  private record Type(int oneof, int enumNumber, List<Field> fields) {}

  private static Field str(String name, int number) {
    return new Field(name, number, false);
  }

  private static final Map<String, Type> TYPES =
      Map.ofEntries(
          Map.entry(
              "TEXT_MESSAGE_START",
              new Type(1, 0, List.of(str("messageId", 2), str("role", 3), str("name", 4)))),
          Map.entry(
              "TEXT_MESSAGE_CONTENT",
              new Type(2, 1, List.of(str("messageId", 2), str("delta", 3)))),
          Map.entry("TEXT_MESSAGE_END", new Type(3, 2, List.of(str("messageId", 2)))),
          Map.entry(
              "TOOL_CALL_START",
              new Type(
                  4,
                  3,
                  List.of(
                      str("toolCallId", 2), str("toolCallName", 3), str("parentMessageId", 4)))),
          Map.entry(
              "TOOL_CALL_ARGS", new Type(5, 4, List.of(str("toolCallId", 2), str("delta", 3)))),
          Map.entry("TOOL_CALL_END", new Type(6, 5, List.of(str("toolCallId", 2)))),
          Map.entry("RUN_STARTED", new Type(12, 11, List.of(str("threadId", 2), str("runId", 3)))),
          // outcome is a string on this wire ("success"); written below from the JSON's
          // outcome.type.
          Map.entry(
              "RUN_FINISHED",
              new Type(
                  13,
                  12,
                  List.of(str("threadId", 2), str("runId", 3), new Field("result", 4, true)))),
          Map.entry("RUN_ERROR", new Type(14, 13, List.of(str("code", 2), str("message", 3)))),
          Map.entry("STEP_STARTED", new Type(15, 14, List.of(str("stepName", 2)))),
          Map.entry("STEP_FINISHED", new Type(16, 15, List.of(str("stepName", 2)))),
          Map.entry(
              "TOOL_CALL_RESULT",
              new Type(
                  22,
                  21,
                  List.of(
                      str("messageId", 3),
                      str("toolCallId", 4),
                      str("content", 5),
                      str("role", 6)))));

  private static final int RUN_FINISHED_OUTCOME = 5;

  static byte[] encode(ObjectNode event) {
    String typeName = event.path("type").asText();
    Type type = TYPES.get(typeName);
    if (type == null) {
      throw new IllegalArgumentException("no protobuf encoding for AG-UI event " + typeName);
    }
    Writer body = new Writer();
    Writer base = new Writer();
    base.varintField(1, type.enumNumber());
    if (event.has("timestamp")) {
      base.varintField(2, event.get("timestamp").asLong());
    }
    if (event.has("metadata")) {
      base.bytesField(4, struct(event.get("metadata")));
    }
    body.bytesField(1, base.bytes());
    for (Field f : type.fields()) {
      JsonNode v = event.get(f.name());
      if (v == null) {
        continue;
      }
      if (f.value()) {
        body.bytesField(f.number(), value(v));
      } else {
        body.stringField(f.number(), v.asText());
      }
    }
    if (typeName.equals("RUN_FINISHED") && event.has("outcome")) {
      body.stringField(RUN_FINISHED_OUTCOME, event.path("outcome").path("type").asText());
    }
    Writer out = new Writer();
    out.bytesField(type.oneof(), body.bytes());
    return out.bytes();
  }

  /** {@code google.protobuf.Value}. */
  private static byte[] value(JsonNode v) {
    Writer w = new Writer();
    if (v == null || v.isNull()) {
      w.varintField(1, 0);
    } else if (v.isNumber()) {
      w.doubleField(2, v.doubleValue());
    } else if (v.isTextual()) {
      w.stringField(3, v.textValue());
    } else if (v.isBoolean()) {
      w.varintField(4, v.booleanValue() ? 1 : 0);
    } else if (v.isObject()) {
      w.bytesField(5, struct(v));
    } else if (v.isArray()) {
      Writer list = new Writer();
      for (JsonNode item : v) {
        list.bytesField(1, value(item));
      }
      w.bytesField(6, list.bytes());
    }
    return w.bytes();
  }

  /** {@code google.protobuf.Struct}: one map entry (key 1, value 2) per field. */
  private static byte[] struct(JsonNode object) {
    Writer w = new Writer();
    for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      Writer entry = new Writer();
      entry.stringField(1, f.getKey());
      entry.bytesField(2, value(f.getValue()));
      w.bytesField(1, entry.bytes());
    }
    return w.bytes();
  }

  /** The protobuf wire format, for the three wire types used here. */
  private static final class Writer {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    void varintField(int number, long value) {
      varint((long) number << 3);
      varint(value);
    }

    void doubleField(int number, double value) {
      varint(((long) number << 3) | 1);
      long bits = Double.doubleToLongBits(value);
      for (int i = 0; i < 8; i++) {
        out.write((int) (bits >>> (8 * i)) & 0xff);
      }
    }

    void stringField(int number, String value) {
      bytesField(number, value.getBytes(StandardCharsets.UTF_8));
    }

    void bytesField(int number, byte[] value) {
      varint(((long) number << 3) | 2);
      varint(value.length);
      out.write(value, 0, value.length);
    }

    private void varint(long v) {
      while ((v & ~0x7FL) != 0) {
        out.write((int) ((v & 0x7F) | 0x80));
        v >>>= 7;
      }
      out.write((int) v);
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }
}
