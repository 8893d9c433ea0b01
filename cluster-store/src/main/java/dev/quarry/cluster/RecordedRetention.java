package dev.quarry.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.util.OptionalInt;

/**
 * The {@code retainedRevisions} every front of one deployment (one index prefix) must run with,
 * recorded in the registry index by the first front that started on it.
 *
 * <p>Fronts decide retention each on their own: which pinned revisions they answer and which
 * versions their reclaims delete ({@link ExpiredVersions}). Two fronts with different values would
 * answer a pinned search differently, and the one with the shorter retention would delete versions
 * the other still answers from. So a front refuses to start when its value is not the recorded one
 * (a config error naming {@code retainedRevisions}), and a reclaim reads the record again first and
 * does not run while it differs (the record was changed while this front ran).
 *
 * <p>The record is a registry document under an id no corpus name can take (names start with a
 * letter or digit), written create-only: of two first fronts starting at once, one value wins and
 * the other front refuses to start if its value differs.
 */
final class RecordedRetention {
  /** The registry document's id; never a corpus name. */
  static final String ID = "~retention";

  /** The config key the record guards, as named in errors. */
  static final String KEY = "retainedRevisions";

  private RecordedRetention() {}

  /**
   * Records {@code configured} unless a value is recorded already, then requires the recorded one
   * to be {@code configured}.
   *
   * @throws QuarryException {@code INVALID_REQUEST} naming {@code retainedRevisions} when it
   *     differs
   */
  static void requireSame(ClusterHttp http, String registry, int configured) {
    ObjectNode doc = ClusterHttp.MAPPER.createObjectNode();
    doc.put("kind", "retention").put(KEY, configured);
    ClusterHttp.Answer created =
        http.json("PUT", "/" + registry + "/_doc/" + ID + "?op_type=create&refresh=true", doc);
    if (created.status() != 409) {
      created.require("recording retainedRevisions");
      return;
    }
    int recorded =
        read(http, registry)
            .orElseThrow(
                () ->
                    new QuarryException(
                        ErrorCode.UNAVAILABLE,
                        "the recorded retainedRevisions was deleted while it was read; try again",
                        new ClusterFault(
                            "the retention record of "
                                + registry
                                + " was deleted while it was read")));
    if (recorded != configured) {
      throw QuarryException.invalid(
          KEY,
          "retainedRevisions is "
              + configured
              + " but the corpora under index prefix '"
              + registry.substring(0, registry.length() - "-registry".length())
              + "' are kept with "
              + recorded
              + " (recorded in "
              + registry
              + " by the first server that used them): every server of one cluster "
              + "deployment must use the same value. Set retainedRevisions to "
              + recorded
              + ", or change the recorded value as docs/scale-out.md describes");
    }
  }

  /** The recorded value (a real-time GET), or empty when none is recorded. */
  static OptionalInt read(ClusterHttp http, String registry) {
    ClusterHttp.Answer a = http.get("/" + registry + "/_doc/" + ID);
    if (a.status() == 404) {
      return OptionalInt.empty();
    }
    JsonNode value =
        a.require("reading the recorded retainedRevisions").body().path("_source").path(KEY);
    return value.canConvertToInt() ? OptionalInt.of(value.asInt()) : OptionalInt.empty();
  }
}
