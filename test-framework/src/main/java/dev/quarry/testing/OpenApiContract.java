package dev.quarry.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonMetaSchema;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.NonValidationKeyword;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * {@code openapi.yaml} as the tests hold the server to it: every JSON answer to a documented
 * operation must match the schema the document gives for its status (or its {@code default}).
 *
 * <p>Tests read the response schemas strictly: every object schema that lists its {@code
 * properties} and says nothing about others gets {@code unevaluatedProperties: false}, so a field
 * the server writes but the document lacks fails the test that received it. (Clients are told to
 * tolerate unknown fields; the document must still name every field the server sends.) The events
 * of an event stream are held to the schema the document gives for the stream, each on its own.
 *
 * <p>An {@link Observer} given to a check is told every documented property the answer carried
 * ({@link ResponseProperties}), so a test can prove the server sends each field the document
 * promises, optional ones included ({@code ApiTourIT}).
 */
public final class OpenApiContract {
  /** Where the document lives on the classpath of the api module. */
  public static final String RESOURCE = "/dev/quarry/api/openapi.yaml";

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final OpenApiContract INSTANCE = new OpenApiContract(load());

  /**
   * Told each documented property a checked answer carried: its schema's name and its path inside
   * it.
   */
  @FunctionalInterface
  public interface Observer {
    Observer NONE = (schema, path) -> {};

    void observed(String schema, String path);
  }

  private final JsonNode document;
  private final ObjectNode strictComponents;

  /**
   * 2020-12, OpenAPI 3.1's dialect; the wrapper's {@code components} is data for references, not a
   * keyword.
   */
  private final JsonSchemaFactory factory =
      JsonSchemaFactory.getInstance(
          SpecVersion.VersionFlag.V202012,
          builder ->
              builder.metaSchema(
                  JsonMetaSchema.builder(JsonMetaSchema.getV202012())
                      .keyword(new NonValidationKeyword("components"))
                      .build()));

  private final Map<String, JsonSchema> schemas = new ConcurrentHashMap<>();
  private final ResponseProperties properties;

  private OpenApiContract(JsonNode document) {
    this.document = document;
    this.strictComponents = document.get("components").deepCopy();
    closeObjects(strictComponents.get("schemas"));
    this.properties = new ResponseProperties(document, this::matches);
  }

  public static OpenApiContract get() {
    return INSTANCE;
  }

  /** The parsed document (tests read field sets and enums from it). */
  public JsonNode document() {
    return document;
  }

  /**
   * Every property of every schema an answer of the document may carry, as {@link
   * ResponseProperties#key} names them: what a tour of the API must see the server send.
   */
  public SortedSet<String> responseProperties() {
    return properties.documented();
  }

  /**
   * Whether {@code value} matches the (closed) schema at {@code pointer}, a JSON pointer into the
   * document.
   */
  boolean matches(String pointer, JsonNode value) {
    return schema(pointer).validate(value).isEmpty();
  }

  /** Parses the document from the classpath. */
  public static JsonNode load() {
    try (InputStream in = OpenApiContract.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is not on the classpath");
      }
      return YAML.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Checks one answer against the document; a no-op for paths the document does not describe (a
   * host's own routes) and for answers that are not JSON (event streams, the document itself).
   *
   * @throws AssertionError naming the operation and every violation
   */
  public void check(String method, String path, int status, String contentType, JsonNode body) {
    check(method, path, status, contentType, body, Observer.NONE);
  }

  /**
   * As {@link #check(String, String, int, String, JsonNode)}; then tells {@code observer} every
   * documented property the (valid) answer carried.
   */
  public void check(
      String method,
      String path,
      int status,
      String contentType,
      JsonNode body,
      Observer observer) {
    if (body == null || contentType == null || !contentType.startsWith("application/json")) {
      return;
    }
    int query = path.indexOf('?');
    String bare = query < 0 ? path : path.substring(0, query);
    JsonNode operation = document.path("paths").path(bare).path(method.toLowerCase(Locale.ROOT));
    String schemaPointer;
    if (operation.isMissingNode()) {
      if (status < 400 || !body.has("error")) {
        return;
      }
      schemaPointer =
          "#/components/schemas/ErrorEnvelope"; // every refusal, unknown routes included
    } else {
      JsonNode response = operation.path("responses").path(Integer.toString(status));
      if (response.isMissingNode()) {
        response = operation.path("responses").path("default");
      }
      if (response.isMissingNode()) {
        throw new AssertionError(
            method
                + " "
                + bare
                + " answered "
                + status
                + ", a status openapi.yaml does not document for it: "
                + body);
      }
      response = resolve(response);
      JsonNode schema = response.path("content").path("application/json").path("schema");
      if (schema.isMissingNode()) {
        throw new AssertionError(
            method
                + " "
                + bare
                + " answered "
                + status
                + " with JSON, which openapi.yaml does not document: "
                + body);
      }
      schemaPointer = schema.path("$ref").asText(null);
      if (schemaPointer == null) {
        throw new AssertionError(
            "openapi.yaml: give " + method + " " + bare + " " + status + " a $ref schema");
      }
    }
    Set<ValidationMessage> errors = schema(schemaPointer).validate(body);
    if (!errors.isEmpty()) {
      throw new AssertionError(
          method
              + " "
              + bare
              + " "
              + status
              + " does not match openapi.yaml ("
              + schemaPointer
              + "): "
              + errors.stream()
                  .map(ValidationMessage::getMessage)
                  .sorted()
                  .collect(Collectors.joining("; "))
              + "\nbody: "
              + body);
    }
    properties.observe(schemaPointer, body, observer);
  }

  /**
   * Checks a JSON request body against the operation's request schema (closed, as the server is
   * strict): for a client's tests, that it writes nothing the contract lacks.
   *
   * @throws AssertionError naming the operation and every violation, or when the document describes
   *     no JSON body for the operation
   */
  public void checkRequest(String method, String path, JsonNode body) {
    JsonNode schema =
        document
            .path("paths")
            .path(path)
            .path(method.toLowerCase(Locale.ROOT))
            .path("requestBody")
            .path("content")
            .path("application/json")
            .path("schema");
    String schemaPointer = schema.path("$ref").asText(null);
    if (schemaPointer == null) {
      throw new AssertionError(
          "openapi.yaml gives " + method + " " + path + " no JSON request schema");
    }
    Set<ValidationMessage> errors = schema(schemaPointer).validate(body);
    if (!errors.isEmpty()) {
      throw new AssertionError(
          method
              + " "
              + path
              + " request does not match openapi.yaml ("
              + schemaPointer
              + "): "
              + errors.stream()
                  .map(ValidationMessage::getMessage)
                  .sorted()
                  .collect(Collectors.joining("; "))
              + "\nbody: "
              + body);
    }
  }

  /**
   * Checks each event of a {@code text/event-stream} answer (each {@code data:} line's JSON)
   * against the schema the document gives for the operation's event stream; a no-op for other
   * answers and for paths the document does not describe.
   *
   * @throws AssertionError naming the operation, the event and every violation, or when the
   *     document gives the operation no event-stream schema
   */
  public void checkEvents(String method, String path, int status, String contentType, String body) {
    checkEvents(method, path, status, contentType, body, Observer.NONE);
  }

  /**
   * As {@link #checkEvents(String, String, int, String, String)}, telling {@code observer} each
   * event's properties.
   */
  public void checkEvents(
      String method, String path, int status, String contentType, String body, Observer observer) {
    if (body == null || contentType == null || !contentType.startsWith("text/event-stream")) {
      return;
    }
    int query = path.indexOf('?');
    String bare = query < 0 ? path : path.substring(0, query);
    JsonNode operation = document.path("paths").path(bare).path(method.toLowerCase(Locale.ROOT));
    if (operation.isMissingNode()) {
      return;
    }
    JsonNode schema =
        resolve(operation.path("responses").path(Integer.toString(status)))
            .path("content")
            .path("text/event-stream")
            .path("schema");
    String schemaPointer = schema.path("$ref").asText(null);
    if (schemaPointer == null) {
      throw new AssertionError(
          method
              + " "
              + bare
              + " answered "
              + status
              + " with an event stream, for which openapi.yaml gives no $ref schema");
    }
    for (String line : body.split("\n")) {
      if (!line.startsWith("data:")) {
        continue;
      }
      JsonNode event;
      try {
        event = JSON.readTree(line.substring(5).strip());
      } catch (IOException e) {
        throw new AssertionError(method + " " + bare + ": an event that is not JSON: " + line, e);
      }
      Set<ValidationMessage> errors = schema(schemaPointer).validate(event);
      if (!errors.isEmpty()) {
        throw new AssertionError(
            method
                + " "
                + bare
                + " event does not match openapi.yaml ("
                + schemaPointer
                + "): "
                + errors.stream()
                    .map(ValidationMessage::getMessage)
                    .sorted()
                    .collect(Collectors.joining("; "))
                + "\nevent: "
                + event);
      }
      properties.observe(schemaPointer, event, observer);
    }
  }

  private JsonNode resolve(JsonNode node) {
    String ref = node.path("$ref").asText(null);
    if (ref == null) {
      return node;
    }
    JsonNode target = document.at(ref.substring(1));
    if (target.isMissingNode()) {
      throw new AssertionError("openapi.yaml: unresolved " + ref);
    }
    return target;
  }

  private JsonSchema schema(String pointer) {
    return schemas.computeIfAbsent(
        pointer,
        p -> {
          // A self-contained 2020-12 schema whose root carries the document's components, so the
          // document's own "#/components/schemas/..." references resolve inside it.
          ObjectNode root = YAML.createObjectNode();
          root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
          root.put("$ref", p);
          root.set("components", strictComponents);
          return factory.getSchema(root);
        });
  }

  /**
   * Adds {@code unevaluatedProperties: false} to every object schema that is silent about other
   * fields.
   */
  private static void closeObjects(JsonNode node) {
    if (node instanceof ObjectNode object) {
      if (object.has("properties")
          && !object.has("additionalProperties")
          && !object.has("unevaluatedProperties")) {
        object.put("unevaluatedProperties", false);
      }
      for (Iterator<JsonNode> it = object.elements(); it.hasNext(); ) {
        closeObjects(it.next());
      }
    } else if (node != null && node.isArray()) {
      node.forEach(OpenApiContract::closeObjects);
    }
  }
}
