package dev.quarry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.corpora.Corpora;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import dev.quarry.testing.OpenSearchNodes;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link GrantedScoresContract} on a real OpenSearch node with Quarry's scoring plugin, corpora of
 * two shards (each shard counts the granted chunks it holds, the DFS phase sums them); and, on a
 * front that does not use the plugin, a search by a token granted only some sources is refused,
 * never answered with scores that count the others.
 */
class ClusterGrantedScoresIT extends GrantedScoresContract {
  static final String PREFIX = "t-granted-" + System.nanoTime() % 100000;
  static Corpora corpora;
  static final List<String> created = new java.util.ArrayList<>();

  @BeforeAll
  static void open() throws Exception {
    corpora =
        Corpora.builder()
            .store(
                new OpenSearchCorpusStore(
                    OpenSearchSettings.of(OpenSearchNodes.single().urls())
                        .withReplicas(0)
                        .withShards(2)
                        .withPrefix(PREFIX),
                    EngineConfig.builder().build()))
            .build();
  }

  @AfterAll
  static void close() throws Exception {
    for (String name : created) {
      corpora.deleteCorpus(ADMIN, name);
    }
    corpora.close();
  }

  @Override
  protected Corpora corpora() {
    return corpora;
  }

  @Override
  protected String newCorpusName(String hint) {
    String name = hint + "-" + created.size();
    created.add(name);
    return name;
  }

  @Test
  void withoutThePlugin_aRestrictedTokensSearchIsRefused_andAFullOneAnswered() throws Exception {
    OpenSearchCorpusStore plain =
        new OpenSearchCorpusStore(
            OpenSearchSettings.of(OpenSearchNodes.single().urls())
                .withReplicas(0)
                .withPrefix(PREFIX + "-plain"),
            EngineConfig.builder().build(),
            dev.quarry.corpora.CorporaBuilder.DEFAULT_MAX_OPEN_CORPORA,
            false);
    try {
      assertFalse(plain.scoresExactly());
      plain.create("plain", CorpusSettings.DEFAULT);
      plain.withCorpus(
          "plain",
          index -> {
            index.apply(
                new Mutation(
                    List.of(
                        SourceOperation.Index.text(
                            "public/probe.md", null, "acquisition zebraword", Metadata.EMPTY),
                        SourceOperation.Index.text(
                            "secret/deal.md", null, "acquisition", Metadata.EMPTY)),
                    "tester",
                    null,
                    null));
            SearchRequest asFull =
                new SearchRequest("acquisition", SourceScope.ALL, List.of(), 10, null, null, false);
            assertEquals(2, index.search(asFull).hits().size());
            SearchRequest asPublic =
                asFull
                    .withScope(new SourceScope(List.of("public/*")))
                    .withStatistics(new SourceScope(List.of("public/*")));
            QuarryException refused =
                assertThrows(QuarryException.class, () -> index.search(asPublic));
            assertEquals(ErrorCode.RETRIEVAL_UNAVAILABLE, refused.code());
            assertFalse(refused.code().retryable());
            assertTrue(
                refused.getMessage().contains("quarry-scoring plugin"), refused.getMessage());
            assertFalse(refused.getMessage().contains("secret"), refused.getMessage());
            return null;
          });
    } finally {
      plain.delete("plain");
      plain.close();
    }
  }
}
