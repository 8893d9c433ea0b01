package dev.quarry.engine;

/**
 * Expert: told of the engine's own work, for metrics: group commits, refreshes, searches, merges.
 * Every method has an empty default; {@link #NONE} ignores everything.
 *
 * <p>Called on the engine's threads (a corpus's writer thread, a searching thread, a merge thread)
 * while they work, so implementations must be thread-safe, fast and never throw; they must not call
 * back into the engine. Events carry no corpus or source name: metrics built on them have bounded
 * labels however many corpora there are.
 *
 * @quarry.experimental
 */
public interface EngineListener {
  /** Ignores every event. */
  EngineListener NONE = new EngineListener() {};

  /**
   * A group commit reached disk (fsynced).
   *
   * @param mutations how many queued mutations the group wrote (replays excluded)
   * @param nanos how long the Lucene commit took
   */
  default void committed(int mutations, long nanos) {}

  /** A committed revision was made visible to searches; {@code nanos}: how long the reopen took. */
  default void refreshed(long nanos) {}

  /**
   * A search was answered.
   *
   * @param mode the mode asked for ({@code lexical}, {@code semantic}, {@code hybrid}), or {@code
   *     default} when the request left it to the corpus
   */
  default void searched(String mode, long nanos) {}

  /** A background merge ended (successfully or not) after {@code nanos}. */
  default void merged(long nanos) {}
}
