package dev.quarry.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Source or passage metadata: keys to strings, numbers ({@link Long} or {@link Double}), booleans
 * or lists of strings. Immutable, with keys in sorted order so equal metadata serialises equally.
 *
 * @quarry.stable
 */
public record Metadata(Map<String, Object> values) {
  public static final Metadata EMPTY = new Metadata(Map.of());
  public static final int MAX_ENTRIES = 64;
  public static final int MAX_KEY_CHARS = 128;
  public static final int MAX_VALUE_CHARS = 1024;
  public static final int MAX_LIST_ITEMS = 64;
  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.\\-]{0,127}");

  public Metadata {
    values = Collections.unmodifiableMap(new TreeMap<>(values));
  }

  /**
   * Checks and copies raw metadata (as decoded from JSON: String, Integer/Long, Double/Float,
   * Boolean, List of String). Throws INVALID_REQUEST naming {@code field.key} on the first problem.
   */
  public static Metadata of(Map<String, ?> raw, String field) {
    if (raw == null || raw.isEmpty()) {
      return EMPTY;
    }
    if (raw.size() > MAX_ENTRIES) {
      throw QuarryException.invalid(
          field, "metadata may have at most " + MAX_ENTRIES + " entries; got " + raw.size());
    }
    TreeMap<String, Object> out = new TreeMap<>();
    for (Map.Entry<String, ?> e : raw.entrySet()) {
      String key = e.getKey();
      String path = field + "." + key;
      checkKey(key, path);
      out.put(key, checkValue(e.getValue(), path));
    }
    return new Metadata(out);
  }

  /** Throws INVALID_REQUEST naming {@code path} unless {@code key} is a valid metadata key. */
  public static void checkKey(String key, String path) {
    if (key == null || !KEY.matcher(key).matches()) {
      throw QuarryException.invalid(
          path,
          "metadata keys are 1 to "
              + MAX_KEY_CHARS
              + " characters of letters, digits, '_', '.', '-'");
    }
  }

  private static Object checkValue(Object v, String path) {
    if (v instanceof String s) {
      return checkString(s, path);
    }
    if (v instanceof Boolean) {
      return v;
    }
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      if (!Double.isFinite(d)) {
        throw QuarryException.invalid(path, "metadata numbers must be finite");
      }
      return d;
    }
    if (v instanceof List<?> list) {
      if (list.size() > MAX_LIST_ITEMS) {
        throw QuarryException.invalid(
            path,
            "metadata lists may have at most " + MAX_LIST_ITEMS + " items; got " + list.size());
      }
      List<String> copy = new ArrayList<>(list.size());
      for (int i = 0; i < list.size(); i++) {
        if (!(list.get(i) instanceof String s)) {
          throw QuarryException.invalid(path + "[" + i + "]", "metadata lists hold strings only");
        }
        copy.add(checkString(s, path + "[" + i + "]"));
      }
      return List.copyOf(copy);
    }
    throw QuarryException.invalid(
        path, "metadata values are strings, numbers, booleans or lists of strings");
  }

  private static String checkString(String s, String path) {
    if (s.length() > MAX_VALUE_CHARS) {
      throw QuarryException.invalid(
          path,
          "metadata strings may have at most "
              + MAX_VALUE_CHARS
              + " characters; got "
              + s.length());
    }
    return s;
  }

  public boolean isEmpty() {
    return values.isEmpty();
  }

  /** This metadata with {@code overrides} laid over it (a passage's metadata over its source's). */
  public Metadata with(Metadata overrides) {
    if (overrides.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return overrides;
    }
    TreeMap<String, Object> merged = new TreeMap<>(values);
    merged.putAll(overrides.values);
    return new Metadata(merged);
  }
}
