package dev.quarry.cluster;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The check that a kept corpus still exists, for one call of {@link
 * OpenSearchCorpusStore#withCorpus}: its head, read from the cluster once, when the call first
 * needs it (most calls need it at once, for the published revision; a pinned search sends its
 * search first) or at the latest when the call returns. A call whose head is gone is not answered
 * as the kept corpus: the store reads the registry again and answers as the corpus the name holds
 * now.
 *
 * <p>Used by one thread: the one running the call.
 */
final class CallHead {
  private final Supplier<Optional<CorpusHead>> reader;
  private Optional<CorpusHead> head;

  /**
   * The read's failure, if it failed: answered again rather than read again, so a call whose head
   * could not be read (the cluster down, or hanging) fails once, within its operation's deadline,
   * not after a second read of its own.
   */
  private RuntimeException failed;

  private boolean handed;

  CallHead(Supplier<Optional<CorpusHead>> reader) {
    this.reader = reader;
  }

  /**
   * Whether the head was found, reading it if nobody has; the read's failure (UNAVAILABLE) if it
   * failed.
   */
  boolean exists() {
    if (failed != null) {
      throw failed;
    }
    if (head == null) {
      try {
        head = reader.get();
      } catch (RuntimeException e) {
        failed = e;
        throw e;
      }
    }
    return head.isPresent();
  }

  /**
   * CORPUS_NOT_FOUND when the corpus is gone (reading the head if nobody has), which the store
   * turns into a new registry read.
   */
  void confirm() {
    if (!exists()) {
      throw new QuarryException(
          ErrorCode.CORPUS_NOT_FOUND, "the corpus's head is gone from the cluster");
    }
  }

  /**
   * The head, for the call's first read of it only: empty once handed (later reads ask the cluster
   * again). CORPUS_NOT_FOUND when the corpus is gone, which the store turns into a new registry
   * read.
   */
  Optional<CorpusHead> handOnce() {
    confirm();
    if (handed) {
      return Optional.empty();
    }
    handed = true;
    return head;
  }
}
