package dev.quarry.api.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.corpora.ingest.OcrChoice;
import dev.quarry.corpora.ingest.OcrLanguages;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SourceIds;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the values several requests share: corpus names, source ids, metadata, media types,
 * scalars.
 */
final class WireValues {
  private static final Pattern MEDIA_TYPE =
      Pattern.compile(
          "[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,63}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,127}");

  private WireValues() {}

  static String corpus(WireObject o) {
    return CorpusInfo.checkName(o.requireString("corpus"), o.pathOf("corpus"));
  }

  /** The id of an existing source, to read or delete it. */
  static String source(WireObject o, String field) {
    return SourceIds.check(o.requireString(field), o.pathOf(field));
  }

  /**
   * The id a source is created or replaced under: stricter than {@link #source} (no bidirectional
   * controls).
   */
  static String newSource(WireObject o, String field) {
    return SourceIds.checkNew(o.requireString(field), o.pathOf(field));
  }

  /** An opaque corpus id sent back by the client, or null. */
  static String corpusId(WireObject o) {
    return o.optionalString("corpusId", 128);
  }

  static String mediaType(WireObject o) {
    String type = o.optionalString("mediaType", 200);
    if (type != null && !MEDIA_TYPE.matcher(type).matches()) {
      throw QuarryException.invalid(
          o.pathOf("mediaType"),
          "mediaType must be a media type such as text/markdown; got '" + type + "'");
    }
    return type;
  }

  /**
   * {@code ocr}: {@code auto} or {@code off}, or null when absent (the server's setting, or for a
   * job's file, the job's choice).
   */
  static OcrChoice ocr(WireObject o) {
    String value = o.optionalString("ocr");
    if (value == null) {
      return null;
    }
    OcrChoice mode = OcrChoice.fromWireName(value);
    if (mode == null) {
      throw QuarryException.invalid(
          o.pathOf("ocr"),
          o.pathOf("ocr")
              + " must be 'auto' or 'off'; got '"
              + (value.length() > 20 ? value.substring(0, 20) + "..." : value)
              + "'");
    }
    return mode;
  }

  /**
   * {@code ocrLanguages}: Tesseract language data names such as {@code ["deu", "eng"]}, or null
   * when absent (the server's {@code extraction.ocrLanguages}, or for a job, the server's). Whether
   * this server has them installed is decided where they are used, still before anything is stored.
   */
  static List<String> ocrLanguages(WireObject o) {
    return OcrLanguages.check(
        o.optionalStringList("ocrLanguages", OcrLanguages.MAX, 32), o.pathOf("ocrLanguages"));
  }

  /** Metadata: strings, numbers, booleans or lists of strings, at most {@code maxEntries} keys. */
  static Metadata metadata(WireObject o, String field, int maxEntries) {
    WireObject m = o.optionalObject(field);
    if (m == null) {
      return Metadata.EMPTY;
    }
    List<String> names = m.fieldNames();
    if (names.size() > maxEntries) {
      throw QuarryException.invalid(
          m.path(), m.path() + " may have at most " + maxEntries + " entries; got " + names.size());
    }
    Map<String, Object> raw = new LinkedHashMap<>();
    for (String name : names) {
      JsonNode v = m.raw(name);
      String path = m.pathOf(name);
      if (v.isArray()) {
        List<Object> items = new ArrayList<>(v.size());
        for (int i = 0; i < v.size(); i++) {
          JsonNode item = v.get(i);
          if (!item.isTextual()) {
            throw QuarryException.invalid(
                path + "[" + i + "]",
                "metadata lists hold strings only; got " + WireObject.describe(item));
          }
          items.add(item.textValue());
        }
        raw.put(name, items);
      } else {
        raw.put(
            name,
            scalar(v, path, "metadata values are strings, numbers, booleans or lists of strings"));
      }
    }
    return Metadata.of(raw, m.path());
  }

  /** A string, number (Long when integral, else Double) or boolean; anything else is invalid. */
  static Object scalar(JsonNode v, String path, String rule) {
    if (v == null || v.isNull()) {
      throw QuarryException.invalid(path, path + " is null; omit the field instead");
    }
    if (v.isTextual()) {
      return v.textValue();
    }
    if (v.isBoolean()) {
      return v.booleanValue();
    }
    if (v.isIntegralNumber()) {
      if (!v.canConvertToLong()) {
        throw QuarryException.invalid(path, path + " is out of range for a 64-bit integer");
      }
      return v.longValue();
    }
    if (v.isNumber()) {
      double d = v.doubleValue();
      if (!Double.isFinite(d)) {
        throw QuarryException.invalid(path, path + " must be a finite number");
      }
      return d;
    }
    throw QuarryException.invalid(path, rule + "; got " + WireObject.describe(v));
  }

  /** A list {@code limit}: absent means the default, else 1 to the maximum. */
  static int listLimit(WireObject o, Limits limits) {
    Integer limit = o.optionalInt("limit", 1, limits.getInt(Limit.MAX_LIST_LIMIT));
    return limit == null ? limits.getInt(Limit.DEFAULT_LIST_LIMIT) : limit;
  }

  /** An opaque paging cursor handed out by an earlier page, or null. */
  static String cursor(WireObject o) {
    String cursor = o.optionalString("cursor", 4096);
    if (cursor != null && cursor.isEmpty()) {
      throw QuarryException.invalid(
          o.pathOf("cursor"), "cursor must not be empty; omit it to start at the beginning");
    }
    return cursor;
  }
}
