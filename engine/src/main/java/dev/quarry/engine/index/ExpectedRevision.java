package dev.quarry.engine.index;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;

/**
 * The check of a write's {@code expectedRevision} against the source's current revision, shared by
 * every corpus store so that each refuses a stale write with the same REVISION_CONFLICT and
 * message.
 */
public final class ExpectedRevision {
  private ExpectedRevision() {}

  /**
   * @param source the source written
   * @param expected the revision the write expects (0: the source must not exist); null checks
   *     nothing
   * @param actual the source's current revision (0: it does not exist)
   * @param field the request's path to the operation (such as {@code operations[2].}), or empty
   * @throws QuarryException REVISION_CONFLICT when {@code actual} is not {@code expected}
   */
  public static void check(String source, Long expected, long actual, String field) {
    if (expected == null || actual == expected) {
      return;
    }
    throw new QuarryException(
        ErrorCode.REVISION_CONFLICT,
        expected == 0
            ? "source '" + source + "' already exists at sourceRevision " + actual
            : actual == 0
                ? "source '"
                    + source
                    + "' does not exist (expected sourceRevision "
                    + expected
                    + ")"
                : "source '" + source + "' is at sourceRevision " + actual + ", not " + expected,
        field + "expectedRevision",
        false,
        null);
  }
}
