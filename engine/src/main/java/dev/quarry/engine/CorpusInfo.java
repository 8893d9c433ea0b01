package dev.quarry.engine;

import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;

/** What a corpus is: its name, the id minted at its creation, its settings and creation time. */
public record CorpusInfo(String name, String corpusId, CorpusSettings settings, Instant createdAt) {
  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

  public CorpusInfo {
    checkName(name, "corpus");
    Objects.requireNonNull(corpusId, "corpusId");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(createdAt, "createdAt");
  }

  /** Throws INVALID_REQUEST naming {@code field} unless {@code name} is a valid corpus name. */
  public static String checkName(String name, String field) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw QuarryException.invalid(field,
          "corpus name must match [a-z0-9][a-z0-9._-]{0,63}; got " + quote(name));
    }
    return name;
  }

  private static String quote(String s) {
    if (s == null) {
      return "nothing";
    }
    return "'" + (s.length() > 80 ? s.substring(0, 80) + "..." : s) + "'";
  }
}
