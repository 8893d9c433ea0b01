package dev.quarry.api.routes;

import dev.quarry.api.wire.SearchBody;
import dev.quarry.api.wire.SearchResponses;
import dev.quarry.corpora.Corpora;

/** {@code search}: passages by score at one revision, only from sources the token may see. */
final class SearchRoute {
  private final Corpora corpora;

  SearchRoute(Corpora corpora) {
    this.corpora = corpora;
  }

  Reply search(RouteCall call) {
    SearchBody request = SearchBody.read(call.body(), call.limits());
    return Reply.of(
        SearchResponses.result(
            corpora.search(
                call.access(), request.corpus(), request.request(), request.corpusId())));
  }
}
