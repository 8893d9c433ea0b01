package dev.quarry.openai.routes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * OpenAI's cursor pages: {@code limit} (1 to 100, default 20), {@code order} by creation time
 * ({@code desc} by default, ties by id), {@code after} and {@code before} (an id of the list), and
 * the answer {@code {"object": "list", "data", "first_id", "last_id", "has_more"}}. The SDKs ask
 * for the next page with {@code after} set to the last id while {@code has_more} is true.
 */
final class Lists {
  static final int DEFAULT_LIMIT = 20;
  static final int MAX_LIMIT = 100;

  private Lists() {}

  /** The page's parameters, read from {@code query}. */
  record Cursor(int limit, boolean descending, String after, String before) {
    static Cursor of(Map<String, String> query) {
      int limit = DEFAULT_LIMIT;
      String l = query.get("limit");
      if (l != null) {
        try {
          limit = Integer.parseInt(l);
        } catch (NumberFormatException e) {
          throw new OpenAiException(
              400, "Invalid type for 'limit': expected an integer.", "limit", "invalid_type");
        }
        if (limit < 1 || limit > MAX_LIMIT) {
          throw new OpenAiException(
              400,
              "'limit' must be between 1 and " + MAX_LIMIT + "; got " + limit + ".",
              "limit",
              "invalid_value");
        }
      }
      String order = query.getOrDefault("order", "desc");
      if (!order.equals("asc") && !order.equals("desc")) {
        throw new OpenAiException(
            400, "'order' must be 'asc' or 'desc'; got '" + order + "'.", "order", "invalid_value");
      }
      return new Cursor(limit, order.equals("desc"), query.get("after"), query.get("before"));
    }
  }

  /**
   * The page of {@code ascending} (ordered by creation time, then id) that {@code cursor} asks for.
   * An {@code after} or {@code before} that names no item of the list is 400: the caller cannot
   * tell a removed item from one it may not see, and neither is skipped silently.
   */
  static <T> ObjectNode page(
      List<T> ascending,
      Function<T, String> id,
      Function<T, ObjectNode> render,
      Cursor cursor,
      ObjectMapper mapper) {
    List<T> ordered = new ArrayList<>(ascending);
    if (cursor.descending()) {
      Collections.reverse(ordered);
    }
    int from = 0;
    int to = ordered.size();
    if (cursor.after() != null) {
      from = indexOf(ordered, id, cursor.after(), "after") + 1;
    }
    if (cursor.before() != null) {
      to = indexOf(ordered, id, cursor.before(), "before");
    }
    List<T> slice = from >= to ? List.of() : ordered.subList(from, to);
    boolean hasMore;
    List<T> page;
    if (cursor.before() != null && cursor.after() == null) {
      // Paging backwards: the items just before 'before'.
      page = slice.subList(Math.max(0, slice.size() - cursor.limit()), slice.size());
      hasMore = slice.size() > cursor.limit();
    } else {
      page = slice.subList(0, Math.min(cursor.limit(), slice.size()));
      hasMore = slice.size() > cursor.limit();
    }
    ObjectNode out = mapper.createObjectNode().put("object", "list");
    ArrayNode data = out.putArray("data");
    page.forEach(item -> data.add(render.apply(item)));
    if (page.isEmpty()) {
      out.putNull("first_id").putNull("last_id");
    } else {
      out.put("first_id", id.apply(page.get(0)))
          .put("last_id", id.apply(page.get(page.size() - 1)));
    }
    return out.put("has_more", hasMore);
  }

  private static <T> int indexOf(
      List<T> items, Function<T, String> id, String wanted, String param) {
    for (int i = 0; i < items.size(); i++) {
      if (id.apply(items.get(i)).equals(wanted)) {
        return i;
      }
    }
    throw new OpenAiException(
        400, "'" + param + "' names no object of this list.", param, "invalid_value");
  }
}
