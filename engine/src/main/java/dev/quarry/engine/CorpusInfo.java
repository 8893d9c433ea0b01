package dev.quarry.engine;

import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a corpus is: its name, the id minted at its creation, its settings and creation time.
 *
 * @quarry.stable
 */
public record CorpusInfo(String name, String corpusId, CorpusSettings settings, Instant createdAt) {
  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

  public CorpusInfo {
    checkName(name, "corpus");
    Objects.requireNonNull(corpusId, "corpusId");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(createdAt, "createdAt");
  }

  /**
   * Refuses a request that expects another corpus under this name: {@code CORPUS_REPLACED} when
   * {@code expectedCorpusId} is given and is not this corpus's id (the corpus was deleted and
   * created again since the caller last saw it).
   */
  public void requireCorpusId(String expectedCorpusId) {
    if (expectedCorpusId != null && !expectedCorpusId.equals(corpusId)) {
      throw new QuarryException(
          ErrorCode.CORPUS_REPLACED,
          "corpus '"
              + name
              + "' was deleted and created again; its corpusId is no longer "
              + expectedCorpusId);
    }
  }

  /** Throws INVALID_REQUEST naming {@code field} unless {@code name} is a valid corpus name. */
  public static String checkName(String name, String field) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw QuarryException.invalid(
          field, "corpus name must match [a-z0-9][a-z0-9._-]{0,63}; got " + quote(name));
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
