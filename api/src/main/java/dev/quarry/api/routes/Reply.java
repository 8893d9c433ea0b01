package dev.quarry.api.routes;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A route's successful answer: the JSON body, and whether it replays an earlier mutation's outcome.
 */
public record Reply(ObjectNode body, boolean replayed) {
  public Reply {
    Objects.requireNonNull(body, "body");
  }

  public static Reply of(ObjectNode body) {
    return new Reply(body, false);
  }
}
