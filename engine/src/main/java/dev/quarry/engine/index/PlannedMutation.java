package dev.quarry.engine.index;

import dev.quarry.engine.MutationResult;
import dev.quarry.engine.Receipt;
import java.util.List;

/**
 * A mutation after the writer checked it against the corpus: what each operation will do, and the
 * revision it takes (or the current one when nothing changes).
 *
 * @param changes the document changes to make, one per operation that changes something
 * @param result the result to send once committed
 * @param replay true when the result is a stored idempotent outcome and nothing is written
 */
record PlannedMutation(
    QueuedMutation queued,
    long revision,
    List<Change> changes,
    MutationResult result,
    boolean replay) {

  boolean changesAnything() {
    return !changes.isEmpty();
  }

  /** One operation's effect on the index. */
  sealed interface Change permits Index, Delete {
    String source();
  }

  /**
   * A new version of a source.
   *
   * @param supersededRevision the sourceRevision of the version it replaces, or 0 when there is
   *     none
   */
  record Index(PreparedSource prepared, long supersededRevision, int ordinal) implements Change {
    @Override
    public String source() {
      return prepared.op().source();
    }
  }

  /**
   * A delete of the current version ({@code currentRevision} > 0), or with {@code purge} of every
   * retained version.
   */
  record Delete(String source, long currentRevision, boolean purge, int ordinal)
      implements Change {}

  static Receipt.Status statusOf(Change c) {
    return c instanceof Index ? Receipt.Status.INDEXED : Receipt.Status.DELETED;
  }
}
