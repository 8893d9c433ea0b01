package dev.quarry.engine;

/** Rules for source ids: 1 to 512 characters, no control characters, no leading or trailing space. */
public final class SourceIds {
  public static final int MAX_LENGTH = 512;

  private SourceIds() {}

  /** Returns {@code id} or throws INVALID_REQUEST naming {@code field}. */
  public static String check(String id, String field) {
    if (id == null || id.isEmpty()) {
      throw QuarryException.invalid(field, "source must be 1 to " + MAX_LENGTH + " characters");
    }
    if (id.length() > MAX_LENGTH) {
      throw QuarryException.invalid(field,
          "source must be at most " + MAX_LENGTH + " characters; got " + id.length());
    }
    if (Character.isWhitespace(id.charAt(0)) || Character.isWhitespace(id.charAt(id.length() - 1))) {
      throw QuarryException.invalid(field, "source must not start or end with white space");
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (Character.isISOControl(c) || c == '\uFFFE' || c == '\uFFFF') {
        throw QuarryException.invalid(field, "source must not contain control characters (at index " + i + ")");
      }
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= id.length() || !Character.isLowSurrogate(id.charAt(i + 1))) {
          throw QuarryException.invalid(field, "source contains an unpaired surrogate at index " + i);
        }
        i++;
      } else if (Character.isLowSurrogate(c)) {
        throw QuarryException.invalid(field, "source contains an unpaired surrogate at index " + i);
      }
    }
    return id;
  }
}
