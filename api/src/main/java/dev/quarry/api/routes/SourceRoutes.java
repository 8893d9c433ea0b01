package dev.quarry.api.routes;

import dev.quarry.api.wire.SourceRequests;
import dev.quarry.api.wire.SourceResponses;
import dev.quarry.corpora.Corpora;
import dev.quarry.engine.MutationResult;
import java.util.List;

/**
 * {@code sources/index}, {@code sources/delete}, {@code sources/batch}, {@code sources/read},
 * {@code sources/chunks}, {@code sources/list} and {@code corpora/history}. Mutations pass their
 * Idempotency-Key to the corpora layer, which replays, refuses or applies them.
 */
final class SourceRoutes {
  private final Corpora corpora;

  SourceRoutes(Corpora corpora) {
    this.corpora = corpora;
  }

  /** One source from text or passages -> its receipt, once durable and visible to search. */
  Reply index(RouteCall call) {
    SourceRequests.Index request = SourceRequests.Index.read(call.body(), call.limits());
    MutationResult result =
        call.write(
            () ->
                corpora.mutate(
                    call.access(),
                    request.corpus(),
                    List.of(request.operation()),
                    request.corpusId(),
                    call.idempotency()));
    return new Reply(SourceResponses.receipt(result.single()), result.replayed());
  }

  /** One source deleted (or purged) -> {@code deleted}, or {@code absent} with no new revision. */
  Reply delete(RouteCall call) {
    SourceRequests.Delete request = SourceRequests.Delete.read(call.body());
    MutationResult result =
        call.write(
            () ->
                corpora.mutate(
                    call.access(),
                    request.corpus(),
                    List.of(request.operation()),
                    request.corpusId(),
                    call.idempotency()));
    return new Reply(SourceResponses.receipt(result.single()), result.replayed());
  }

  /** Many operations, all at one new revision or none. */
  Reply batch(RouteCall call) {
    SourceRequests.Batch request = SourceRequests.Batch.read(call.body(), call.limits());
    MutationResult result =
        call.write(
            () ->
                corpora.mutate(
                    call.access(),
                    request.corpus(),
                    request.operations(),
                    request.corpusId(),
                    call.idempotency()));
    return new Reply(SourceResponses.batch(result), result.replayed());
  }

  /** A source's state; SOURCE_NOT_FOUND when it does not exist (or the token may not see it). */
  Reply read(RouteCall call) {
    SourceRequests.Read request = SourceRequests.Read.read(call.body());
    return Reply.of(
        SourceResponses.read(
            corpora.readSource(call.access(), request.corpus(), request.source())));
  }

  /**
   * A source's chunks at a revision, one keyset page at a time; grants are decided before
   * existence.
   */
  Reply chunks(RouteCall call) {
    SourceRequests.Chunks request = SourceRequests.Chunks.read(call.body(), call.limits());
    return Reply.of(
        SourceResponses.chunks(
            corpora.readChunks(
                call.access(),
                request.corpus(),
                request.source(),
                request.revision(),
                request.after(),
                request.limit(),
                request.corpusId())));
  }

  /** Visible sources in name order, one keyset page at a time. */
  Reply list(RouteCall call) {
    SourceRequests.Page request = SourceRequests.Page.read(call.body(), call.limits());
    return Reply.of(
        SourceResponses.page(
            corpora.listSources(
                call.access(),
                request.corpus(),
                request.prefix(),
                request.cursor(),
                request.limit())));
  }

  /** History entries after a revision, never splitting one revision across pages. */
  Reply history(RouteCall call) {
    SourceRequests.History request = SourceRequests.History.read(call.body(), call.limits());
    return Reply.of(
        SourceResponses.history(
            corpora.history(call.access(), request.corpus(), request.after(), request.limit())));
  }
}
