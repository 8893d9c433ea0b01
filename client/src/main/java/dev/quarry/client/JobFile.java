package dev.quarry.client;

import java.nio.file.Path;
import java.util.Map;

/**
 * One file of a job upload: the file on disk (streamed when the upload is sent) and what the
 * {@code files} entry of the upload's {@code request} part records with it.
 *
 * @param mediaType declared; the bytes decide, and a disagreement is a warning in the file's receipt
 */
public record JobFile(Path path, String source, String title, Map<String, Object> metadata, String mediaType) {
  public static JobFile of(Path path, String source) {
    return new JobFile(path, source, null, null, null);
  }

  public JobFile withTitle(String t) {
    return new JobFile(path, source, t, metadata, mediaType);
  }

  public JobFile withMetadata(Map<String, Object> m) {
    return new JobFile(path, source, title, Map.copyOf(m), mediaType);
  }

  public JobFile withMediaType(String m) {
    return new JobFile(path, source, title, metadata, m);
  }

  /** The {@code files} entry: exactly the contract's fields. */
  Entry entry() {
    return new Entry(source, title, metadata, mediaType);
  }

  record Entry(String source, String title, Map<String, Object> metadata, String mediaType) {}
}
