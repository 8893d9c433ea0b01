package dev.quarry.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.BiPredicate;

/**
 * The properties of the schemas openapi.yaml gives its answers, named the same way twice: all of
 * them, as the document lists them ({@link #documented}), and those one answer carried ({@link
 * #observe}). A property is named by the component schema that holds it and its path inside that
 * schema: {@code Hit snippet.html}, {@code Warnings [].pages}, {@code AguiEvent
 * oneOf[RUN_STARTED].metadata}; a property whose schema is another component is that component's
 * (Hit's {@code parts.lexical} is {@code Hit parts.lexical}, the score inside it {@code ScorePart
 * score}).
 *
 * <p>Maps ({@code additionalProperties}, as Metadata) have no fixed properties and are not named.
 */
final class ResponseProperties {
  private static final String COMPONENT = "#/components/schemas/";

  private final JsonNode document;

  /**
   * Whether a value matches the schema at a JSON pointer: decides the branches of a {@code oneOf}
   * an answer took.
   */
  private final BiPredicate<String, JsonNode> matches;

  private final SortedSet<String> documented;

  ResponseProperties(JsonNode document, BiPredicate<String, JsonNode> matches) {
    this.document = document;
    this.matches = matches;
    SortedSet<String> all = new TreeSet<>();
    Set<String> visited = new HashSet<>();
    for (String root : roots()) {
      list(root, document.at(root.substring(1)), null, "", all, visited);
    }
    this.documented = Collections.unmodifiableSortedSet(all);
  }

  /** How a property is named: its schema, a space, its path in the schema. */
  static String key(String schema, String path) {
    return schema + " " + path;
  }

  SortedSet<String> documented() {
    return documented;
  }

  /**
   * Tells {@code observer} every documented property {@code value}, an answer valid against {@code
   * pointer}, carries.
   */
  void observe(String pointer, JsonNode value, OpenApiContract.Observer observer) {
    walk(pointer, document.at(pointer.substring(1)), null, "", value, observer);
  }

  /** The {@code $ref} schemas of every JSON answer and event stream of every operation. */
  private Set<String> roots() {
    Set<String> roots = new TreeSet<>();
    for (JsonNode item : document.path("paths")) {
      for (JsonNode operation : item) {
        for (JsonNode response : operation.path("responses")) {
          String ref = response.path("$ref").asText(null);
          JsonNode resolved = ref == null ? response : document.at(ref.substring(1));
          for (JsonNode media : resolved.path("content")) {
            String schema = media.path("schema").path("$ref").asText(null);
            if (schema != null) {
              roots.add(schema);
            }
          }
        }
      }
    }
    return roots;
  }

  /**
   * Adds the properties under {@code schema} (at {@code pointer}) to {@code out}, each component
   * once.
   */
  private void list(
      String pointer,
      JsonNode schema,
      String name,
      String path,
      Set<String> out,
      Set<String> visited) {
    String ref = schema.path("$ref").asText(null);
    if (ref != null) {
      if (isComponent(ref)) {
        if (visited.add(ref)) {
          list(
              ref,
              document.at(ref.substring(1)),
              ref.substring(COMPONENT.length()),
              "",
              out,
              visited);
        }
      } else {
        list(ref, document.at(ref.substring(1)), name, path, out, visited);
      }
      return;
    }
    if (name == null && isComponent(pointer)) {
      name = pointer.substring(COMPONENT.length());
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields();
        it.hasNext(); ) {
      Map.Entry<String, JsonNode> property = it.next();
      String inner = join(path, property.getKey());
      out.add(key(name, inner));
      list(
          pointer + "/properties/" + escape(property.getKey()),
          property.getValue(),
          name,
          inner,
          out,
          visited);
    }
    if (schema.path("items").isObject()) {
      list(pointer + "/items", schema.get("items"), name, path + "[]", out, visited);
    }
    for (String combinator : new String[] {"oneOf", "anyOf", "allOf"}) {
      JsonNode branches = schema.path(combinator);
      for (int i = 0; i < branches.size(); i++) {
        list(
            pointer + "/" + combinator + "/" + i,
            branches.get(i),
            name,
            branch(path, combinator, i, branches.get(i)),
            out,
            visited);
      }
    }
  }

  /**
   * As {@link #list}, guided by {@code value}: only the properties it has, only the branches it
   * matches.
   */
  private void walk(
      String pointer,
      JsonNode schema,
      String name,
      String path,
      JsonNode value,
      OpenApiContract.Observer observer) {
    String ref = schema.path("$ref").asText(null);
    if (ref != null) {
      boolean component = isComponent(ref);
      walk(
          ref,
          document.at(ref.substring(1)),
          component ? ref.substring(COMPONENT.length()) : name,
          component ? "" : path,
          value,
          observer);
      return;
    }
    if (name == null && isComponent(pointer)) {
      name = pointer.substring(COMPONENT.length());
    }
    JsonNode properties = schema.path("properties");
    if (value.isObject() && properties.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        if (properties.has(field.getKey())) {
          String inner = join(path, field.getKey());
          observer.observed(name, inner);
          walk(
              pointer + "/properties/" + escape(field.getKey()),
              properties.get(field.getKey()),
              name,
              inner,
              field.getValue(),
              observer);
        }
      }
    }
    if (value.isArray() && schema.path("items").isObject()) {
      for (JsonNode element : value) {
        walk(pointer + "/items", schema.get("items"), name, path + "[]", element, observer);
      }
    }
    for (String combinator : new String[] {"oneOf", "anyOf", "allOf"}) {
      JsonNode branches = schema.path(combinator);
      for (int i = 0; i < branches.size(); i++) {
        String at = pointer + "/" + combinator + "/" + i;
        if (combinator.equals("allOf") || matches.test(at, value)) {
          walk(
              at,
              branches.get(i),
              name,
              branch(path, combinator, i, branches.get(i)),
              value,
              observer);
        }
      }
    }
  }

  /**
   * A branch's place in a path: named by the constant {@code type} it holds when it has one (an
   * event's kind).
   */
  private static String branch(String path, String combinator, int index, JsonNode branch) {
    if (combinator.equals("allOf")) {
      return path;
    }
    JsonNode type = branch.path("properties").path("type").path("const");
    return join(
        path,
        combinator + "[" + (type.isTextual() ? type.asText() : Integer.toString(index)) + "]");
  }

  private static boolean isComponent(String pointer) {
    return pointer.startsWith(COMPONENT) && pointer.indexOf('/', COMPONENT.length()) < 0;
  }

  private static String join(String path, String segment) {
    return path.isEmpty() ? segment : path + "." + segment;
  }

  private static String escape(String name) {
    return name.replace("~", "~0").replace("/", "~1");
  }
}
