package dev.quarry.openai.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which files are attached to each vector store: {@code <root>/<corpus>/<file id>.json}.
 * Thread-safe; records are replaced atomically.
 */
public final class Attachments {
  private final Path root;
  private final ObjectMapper mapper;

  public Attachments(Path root, ObjectMapper mapper) {
    this.root = root;
    this.mapper = mapper;
  }

  public Optional<Attachment> find(String corpus, String fileId) {
    return JsonFiles.read(mapper, file(corpus, fileId)).map(this::fromRecord);
  }

  /** Every file attached to {@code corpus}, in no particular order. */
  public List<Attachment> all(String corpus) {
    Path folder = root.resolve(corpus);
    List<Attachment> out = new ArrayList<>();
    if (!Files.isDirectory(folder)) {
      return out;
    }
    try (var files = Files.list(folder)) {
      for (Path f : files.toList()) {
        if (f.getFileName().toString().endsWith(".json")) {
          JsonFiles.read(mapper, f).map(this::fromRecord).ifPresent(out::add);
        }
      }
    } catch (IOException e) {
      throw JsonFiles.unavailable(e);
    }
    return out;
  }

  /**
   * Records the final status {@code a} carries, unless the file was attached again meanwhile (its
   * record names another job or place): a newer attachment is never overwritten by an older one.
   */
  public synchronized void recordOutcome(String corpus, Attachment a) {
    Optional<Attachment> current = find(corpus, a.fileId());
    if (current.isPresent()
        && current.get().job().equals(a.job())
        && current.get().index() == a.index()) {
      write(corpus, a);
    }
  }

  public synchronized void write(String corpus, Attachment a) {
    ObjectNode n =
        mapper
            .createObjectNode()
            .put("fileId", a.fileId())
            .put("job", a.job())
            .put("index", a.index())
            .put("createdAt", a.createdAt())
            .put("bytes", a.bytes());
    if (a.batch() != null) {
      n.put("batch", a.batch());
    }
    n.set("attributes", a.attributes());
    if (a.outcome() != null) {
      n.put("outcome", a.outcome());
    }
    if (a.errorCode() != null) {
      n.put("errorCode", a.errorCode()).put("errorMessage", a.errorMessage());
    }
    JsonFiles.write(mapper, file(corpus, a.fileId()), n);
  }

  public synchronized void delete(String corpus, String fileId) {
    JsonFiles.deleteTree(file(corpus, fileId));
  }

  /** Forgets every attachment of {@code corpus} (the corpus was deleted). */
  public void deleteAll(String corpus) {
    JsonFiles.deleteTree(root.resolve(corpus));
  }

  private Path file(String corpus, String fileId) {
    return root.resolve(corpus).resolve(fileId + ".json");
  }

  private Attachment fromRecord(ObjectNode n) {
    return new Attachment(
        n.get("fileId").asText(),
        n.get("job").asText(),
        n.get("index").asInt(),
        n.hasNonNull("batch") ? n.get("batch").asText() : null,
        n.get("attributes") instanceof ObjectNode attrs ? attrs : mapper.createObjectNode(),
        n.get("createdAt").asLong(),
        n.get("bytes").asLong(),
        n.hasNonNull("outcome") ? n.get("outcome").asText() : null,
        n.hasNonNull("errorCode") ? n.get("errorCode").asText() : null,
        n.hasNonNull("errorMessage") ? n.get("errorMessage").asText() : null);
  }
}
