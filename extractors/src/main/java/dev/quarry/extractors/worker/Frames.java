package dev.quarry.extractors.worker;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;

/**
 * The wire between parent and worker: each message is a 4-byte big-endian length followed by that
 * many bytes of UTF-8 JSON. Frames are bounded so a corrupted length cannot make either side
 * allocate without limit.
 */
final class Frames {

  /** A 20-million-character text is at most about 120 MB as escaped JSON; leave room. */
  static final int MAX_FRAME_BYTES = 256 << 20;

  private final ObjectMapper json =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  void write(DataOutputStream out, Object message) throws IOException {
    byte[] bytes = json.writeValueAsBytes(message);
    if (bytes.length > MAX_FRAME_BYTES) {
      throw new IOException("frame of " + bytes.length + " bytes exceeds " + MAX_FRAME_BYTES);
    }
    out.writeInt(bytes.length);
    out.write(bytes);
    out.flush();
  }

  /** Reads one frame; throws {@link EOFException} when the other side has gone. */
  <T> T read(DataInputStream in, Class<T> type) throws IOException {
    int length = in.readInt();
    if (length < 0 || length > MAX_FRAME_BYTES) {
      throw new IOException("corrupt frame length " + length);
    }
    byte[] bytes = new byte[length];
    in.readFully(bytes);
    return json.readValue(bytes, type);
  }
}
