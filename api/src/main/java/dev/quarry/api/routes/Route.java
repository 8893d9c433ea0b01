package dev.quarry.api.routes;

import dev.quarry.api.wire.Feature;

/**
 * One endpoint of the contract: its path below {@code /v1/retrieval/}, the feature it belongs to
 * (null for the corpora endpoints, which every host has), what kind of work it does, and its
 * handler.
 */
public record Route(String path, Feature feature, Kind kind, Handler handler) {

  /** What an endpoint does, which decides whether it passes the capacity gate. */
  public enum Kind {
    /** Reads a little state; never gated. */
    READ,
    /** A search: gated. */
    SEARCH,
    /**
     * Changes state: gated, and an unexpected fault after its handler started the write ({@link
     * RouteCall#write}) leaves its outcome uncertain.
     */
    MUTATION;

    boolean gated() {
      return this != READ;
    }
  }

  /** Reads the call's body, calls {@code Corpora}, and answers with a wire record. */
  @FunctionalInterface
  public interface Handler {
    Reply handle(RouteCall call);
  }
}
