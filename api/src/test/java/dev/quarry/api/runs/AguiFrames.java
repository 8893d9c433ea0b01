package dev.quarry.api.runs;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a body of the AG-UI protobuf binding as a test sees it: 4-byte big-endian length-prefixed
 * {@code Event} messages of {@code @ag-ui/proto} 1.0, each one event in its {@code oneof} field.
 * Independent of the encoder under test ({@link AguiProto}): the field numbers here are the
 * schema's own.
 */
final class AguiFrames {
  private AguiFrames() {}

  /** The {@code Event} oneof's field numbers of the events this binding writes. */
  private static final Map<Integer, String> TYPES =
      Map.ofEntries(
          Map.entry(1, "TEXT_MESSAGE_START"),
          Map.entry(2, "TEXT_MESSAGE_CONTENT"),
          Map.entry(3, "TEXT_MESSAGE_END"),
          Map.entry(4, "TOOL_CALL_START"),
          Map.entry(5, "TOOL_CALL_ARGS"),
          Map.entry(6, "TOOL_CALL_END"),
          Map.entry(12, "RUN_STARTED"),
          Map.entry(13, "RUN_FINISHED"),
          Map.entry(14, "RUN_ERROR"),
          Map.entry(15, "STEP_STARTED"),
          Map.entry(16, "STEP_FINISHED"),
          Map.entry(22, "TOOL_CALL_RESULT"));

  /** One event: its type and its length-delimited fields (the event's strings) by field number. */
  record Frame(String type, Map<Integer, String> strings) {
    String string(int field) {
      return strings.get(field);
    }
  }

  /**
   * The events of {@code body} in order.
   *
   * @throws AssertionError when the body is not whole frames, a frame is not one event, or an
   *     event's type is unknown
   */
  static List<Frame> parse(byte[] body) {
    ByteBuffer in = ByteBuffer.wrap(body);
    List<Frame> frames = new ArrayList<>();
    while (in.hasRemaining()) {
      if (in.remaining() < 4) {
        throw new AssertionError("a frame's length is cut short at byte " + in.position());
      }
      int length = in.getInt();
      if (length < 0 || length > in.remaining()) {
        throw new AssertionError(
            "a frame of "
                + length
                + " bytes at byte "
                + (in.position() - 4)
                + " runs past the body");
      }
      ByteBuffer event = in.slice(in.position(), length);
      in.position(in.position() + length);
      long tag = varint(event);
      if ((tag & 7) != 2) {
        throw new AssertionError(
            "an Event's field must be one length-delimited message; wire type " + (tag & 7));
      }
      String type = TYPES.get((int) (tag >>> 3));
      if (type == null) {
        throw new AssertionError("an Event with the unknown oneof field " + (tag >>> 3));
      }
      int messageLength = (int) varint(event);
      ByteBuffer message = event.slice(event.position(), messageLength);
      event.position(event.position() + messageLength);
      if (event.hasRemaining()) {
        throw new AssertionError("a frame holds more than one event");
      }
      frames.add(new Frame(type, strings(message)));
    }
    return frames;
  }

  /** The length-delimited fields of {@code message} as UTF-8, varints skipped. */
  private static Map<Integer, String> strings(ByteBuffer message) {
    Map<Integer, String> out = new HashMap<>();
    while (message.hasRemaining()) {
      long tag = varint(message);
      switch ((int) (tag & 7)) {
        case 0 -> varint(message);
        case 2 -> {
          byte[] bytes = new byte[(int) varint(message)];
          message.get(bytes);
          out.put((int) (tag >>> 3), new String(bytes, StandardCharsets.UTF_8));
        }
        default -> throw new AssertionError("unexpected wire type " + (tag & 7));
      }
    }
    return out;
  }

  private static long varint(ByteBuffer in) {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte b = in.get();
      value |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw new AssertionError("a varint longer than 10 bytes");
  }
}
