package dev.quarry.engine.index;

import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.SourceOperation;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A mutation waiting for the writer: its operations prepared (index operations chunked and hashed
 * on the submitting thread) and the future its caller waits on.
 *
 * @param prepared the prepared content of each index operation, by the operation's position
 *     (deletes need none)
 */
record QueuedMutation(
    Mutation mutation,
    Map<Integer, PreparedSource> prepared,
    CompletableFuture<MutationResult> future) {
  QueuedMutation {
    prepared = Map.copyOf(prepared);
  }

  boolean hasPurge() {
    for (SourceOperation op : mutation.operations()) {
      if (op instanceof SourceOperation.Delete d && d.purge()) {
        return true;
      }
    }
    return false;
  }
}
