package dev.quarry.engine.index;

import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.SourceOperation;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A mutation waiting for the writer: its operations prepared (index operations chunked and hashed
 * on the submitting thread) and the future its caller waits on.
 *
 * @param prepared one entry per operation: a {@link PreparedSource} for index operations, the
 *     {@link SourceOperation.Delete} itself for deletes
 */
record QueuedMutation(Mutation mutation, List<Object> prepared, CompletableFuture<MutationResult> future) {

  boolean hasPurge() {
    for (SourceOperation op : mutation.operations()) {
      if (op instanceof SourceOperation.Delete d && d.purge()) {
        return true;
      }
    }
    return false;
  }
}
