package dev.quarry.api.runs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;

/**
 * The two HTTP bindings of AG-UI events: server-sent events (one {@code data:} line of JSON per
 * event; comment lines as heartbeats) and protobuf (each event a 4-byte big-endian length and the
 * encoded message, {@link AguiProto}; the binding has no heartbeat, so a client that left is
 * noticed at the next event or the idle timeout).
 */
interface AguiFraming {
  String SSE_MEDIA_TYPE = "text/event-stream";
  String PROTO_MEDIA_TYPE = "application/vnd.ag-ui.event+proto";

  String contentType();

  byte[] frame(ObjectNode event);

  /** Bytes to write on a quiet stream, or null when the binding has none. */
  byte[] heartbeat();

  /** Protobuf when {@code accept} names its media type, else SSE. */
  static AguiFraming forAccept(String accept, ObjectMapper mapper) {
    if (accept != null && accept.contains(PROTO_MEDIA_TYPE)) {
      return new Proto();
    }
    return new Sse(mapper);
  }

  /** {@code data: <json>} and a blank line per event. */
  record Sse(ObjectMapper mapper) implements AguiFraming {
    private static final byte[] HEARTBEAT = ":\n\n".getBytes(StandardCharsets.UTF_8);

    @Override
    public String contentType() {
      return SSE_MEDIA_TYPE + ";charset=utf-8";
    }

    @Override
    public byte[] frame(ObjectNode event) {
      try {
        // Jackson escapes line breaks inside strings: the JSON is one line, one data field.
        return ("data: " + mapper.writeValueAsString(event) + "\n\n")
            .getBytes(StandardCharsets.UTF_8);
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("a tree always writes", e);
      }
    }

    @Override
    public byte[] heartbeat() {
      return HEARTBEAT;
    }
  }

  /** A 4-byte big-endian length, then the protobuf {@code Event}. */
  record Proto() implements AguiFraming {
    @Override
    public String contentType() {
      return PROTO_MEDIA_TYPE;
    }

    @Override
    public byte[] frame(ObjectNode event) {
      byte[] message = AguiProto.encode(event);
      byte[] out = new byte[4 + message.length];
      out[0] = (byte) (message.length >>> 24);
      out[1] = (byte) (message.length >>> 16);
      out[2] = (byte) (message.length >>> 8);
      out[3] = (byte) message.length;
      System.arraycopy(message, 0, out, 4, message.length);
      return out;
    }

    @Override
    public byte[] heartbeat() {
      return null;
    }
  }
}
