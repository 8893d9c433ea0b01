package dev.quarry.openai.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The names and metadata of vector stores, one record per corpus: {@code <root>/<corpus>.json}. A
 * corpus without one (created through Quarry's own API) is a vector store named after the corpus.
 * Thread-safe; records are replaced atomically.
 */
public final class StoreRecords {
  private final Path root;
  private final ObjectMapper mapper;

  public StoreRecords(Path root, ObjectMapper mapper) {
    this.root = root;
    this.mapper = mapper;
  }

  public Optional<StoreRecord> find(String corpus) {
    return JsonFiles.read(mapper, file(corpus))
        .map(
            n ->
                new StoreRecord(
                    n.hasNonNull("name") ? n.get("name").asText() : null,
                    n.get("metadata") instanceof ObjectNode m ? m : mapper.createObjectNode(),
                    n.hasNonNull("description") ? n.get("description").asText() : null,
                    n.get("createdAt").asLong()));
  }

  public void write(String corpus, StoreRecord record) {
    ObjectNode n = mapper.createObjectNode();
    if (record.name() != null) {
      n.put("name", record.name());
    }
    n.set("metadata", record.metadata());
    if (record.description() != null) {
      n.put("description", record.description());
    }
    n.put("createdAt", record.createdAt());
    JsonFiles.write(mapper, file(corpus), n);
  }

  public void delete(String corpus) {
    JsonFiles.deleteTree(file(corpus));
  }

  private Path file(String corpus) {
    return root.resolve(corpus + ".json");
  }
}
