package dev.quarry.api.routes;

import dev.quarry.api.wire.CorpusRequests;
import dev.quarry.api.wire.CorpusResponses;
import dev.quarry.corpora.Corpora;

/** {@code corpora/create}, {@code corpora/read}, {@code corpora/list}, {@code corpora/delete}. */
final class CorpusRoutes {
  private final Corpora corpora;

  CorpusRoutes(Corpora corpora) {
    this.corpora = corpora;
  }

  /**
   * {@code {"corpus", "settings"?}} -> the new corpus with every setting filled in; CORPUS_EXISTS
   * if taken.
   */
  Reply create(RouteCall call) {
    CorpusRequests.Create request = CorpusRequests.Create.read(call.body());
    return Reply.of(
        CorpusResponses.described(
            call.write(
                () -> corpora.createCorpus(call.access(), request.corpus(), request.settings()))));
  }

  /** {@code {"corpus"}} -> identity, revision, visible sources, settings, creation time. */
  Reply read(RouteCall call) {
    CorpusRequests.Named request = CorpusRequests.Named.read(call.body());
    return Reply.of(CorpusResponses.described(corpora.readCorpus(call.access(), request.corpus())));
  }

  /** {@code {"cursor"?, "limit"?}} -> the corpora the token has a grant on. */
  Reply list(RouteCall call) {
    CorpusRequests.Page request = CorpusRequests.Page.read(call.body(), call.limits());
    return Reply.of(
        CorpusResponses.page(
            corpora.listCorpora(call.access(), request.cursor(), request.limit())));
  }

  /**
   * {@code {"corpus"}} -> {@code {"corpus", "status": "deleted"}}: the corpus and its history are
   * gone.
   */
  Reply delete(RouteCall call) {
    CorpusRequests.Named request = CorpusRequests.Named.read(call.body());
    call.write(
        () -> {
          corpora.deleteCorpus(call.access(), request.corpus());
          return null;
        });
    return Reply.of(CorpusResponses.deleted(request.corpus()));
  }
}
