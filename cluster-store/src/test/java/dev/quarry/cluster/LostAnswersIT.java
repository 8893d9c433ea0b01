package dev.quarry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import dev.quarry.testing.OpenSearchNodes;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Conditional writes whose first attempt reached the node and was applied but whose answer was lost
 * (the front then sends them again, and the second attempt is refused because of the first): a
 * front behind a {@link LosingProxy} to the single test node, and another front straight on the
 * node to take the corpus over (or delete it) meanwhile. The outcome is the real one when it can be
 * told (the receipt, the corpus created or deleted, the lease still held), "nothing was applied"
 * only when nothing was, and uncertain otherwise. A publication none of whose attempts is answered
 * is decided the same way once the head can be read again: the receipt when it landed, "nothing was
 * applied" once the head is fenced off when it did not.
 */
class LostAnswersIT {
  private static final Duration TTL = Duration.ofSeconds(4);

  LosingProxy proxy;
  OpenSearchCorpusStore front;
  OpenSearchCorpusStore taker;
  ClusterHttp node;
  String prefix;

  @BeforeEach
  void open() throws Exception {
    URI url = OpenSearchNodes.single().urls().get(0);
    proxy = LosingProxy.before(url);
    prefix = TestIndexes.prefix("lost");
    front =
        new OpenSearchCorpusStore(
            OpenSearchSettings.of(List.of(proxy.url()))
                .withReplicas(0)
                .withPrefix(prefix)
                .withLeaseTtl(TTL),
            EngineConfig.builder().build());
    taker =
        new OpenSearchCorpusStore(
            OpenSearchSettings.of(List.of(url))
                .withReplicas(0)
                .withPrefix(prefix)
                .withLeaseTtl(TTL),
            EngineConfig.builder().build());
    node = new ClusterHttp(List.of(url), Duration.ofSeconds(30));
  }

  @AfterEach
  void close() {
    TestIndexes.close(front, taker);
    if (proxy != null) {
      proxy.close();
    }
  }

  // The requests the proxy catches.
  static final Predicate<LosingProxy.Request> PUBLICATION =
      r ->
          r.method().equals("PUT")
              && r.path().contains("/_doc/head?if_seq_no=")
              && r.body().contains("\"writing\":null");
  static final Predicate<LosingProxy.Request> MARK =
      r ->
          r.method().equals("PUT")
              && r.path().contains("/_doc/head?if_seq_no=")
              && !r.body().contains("\"writing\":null");
  static final Predicate<LosingProxy.Request> LEASE_RENEWAL =
      r -> r.method().equals("PUT") && r.path().contains("/_doc/lease?if_seq_no=");
  static final Predicate<LosingProxy.Request> REGISTRATION =
      r -> r.method().equals("PUT") && r.path().contains("-registry/_doc/docs?op_type=create");
  static final Predicate<LosingProxy.Request> UNREGISTRATION =
      r -> r.method().equals("DELETE") && r.path().contains("-registry/_doc/docs?");
  static final Predicate<LosingProxy.Request> CORPUS_INDEX =
      r -> r.method().equals("PUT") && r.path().contains("-corpus-") && !r.path().contains("/_");

  static Mutation write(String source, String text) {
    return new Mutation(
        List.of(SourceOperation.Index.text(source, null, text, Metadata.EMPTY)),
        "tester",
        null,
        null);
  }

  static MutationResult apply(OpenSearchCorpusStore store, String source, String text) {
    return store.withCorpus("docs", ix -> ix.apply(write(source, text)));
  }

  static List<String> search(OpenSearchCorpusStore store, String q, Long revision) {
    return store.withCorpus(
        "docs",
        ix ->
            ix
                .search(new SearchRequest(q, SourceScope.ALL, List.of(), 10, revision, null, false))
                .hits()
                .stream()
                .map(Hit::source)
                .toList());
  }

  /** The history entries of {@code revision}, by source. */
  static List<String> historyOf(OpenSearchCorpusStore store, long revision) {
    return store.withCorpus(
        "docs",
        ix ->
            ix.history(0, 100, s -> true).entries().stream()
                .filter(e -> e.revision() == revision)
                .map(e -> e.source())
                .toList());
  }

  @Test
  void aPublicationAppliedWhoseAnswerWasLost_returnsItsReceipt_once() {
    front.create("docs", CorpusSettings.DEFAULT);
    apply(front, "a", "alpha words");
    proxy.loseAnswerOfNext(PUBLICATION);

    MutationResult result = apply(front, "b", "beta words");

    assertEquals(1, proxy.caught(), "the publication's answer was lost");
    assertEquals(2, result.revision());
    assertRevisionTwoHoldsB();
    assertEquals(
        3, apply(front, "c", "gamma words").revision(), "the next batch gets the next revision");
    assertEquals(List.of("b"), historyOf(taker, 2));
    assertEquals(List.of("c"), historyOf(taker, 3));
  }

  @Test
  void aMarkAppliedWhoseAnswerWasLost_writesTheBatch() {
    front.create("docs", CorpusSettings.DEFAULT);
    apply(front, "a", "alpha words");
    proxy.loseAnswerOfNext(MARK);

    assertEquals(2, apply(front, "b", "beta words").revision());
    assertEquals(1, proxy.caught());
    assertEquals(List.of("b"), search(taker, "beta", 2L));
    assertEquals(3, apply(taker, "c", "gamma words").revision());
  }

  @Test
  void
      aPublicationAppliedWhoseAnswerWasLost_thenALaterRevisionPublishedElsewhere_returnsItsReceipt() {
    front.create("docs", CorpusSettings.DEFAULT);
    apply(front, "a", "alpha words");
    CompletableFuture<MutationResult> meanwhile = new CompletableFuture<>();
    proxy.loseAnswerOfNext(PUBLICATION, () -> takeOver(meanwhile));

    MutationResult result = apply(front, "b", "beta words");

    assertEquals(
        2, result.revision(), "the head says 3 now; revision 2's history names this front's batch");
    assertEquals(3, meanwhile.join().revision(), "the other front published 3 over this front's 2");
    assertEquals(List.of("b"), search(taker, "beta", 2L));
    assertEquals(List.of("b"), historyOf(taker, 2));
    assertEquals(4, apply(front, "d", "delta words").revision());
  }

  @Test
  void aPublicationWhoseAnswerWasLost_whileTheCorpusWasDeleted_isUncertain() {
    front.create("docs", CorpusSettings.DEFAULT);
    apply(front, "a", "alpha words");
    proxy.loseAnswerOfNext(PUBLICATION, () -> taker.delete("docs"));

    QuarryException e = assertThrows(QuarryException.class, () -> apply(front, "b", "beta words"));

    assertEquals(ErrorCode.UNAVAILABLE, e.code());
    assertTrue(
        e.uncertain(), "nothing is left to tell whether it was published: " + e.getMessage());
    assertFalse(e.getMessage().contains("nothing was applied"), e.getMessage());
  }

  @Test
  void aPublicationThatNeverLanded_whileAnotherFrontPublishedItsOwnRevision_appliedNothing() {
    front.create("docs", CorpusSettings.DEFAULT);
    apply(front, "a", "alpha words");
    CompletableFuture<MutationResult> meanwhile = new CompletableFuture<>();
    proxy.dropNext(PUBLICATION, () -> takeOver(meanwhile));

    QuarryException e = assertThrows(QuarryException.class, () -> apply(front, "b", "beta words"));

    assertEquals(ErrorCode.UNAVAILABLE, e.code());
    assertFalse(e.uncertain(), "revision 2 is the other front's: " + e.getMessage());
    assertTrue(e.getMessage().contains("nothing was applied"), e.getMessage());
    assertEquals(
        2, meanwhile.join().revision(), "the other front rolled 2 back and published its own");
    for (Long revision : new Long[] {null, 1L, 2L}) {
      assertEquals(List.of(), search(taker, "beta", revision), "revision " + revision);
    }
    assertEquals(List.of("c"), historyOf(taker, 2));
    assertEquals(3, apply(front, "d", "delta words").revision());
  }

  /**
   * The publication of {@code revision} (a roll-back's clearing of the head keeps the revision
   * below).
   */
  static Predicate<LosingProxy.Request> publicationOf(long revision) {
    return PUBLICATION.and(r -> r.body().contains("\"published\":" + revision + ","));
  }

  @Test
  void aPublicationAppliedWhoseEveryAnswerWasLost_returnsItsReceipt() {
    front.create("docs", CorpusSettings.DEFAULT);
    apply(front, "a", "alpha words");
    proxy.loseAnswersOfEvery(publicationOf(2));

    MutationResult result = apply(front, "b", "beta words");

    proxy.stop();
    assertEquals(2, proxy.caught(), "both attempts of the publication lost their answers");
    assertEquals(
        2, result.revision(), "the head read again names this batch as the publisher of 2");
    assertRevisionTwoHoldsB();
    assertEquals(
        3, apply(front, "c", "gamma words").revision(), "the next batch gets the next revision");
  }

  @Test
  void aPublicationNeverAnswered_thatNeverLanded_isWithdrawn_andAppliedNothing() {
    front.create("docs", CorpusSettings.DEFAULT);
    apply(front, "a", "alpha words");
    String index = front.kept("docs").indexName();
    proxy.dropEvery(publicationOf(2));

    QuarryException e = assertThrows(QuarryException.class, () -> apply(front, "b", "beta words"));

    proxy.stop();
    assertEquals(2, proxy.caught(), "neither attempt of the publication was forwarded");
    assertEquals(ErrorCode.UNAVAILABLE, e.code());
    assertFalse(e.uncertain(), "the head was fenced off before the answer: " + e.getMessage());
    assertTrue(e.getMessage().contains("nothing was applied"), e.getMessage());
    CorpusHead head = CorpusHead.read(node, index);
    assertEquals(1, head.published());
    assertEquals(null, head.writing(), "the withdrawn revision was rolled back");
    assertEquals(2, apply(front, "c", "gamma words").revision(), "the next batch gets revision 2");
    for (Long revision : new Long[] {null, 1L, 2L}) {
      for (OpenSearchCorpusStore store : List.of(front, taker)) {
        assertEquals(List.of(), search(store, "beta", revision), "revision " + revision);
      }
    }
    assertEquals(List.of("c"), search(taker, "gamma", 2L));
    assertEquals(List.of("c"), historyOf(taker, 2));
  }

  @Test
  void aPublicationNeverAnswered_whileTheClusterStaysUnreachable_isUncertain() {
    OpenSearchCorpusStore hasty =
        new OpenSearchCorpusStore(
            new OpenSearchSettings(List.of(proxy.url()), prefix, 1, 0, TTL, Duration.ofSeconds(2)),
            EngineConfig.builder().build());
    try {
      hasty.create("docs", CorpusSettings.DEFAULT);
      apply(hasty, "a", "alpha words");
      // From the publication of 2 on, no request reaches the node.
      AtomicBoolean down = new AtomicBoolean();
      Predicate<LosingProxy.Request> publication = publicationOf(2);
      proxy.dropEvery(r -> down.get() || (publication.test(r) && !down.getAndSet(true)));

      long start = System.nanoTime();
      QuarryException e =
          assertThrows(QuarryException.class, () -> apply(hasty, "b", "beta words"));

      assertEquals(ErrorCode.UNAVAILABLE, e.code());
      assertTrue(e.uncertain(), "the head could not be read again: " + e.getMessage());
      assertFalse(e.getMessage().contains("nothing was applied"), e.getMessage());
      assertTrue(
          System.nanoTime() - start < Duration.ofSeconds(20).toNanos(),
          "the head is read again for a bounded time");
      proxy.stop();
      assertEquals(
          2, apply(taker, "c", "gamma words").revision(), "nothing of the batch was published");
      assertEquals(List.of(), search(taker, "beta", null));
    } finally {
      proxy.stop();
      TestIndexes.close(hasty);
    }
  }

  /**
   * Source "b" was published at revision 2, once, as both fronts see it: latest, pinned, history.
   */
  private void assertRevisionTwoHoldsB() {
    for (OpenSearchCorpusStore store : List.of(front, taker)) {
      assertEquals(List.of("b"), search(store, "beta", null));
      assertEquals(List.of("b"), search(store, "beta", 2L));
      assertEquals(List.of(), search(store, "beta", 1L));
      assertEquals(List.of("b"), historyOf(store, 2));
    }
  }

  /**
   * Another front's batch, once this front's lease expired (this front stalls, its request in
   * flight).
   */
  private void takeOver(CompletableFuture<MutationResult> result) {
    try {
      Thread.sleep(TTL.toMillis() + 500);
      result.complete(apply(taker, "c", "gamma words"));
    } catch (Throwable t) {
      result.completeExceptionally(t);
    }
  }

  @Test
  void aLeaseRenewalAppliedWhoseAnswerWasLost_keepsTheLease_andReleasesIt() throws Exception {
    front.create("docs", CorpusSettings.DEFAULT);
    proxy.loseAnswerOfNext(LEASE_RENEWAL);

    assertEquals(1, apply(front, "a", "alpha words").revision());

    assertEquals(1, proxy.caught());
    String index = front.kept("docs").indexName();
    long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
    while (node.get("/" + index + "/_doc/" + CorpusDocs.LEASE_ID).status() != 404) {
      assertTrue(System.nanoTime() < deadline, "the lease is released after the batch");
      Thread.sleep(20);
    }
  }

  @Test
  void aRegistrationAppliedWhoseAnswerWasLost_createsTheCorpus() {
    proxy.loseAnswerOfNext(REGISTRATION);

    String corpusId = front.create("docs", CorpusSettings.DEFAULT).corpusId();

    assertEquals(1, proxy.caught());
    assertEquals(corpusId, taker.info("docs").orElseThrow().corpusId());
    assertEquals(1, apply(front, "a", "alpha words").revision());
    assertEquals(List.of("a"), search(taker, "alpha", null));
  }

  @Test
  void aCorpusIndexCreatedWhoseAnswerWasLost_createsTheCorpus() {
    proxy.loseAnswerOfNext(CORPUS_INDEX);

    front.create("docs", CorpusSettings.DEFAULT);

    assertEquals(1, proxy.caught());
    assertEquals(1, apply(front, "a", "alpha words").revision());
  }

  @Test
  void aDeletionAppliedWhoseAnswerWasLost_deletesTheCorpus_andItsIndex() {
    front.create("docs", CorpusSettings.DEFAULT);
    apply(front, "a", "alpha words");
    String index = front.kept("docs").indexName();
    proxy.loseAnswerOfNext(UNREGISTRATION);

    front.delete("docs");

    assertEquals(1, proxy.caught());
    assertTrue(taker.info("docs").isEmpty());
    assertEquals(
        404, node.send("HEAD", "/" + index, null, null).status(), "the corpus's index is gone");
  }
}
