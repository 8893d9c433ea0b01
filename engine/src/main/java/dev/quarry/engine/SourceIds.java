package dev.quarry.engine;

/**
 * Rules for source ids: 1 to 512 characters, no control characters, no leading or trailing space. A
 * new source's id ({@link #checkNew}) has no bidirectional controls either: they reorder what a
 * reader sees ({@code x\u202Egnp.exe} shows as {@code xexe.png}). An existing source keeps its id
 * and is still named by it ({@link #check}), so one stored before that rule can be read and
 * deleted.
 *
 * @quarry.internal
 */
public final class SourceIds {
  public static final int MAX_LENGTH = 512;

  private SourceIds() {}

  /**
   * Returns {@code id}, an id a source may be created or replaced under, or throws INVALID_REQUEST
   * naming {@code field}: the rules of {@link #check} and no bidirectional control character.
   */
  public static String checkNew(String id, String field) {
    check(id, field);
    for (int i = 0; i < id.length(); i++) {
      if (isBidiControl(id.charAt(i))) {
        throw QuarryException.invalid(
            field,
            "source must not contain bidirectional control characters such as "
                + String.format("U+%04X", (int) id.charAt(i))
                + " (at index "
                + i
                + "): they change how the id reads");
      }
    }
    return id;
  }

  /**
   * The characters that reorder or embed text direction (Unicode's Bidi_Control): the embeddings,
   * overrides and isolates U+202A to U+202E and U+2066 to U+2069, the marks U+200E, U+200F and the
   * Arabic letter mark U+061C. All lie in the basic plane.
   */
  public static boolean isBidiControl(int c) {
    return (c >= 0x202A && c <= 0x202E)
        || (c >= 0x2066 && c <= 0x2069)
        || c == 0x200E
        || c == 0x200F
        || c == 0x061C;
  }

  /** Returns {@code id} or throws INVALID_REQUEST naming {@code field}. */
  public static String check(String id, String field) {
    if (id == null || id.isEmpty()) {
      throw QuarryException.invalid(field, "source must be 1 to " + MAX_LENGTH + " characters");
    }
    if (id.length() > MAX_LENGTH) {
      throw QuarryException.invalid(
          field, "source must be at most " + MAX_LENGTH + " characters; got " + id.length());
    }
    if (Character.isWhitespace(id.charAt(0))
        || Character.isWhitespace(id.charAt(id.length() - 1))) {
      throw QuarryException.invalid(field, "source must not start or end with white space");
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (Character.isISOControl(c) || c == '\uFFFE' || c == '\uFFFF') {
        throw QuarryException.invalid(
            field, "source must not contain control characters (at index " + i + ")");
      }
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= id.length() || !Character.isLowSurrogate(id.charAt(i + 1))) {
          throw QuarryException.invalid(
              field, "source contains an unpaired surrogate at index " + i);
        }
        i++;
      } else if (Character.isLowSurrogate(c)) {
        throw QuarryException.invalid(field, "source contains an unpaired surrogate at index " + i);
      }
    }
    return id;
  }
}
