package dev.quarry.api.routes;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import java.util.Comparator;
import java.util.Set;

/**
 * {@code whoami}: {@code {}} -> {@code {"subject", "grants": [{"corpus", "sources", "scopes"}]}},
 * the caller's own subject and grants as the server reads them. A client (the console, a CLI) uses
 * it to offer only what the token allows; the server still decides every request on its own.
 *
 * <p>It tells a token only about itself: nothing of other tokens, and nothing about which corpora
 * or sources exist. Any valid token may ask. Stateless and thread-safe.
 */
final class WhoamiRoute {
  private WhoamiRoute() {}

  /** Answers the caller's access; the body must be an empty object (strict, like every request). */
  static Reply whoami(RouteCall call) {
    call.body().allowOnly(Set.of());
    return Reply.of(describe(call.access()));
  }

  /** The wire form of {@code access}: grants in the order configured, scopes in a fixed order. */
  static ObjectNode describe(Access access) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("subject", access.subject());
    ArrayNode grants = out.putArray("grants");
    for (Grant g : access.grants()) {
      ObjectNode grant = grants.addObject();
      grant.put("corpus", g.corpus());
      g.sources().forEach(grant.putArray("sources")::add);
      ArrayNode scopes = grant.putArray("scopes");
      g.scopes().stream()
          .sorted(Comparator.comparing(Scope::ordinal))
          .map(Scope::wireName)
          .forEach(scopes::add);
    }
    return out;
  }
}
