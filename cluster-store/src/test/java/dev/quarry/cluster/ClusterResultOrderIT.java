package dev.quarry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import dev.quarry.testing.TestSeed;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The cluster store answers in the embedded store's result order, score then source (in UTF-8 byte
 * order) then chunk, wherever ties fall against topK: groups of sources share one text each (so the
 * chunks of a group tie, and the groups score apart), with source ids whose UTF-8 order differs
 * from their UTF-16 order, searched with every topK and with a per-source cap. Replay a failure
 * with {@code -Dtests.seed=<hex>} ({@link TestSeed}).
 */
class ClusterResultOrderIT {
  /**
   * One text per group, from most to least relevant to {@link #QUERY}: more of the word, in a
   * shorter text.
   */
  private static final String[] GROUP_TEXTS = {
    "harbor harbor harbor",
    "harbor harbor lagoon",
    "harbor lagoon meadow orchard",
    "harbor lagoon meadow orchard prairie summit"
  };

  private static final String QUERY = "harbor";

  /**
   * Source ids beyond the Basic Multilingual Plane sort after U+FFFD in UTF-8 and before it in
   * UTF-16.
   */
  private static final String[] ID_STARTS = {
    "a", "b", "z", "\uFFFD", "\uD83D\uDE00", "\u00E9", "A"
  };

  OpenSearchCorpusStore store;

  @BeforeEach
  void open() throws Exception {
    store =
        new OpenSearchCorpusStore(
            TestIndexes.onSingleNode("order"), EngineConfig.builder().build());
  }

  @AfterEach
  void close() {
    TestIndexes.close(store);
  }

  record Written(String source, int group) {}

  @Test
  @ExtendWith(TestSeed.class)
  void hitsComeInResultOrder_whereverTiesFall(Random random) {
    store.create("order", CorpusSettings.DEFAULT);
    Set<String> ids = new LinkedHashSet<>();
    while (ids.size() < 24) {
      ids.add(ID_STARTS[random.nextInt(ID_STARTS.length)] + random.nextInt(100));
    }
    List<Written> written = new ArrayList<>();
    List<SourceOperation> ops = new ArrayList<>();
    for (String id : ids) {
      int group = random.nextInt(GROUP_TEXTS.length);
      written.add(new Written(id, group));
      ops.add(SourceOperation.Index.text(id, null, GROUP_TEXTS[group], Metadata.EMPTY));
    }
    store.withCorpus("order", ix -> ix.apply(new Mutation(ops, "tester", null, null)));
    List<String> expected =
        written.stream()
            .sorted(
                Comparator.comparingInt(Written::group)
                    .thenComparing(
                        w -> w.source().getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned))
            .map(Written::source)
            .toList();
    for (int topK = 1; topK <= ids.size() + 1; topK++) {
      for (Integer cap : new Integer[] {null, 1}) {
        SearchRequest request =
            new SearchRequest(QUERY, SourceScope.ALL, List.of(), topK, null, cap, false);
        List<String> got =
            store.withCorpus("order", ix -> ix.search(request).hits()).stream()
                .map(Hit::source)
                .toList();
        assertEquals(
            expected.subList(0, Math.min(topK, expected.size())),
            got,
            "topK " + topK + ", cap " + cap);
      }
    }
  }
}
