package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EmbeddingModels;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.embed.VectorCodec;
import dev.quarry.engine.embed.VectorLists;
import dev.quarry.testing.HashingEmbedder;
import dev.quarry.testing.TestSeed;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntToLongFunction;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coded first pass ({@code index: codes}) against a record of every revision's answers: with
 * more chunks than the pass hands to exact scoring, after random writes, deletes, purges of other
 * sources, forced merges, restarts and random writer configurations, every retained revision
 * answers (hits, order, scores, parts) exactly as it did when it was the latest; every hit's score
 * is its exact score; and with candidates for every chunk the answer is the exact one.
 */
class CodedFirstPassTest {
  private static final EmbeddingModels MODELS = EmbeddingModels.of(new HashingEmbedder());
  private static final String[] WORDS = {
    "river",
    "otter",
    "bank",
    "delta",
    "stone",
    "bridge",
    "water",
    "salmon",
    "reed",
    "heron",
    "mill",
    "ford",
    "loan",
    "interest",
    "vault",
    "meadow",
    "lark",
    "copper",
    "kiln",
    "weir"
  };
  private static final List<String> QUERIES =
      List.of(
          "river",
          "otter in the water",
          "money in a bank",
          "heron mill",
          "copper kiln by the weir");

  @TempDir Path dir;

  private static EngineConfig config() {
    return EngineConfig.builder().embeddingModels(MODELS).build();
  }

  private static CorpusInfo info(
      CorpusSettings.VectorIndex index, CorpusSettings.FirstPass firstPass) {
    CorpusSettings settings =
        new CorpusSettings(
            CorpusSettings.Language.ENGLISH,
            new CorpusSettings.Chunking(16, 0),
            CorpusSettings.Ranking.DEFAULT,
            new CorpusSettings.Embedding(
                HashingEmbedder.MODEL,
                null,
                0.5,
                index,
                CorpusSettings.Embedding.DEFAULT_NORMALIZATION,
                firstPass));
    return new CorpusInfo("coded", "coded-id", MODELS.resolve(settings), Instant.EPOCH);
  }

  /** The lists the test model ships (one a word of {@link #WORDS}' first 16). */
  private static final int LISTS = VectorLists.countFor(new HashingEmbedder().sha256());

  /**
   * Each code the first pass can read: sign codes, centred codes of one and of three bits, and
   * centred codes of two bits in an inverted file read four lists at a time.
   */
  private static final List<CorpusSettings.FirstPass> PASSES =
      List.of(
          new CorpusSettings.FirstPass(1, CorpusSettings.FirstPass.MIN_CANDIDATES),
          centred(1, CorpusSettings.FirstPass.MIN_CANDIDATES),
          new CorpusSettings.FirstPass(
              3,
              CorpusSettings.FirstPass.MIN_CANDIDATES,
              CorpusSettings.FirstPass.Code.CENTRED,
              null,
              7),
          listed(CorpusSettings.FirstPass.MIN_CANDIDATES, 4));

  private static CorpusSettings.FirstPass listed(int candidates, int probes) {
    return new CorpusSettings.FirstPass(
        2,
        candidates,
        CorpusSettings.FirstPass.Code.CENTRED,
        null,
        CorpusSettings.FirstPass.DEFAULT.seed(),
        null,
        probes);
  }

  private static CorpusSettings.FirstPass centred(int bits, int candidates) {
    return new CorpusSettings.FirstPass(
        bits,
        candidates,
        CorpusSettings.FirstPass.Code.CENTRED,
        null,
        CorpusSettings.FirstPass.DEFAULT.seed());
  }

  /** Every chunk a candidate, and every list read. */
  private static CorpusSettings.FirstPass widened(CorpusSettings.FirstPass pass) {
    return everyCandidate(pass, pass.hasLists() ? LISTS : 0);
  }

  /** {@code pass}'s codes with every chunk a candidate, reading {@code probes} lists at least. */
  private static CorpusSettings.FirstPass everyCandidate(
      CorpusSettings.FirstPass pass, int probes) {
    return new CorpusSettings.FirstPass(
        pass.bits(),
        CorpusSettings.FirstPass.MAX_CANDIDATES,
        pass.code(),
        null,
        pass.seed(),
        null,
        probes);
  }

  private static String name(CorpusSettings.FirstPass pass) {
    return pass.code().wireName()
        + pass.bits()
        + "-"
        + pass.seed()
        + (pass.hasLists() ? "-probes" + pass.probes() : "");
  }

  record Answer(String source, long sourceRevision, int chunk, float score, Hit.ScoreParts parts) {}

  @Test
  @ExtendWith(TestSeed.class)
  void aPinnedSearch_answersTheSameAcrossMergesRestartsWritesAndPurges(Random random)
      throws Exception {
    for (CorpusSettings.FirstPass pass : PASSES) {
      pinnedSearches(random, dir.resolve(name(pass)), info(CorpusSettings.VectorIndex.CODES, pass));
    }
  }

  private static void pinnedSearches(Random random, Path dir, CorpusInfo coded) throws Exception {
    Map<Long, Map<String, List<Answer>>> answers = new TreeMap<>();
    Map<Long, Set<String>> visible = new HashMap<>();
    List<String> live = new ArrayList<>();
    CorpusIndex index = RandomWriterConfigs.open(dir, coded, config(), random);
    try {
      List<SourceOperation> first = new ArrayList<>();
      for (int s = 0; s < 90; s++) {
        first.add(SourceOperation.Index.text("s" + s, null, randomText(random), null));
        live.add("s" + s);
      }
      MutationResult r = index.apply(new Mutation(first, "tester", null, null));
      answers.put(r.revision(), answerAll(index, r.revision()));
      visible.put(r.revision(), Set.copyOf(live));
      for (int step = 0; step < Integer.getInteger("coded.steps", 12); step++) {
        List<SourceOperation> ops = new ArrayList<>();
        for (int n = 1 + random.nextInt(4); ops.size() < n; ) {
          String source = "s" + random.nextInt(120);
          if (ops.stream().anyMatch(o -> o.source().equals(source))) {
            continue;
          }
          if (live.contains(source) && random.nextInt(3) == 0) {
            ops.add(new SourceOperation.Delete(source, null, random.nextBoolean()));
            live.remove(source);
          } else {
            ops.add(SourceOperation.Index.text(source, null, randomText(random), null));
            if (!live.contains(source)) {
              live.add(source);
            }
          }
        }
        r = index.apply(new Mutation(ops, "tester", null, null));
        answers.put(r.revision(), answerAll(index, r.revision()));
        visible.put(r.revision(), Set.copyOf(live));
        switch (random.nextInt(4)) {
          case 0 -> ((LuceneCorpusIndex) index).forceMerge(1 + random.nextInt(3));
          case 1 -> {
            index.close();
            index = RandomWriterConfigs.open(dir, coded, config(), random);
          }
          default -> {}
        }
        for (Map.Entry<Long, Map<String, List<Answer>>> at : answers.entrySet()) {
          // A purge erases a source's content from every revision, so revisions that held it
          // change;
          // the others must not.
          if (heldPurged(visible.get(at.getKey()), ops)) {
            answers.put(at.getKey(), answerAll(index, at.getKey()));
            continue;
          }
          assertEquals(
              at.getValue(),
              answerAll(index, at.getKey()),
              name(coded.settings().embedding().firstPass())
                  + ": revision "
                  + at.getKey()
                  + " answered differently after step "
                  + step);
        }
      }
    } finally {
      index.close();
    }
  }

  private static boolean heldPurged(Set<String> visible, List<SourceOperation> ops) {
    return ops.stream()
        .anyMatch(
            o ->
                o instanceof SourceOperation.Delete d && d.purge() && visible.contains(d.source()));
  }

  @Test
  @ExtendWith(TestSeed.class)
  void everyHitScoresExactly_andEnoughCandidatesGiveTheExactAnswer(Random random) throws Exception {
    for (CorpusSettings.FirstPass pass : PASSES) {
      exactScores(random, dir.resolve(name(pass)), pass);
    }
  }

  private static void exactScores(Random random, Path dir, CorpusSettings.FirstPass pass)
      throws Exception {
    CorpusInfo coded = info(CorpusSettings.VectorIndex.CODES, pass);
    try (CorpusIndex index = RandomWriterConfigs.open(dir, coded, config(), random)) {
      List<SourceOperation> ops = new ArrayList<>();
      for (int s = 0; s < 120; s++) {
        ops.add(SourceOperation.Index.text("s" + s, null, randomText(random), null));
      }
      index.apply(new Mutation(ops, "tester", null, null));
    }
    Map<String, List<Answer>> codedAnswers;
    Map<String, List<Answer>> forced;
    try (CorpusIndex index = CorpusIndex.open(dir, coded, config())) {
      codedAnswers = answerAll(index, null);
      forced = answerAll(index, null, true);
    }
    Map<String, List<Answer>> exact;
    try (CorpusIndex index =
        CorpusIndex.open(dir, info(CorpusSettings.VectorIndex.EXACT, null), config())) {
      exact = answerAll(index, null);
    }
    Map<String, List<Answer>> wide;
    try (CorpusIndex index =
        CorpusIndex.open(dir, info(CorpusSettings.VectorIndex.CODES, widened(pass)), config())) {
      wide = answerAll(index, null);
    }
    assertEquals(
        exact,
        wide,
        name(pass)
            + ": with every chunk a candidate (and every list read), the coded pass is the exact"
            + " search");
    assertEquals(exact, forced, name(pass) + ": a request with exact scans every chunk exactly");
    if (pass.hasLists()) {
      // One probe, but candidates for every chunk: the lists read grow, nearest first, until they
      // hold the candidates in scope, so a corpus smaller than the candidates is read whole (the
      // default index's promise to small corpora).
      CorpusSettings.FirstPass oneProbe = everyCandidate(pass, 1);
      try (CorpusIndex index =
          CorpusIndex.open(dir, info(CorpusSettings.VectorIndex.CODES, oneProbe), config())) {
        assertEquals(
            exact,
            answerAll(index, null),
            name(pass) + ": one probe, every chunk a candidate: every list is read");
      }
    }
    for (String q : QUERIES) {
      Map<String, Float> exactScores = new HashMap<>();
      exact
          .get("semantic:" + q)
          .forEach(a -> exactScores.put(a.source() + "#" + a.chunk(), a.score()));
      List<Answer> got = codedAnswers.get("semantic:" + q);
      assertEquals(exact.get("semantic:" + q).size(), got.size());
      for (Answer a : got) {
        Float s = exactScores.get(a.source() + "#" + a.chunk());
        if (s != null) {
          assertEquals(s, a.score(), "a coded hit's score is its exact score: " + a);
        }
      }
    }
  }

  @Test
  @ExtendWith(TestSeed.class)
  void tiesAtTheFirstPassBoundary_goBySourceThenChunk(Random random) throws Exception {
    for (CorpusSettings.FirstPass pass : PASSES) {
      // Every chunk has the same text, so all are in one list: read every list.
      CorpusSettings.FirstPass all =
          pass.hasLists() ? listed(CorpusSettings.FirstPass.MIN_CANDIDATES, LISTS) : pass;
      ties(random, dir.resolve(name(pass)), info(CorpusSettings.VectorIndex.CODES, all));
    }
  }

  /**
   * With an inverted file, a search estimates only the chunks filed in the lists it reads: the
   * lists nearest the query, at least {@code probes} and more until they hold {@code candidates}
   * chunks in scope. Each chunk's list and score are read back from the index itself, and every hit
   * must lie in a list read, with its exact score; the lists read are fewer than all.
   */
  @Test
  @ExtendWith(TestSeed.class)
  void anInvertedFile_readsTheNearestListsAndNoOther(Random random) throws Exception {
    CorpusInfo coded =
        info(CorpusSettings.VectorIndex.CODES, listed(CorpusSettings.FirstPass.MIN_CANDIDATES, 1));
    try (CorpusIndex index = RandomWriterConfigs.open(dir, coded, config(), random)) {
      List<SourceOperation> ops = new ArrayList<>();
      for (int s = 0; s < 300; s++) {
        ops.add(SourceOperation.Index.text("s" + s, null, randomText(random), null));
      }
      index.apply(new Mutation(ops, "tester", null, null));
      ((LuceneCorpusIndex) index).forceMerge(1 + random.nextInt(3));
    }
    record Filed(String source, int chunk, int list, BytesRef vector) {}
    List<Filed> chunks = new ArrayList<>();
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      for (LeafReaderContext leaf : reader.leaves()) {
        BinaryDocValues vectors = leaf.reader().getBinaryDocValues(Fields.VECTOR);
        NumericDocValues lists = leaf.reader().getNumericDocValues(Fields.VECTOR_LIST);
        SortedDocValues sources = leaf.reader().getSortedDocValues(Fields.SOURCE);
        NumericDocValues chunkNumbers = leaf.reader().getNumericDocValues(Fields.CHUNK);
        for (int d = vectors.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = vectors.nextDoc()) {
          assertTrue(lists.advanceExact(d), "every chunk with a vector is filed in a list");
          assertTrue(sources.advanceExact(d) && chunkNumbers.advanceExact(d));
          chunks.add(
              new Filed(
                  sources.lookupOrd(sources.ordValue()).utf8ToString(),
                  (int) chunkNumbers.longValue(),
                  (int) lists.longValue(),
                  BytesRef.deepCopyOf(vectors.binaryValue())));
        }
      }
    }
    VectorLists lists =
        VectorLists.of(
            coded.settings().embedding().sha256(),
            coded.settings().embedding().firstPass().lists());
    HashingEmbedder model = new HashingEmbedder();
    int fewerThanAll = 0;
    try (CorpusIndex index = CorpusIndex.open(dir, coded, config())) {
      // Unscoped, the first pass walks the lists; scoped to some sources, it files the chunks the
      // scope's query matches and counts those.
      for (SourceScope scope : List.of(SourceScope.ALL, new SourceScope(List.of("s1*")))) {
        long[] inScope = new long[LISTS + 1];
        chunks.stream().filter(c -> scope.contains(c.source())).forEach(c -> inScope[c.list()]++);
        for (String q : QUERIES) {
          float[] query = model.embedQuery(q);
          boolean[] read =
              probed(lists, query, 1, l -> inScope[l], CorpusSettings.FirstPass.MIN_CANDIDATES);
          Map<String, Filed> byChunk = new HashMap<>();
          chunks.forEach(c -> byChunk.put(c.source() + "#" + c.chunk(), c));
          SearchRequest request =
              new SearchRequest(
                  q, scope, List.of(), 10, null, null, false, SearchRequest.Mode.SEMANTIC, null);
          List<Hit> hits = index.search(request).hits();
          assertEquals(10, hits.size(), q + " in " + scope);
          for (Hit h : hits) {
            Filed c = byChunk.get(h.source() + "#" + h.chunk());
            assertTrue(scope.contains(c.source()));
            assertTrue(read[c.list()], q + " in " + scope + ": " + h + " is in an unread list");
            assertEquals(VectorCodec.dot(query, c.vector()), h.score(), "the exact score");
          }
          int readLists = 0;
          for (boolean r : read) {
            readLists += r ? 1 : 0;
          }
          fewerThanAll += readLists < LISTS ? 1 : 0;
        }
      }
    }
    assertTrue(fewerThanAll > 0, "some search reads fewer lists than all");
  }

  @Test
  void theListsRead_areTheNearest_untilTheyHoldEnoughChunks() {
    VectorLists lists =
        VectorLists.of(
            new HashingEmbedder().sha256(),
            info(CorpusSettings.VectorIndex.CODES, listed(100, 1))
                .settings()
                .embedding()
                .firstPass()
                .lists());
    // The test model's lists are its words, in WORDS' order: "bank" is list 2.
    float[] query = new HashingEmbedder().embedQuery("bank");
    long[] chunks = new long[LISTS + 1];
    Arrays.fill(chunks, 0, LISTS, 10); // and none filed in no list
    boolean[] one = probed(lists, query, 1, l -> chunks[l], 0);
    assertTrue(one[2], "the nearest list");
    assertEquals(1, count(one));
    assertEquals(3, count(probed(lists, query, 3, l -> chunks[l], 0)), "at least probes lists");
    assertEquals(
        5, count(probed(lists, query, 1, l -> chunks[l], 45)), "until they hold the floor");
    chunks[LISTS] = 45;
    assertEquals(
        1, count(probed(lists, query, 1, l -> chunks[l], 45)), "chunks in no list count too");
    assertEquals(
        LISTS, count(probed(lists, query, 1, l -> chunks[l], 1_000)), "at most every list");
  }

  private static void ties(Random random, Path dir, CorpusInfo coded) throws Exception {
    // Every chunk the same text: every estimate and every exact score ties, so which chunks are
    // candidates is decided by source and chunk alone, whatever the segments.
    try (CorpusIndex index = RandomWriterConfigs.open(dir, coded, config(), random)) {
      List<SourceOperation> ops = new ArrayList<>();
      for (int s = 0; s < 260; s++) {
        ops.add(
            SourceOperation.Index.text(
                String.format("t%03d", (s * 7919) % 260), null, "river otter bank", null));
      }
      index.apply(new Mutation(ops, "tester", null, null));
      ((LuceneCorpusIndex) index).forceMerge(1 + random.nextInt(3));
    }
    Map<String, List<Answer>> answers;
    try (CorpusIndex index = CorpusIndex.open(dir, coded, config())) {
      answers = answerAll(index, null);
    }
    try (CorpusIndex index =
        CorpusIndex.open(dir, info(CorpusSettings.VectorIndex.EXACT, null), config())) {
      assertEquals(answerAll(index, null), answers);
    }
    assertEquals("t000", answers.get("semantic:river").get(0).source());
  }

  /** The lists {@link VectorLists#read} reads, marked: {@code probed[list]} for each one read. */
  private static boolean[] probed(
      VectorLists lists, float[] query, int probes, IntToLongFunction chunksIn, long floor) {
    boolean[] probed = new boolean[lists.count()];
    for (int list : lists.read(query, probes, chunksIn, floor)) {
      probed[list] = true;
    }
    return probed;
  }

  private static int count(boolean[] read) {
    int n = 0;
    for (boolean r : read) {
      n += r ? 1 : 0;
    }
    return n;
  }

  @Test
  void aFirstPassSetting_thatCannotApply_isATypedError() {
    assertEquals(
        "settings.embedding.firstPass.bits",
        assertThrows(QuarryException.class, () -> new CorpusSettings.FirstPass(2, 1000)).field());
    assertEquals(
        "settings.embedding.firstPass.candidates",
        assertThrows(QuarryException.class, () -> new CorpusSettings.FirstPass(1, 10)).field());
    assertEquals(
        "settings.embedding.firstPass",
        assertThrows(
                QuarryException.class,
                () ->
                    new CorpusSettings.Embedding(
                        HashingEmbedder.MODEL,
                        null,
                        0.5,
                        CorpusSettings.VectorIndex.EXACT,
                        CorpusSettings.Embedding.DEFAULT_NORMALIZATION,
                        CorpusSettings.FirstPass.DEFAULT))
            .field());
    assertEquals(
        CorpusSettings.FirstPass.DEFAULT,
        new CorpusSettings.Embedding(
                HashingEmbedder.MODEL, null, 0.5, CorpusSettings.VectorIndex.CODES)
            .firstPass(),
        "a coded corpus without parameters gets the defaults");
    assertEquals(
        "settings.embedding.firstPass.bits",
        assertThrows(QuarryException.class, () -> centred(5, 1000)).field());
    // A model without a shipped centre cannot have centred codes: refused when the corpus is
    // created.
    EmbeddingModels other = EmbeddingModels.of(new HashingEmbedder("no-centre", 64, 256));
    CorpusSettings noCentre = codedWith("no-centre", centred(1, 1000));
    assertEquals(
        "settings.embedding.firstPass.code",
        assertThrows(QuarryException.class, () -> other.resolve(noCentre)).field());
    // Probes: at least one, at most the lists the model ships, and only for a model that ships
    // lists.
    assertEquals(
        "settings.embedding.firstPass.probes",
        assertThrows(QuarryException.class, () -> listed(1000, -1)).field());
    assertEquals(
        "settings.embedding.firstPass.probes",
        assertThrows(
                QuarryException.class,
                () -> info(CorpusSettings.VectorIndex.CODES, listed(1000, LISTS + 1)))
            .field());
    CorpusSettings noLists =
        codedWith(
            "no-centre",
            new CorpusSettings.FirstPass(
                1, 1000, CorpusSettings.FirstPass.Code.SIGN, null, 0, null, 2));
    assertEquals(
        "settings.embedding.firstPass.probes",
        assertThrows(QuarryException.class, () -> other.resolve(noLists)).field());
  }

  /** A coded corpus's settings of {@code model} with {@code pass}, before the model is resolved. */
  private static CorpusSettings codedWith(String model, CorpusSettings.FirstPass pass) {
    return CorpusSettings.DEFAULT.withEmbedding(
        new CorpusSettings.Embedding(
            model,
            null,
            0.5,
            CorpusSettings.VectorIndex.CODES,
            CorpusSettings.Embedding.DEFAULT_NORMALIZATION,
            pass));
  }

  @Test
  void theLists_areBoundAtCreation_andRecorded() {
    CorpusSettings.FirstPass bound =
        info(CorpusSettings.VectorIndex.CODES, listed(500, 3)).settings().embedding().firstPass();
    assertEquals(64, bound.lists().length(), "the lists are named by their SHA-256");
    assertEquals(3, bound.probes());
    assertTrue(bound.hasLists());
    assertNull(
        info(CorpusSettings.VectorIndex.CODES, centred(2, 500))
            .settings()
            .embedding()
            .firstPass()
            .lists(),
        "no probes, no lists");
  }

  @Test
  void theCentre_isBoundAtCreation_andRecorded() {
    CorpusSettings.FirstPass bound =
        info(CorpusSettings.VectorIndex.CODES, centred(2, 500)).settings().embedding().firstPass();
    assertEquals(64, bound.centre().length(), "the centre is named by its SHA-256");
    assertEquals(CorpusSettings.FirstPass.DEFAULT.seed(), bound.seed());
    assertEquals(2, bound.bits());
  }

  @Test
  @ExtendWith(TestSeed.class)
  void onlyACodedCorpus_storesCodes_andOnlyItsOwn(Random random) throws Exception {
    Map<String, CorpusInfo> corpora = new TreeMap<>();
    corpora.put("exact", info(CorpusSettings.VectorIndex.EXACT, null));
    corpora.put("sign", info(CorpusSettings.VectorIndex.CODES, PASSES.get(0)));
    corpora.put("centred", info(CorpusSettings.VectorIndex.CODES, PASSES.get(1)));
    corpora.put("listed", info(CorpusSettings.VectorIndex.CODES, PASSES.get(3)));
    for (Map.Entry<String, CorpusInfo> c : corpora.entrySet()) {
      Path at = dir.resolve(c.getKey());
      try (CorpusIndex index = RandomWriterConfigs.open(at, c.getValue(), config(), random)) {
        index.apply(
            new Mutation(
                List.of(SourceOperation.Index.text("a", null, randomText(random), null)),
                "tester",
                null,
                null));
      }
      try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(at))) {
        Set<String> fields = new TreeSet<>();
        for (LeafReaderContext leaf : reader.leaves()) {
          for (FieldInfo f : leaf.reader().getFieldInfos()) {
            fields.add(f.name);
          }
        }
        assertEquals(
            c.getKey().equals("sign"),
            fields.contains(Fields.VECTOR_CODE),
            c.getKey() + ": " + fields);
        assertEquals(
            c.getKey().equals("centred") || c.getKey().equals("listed"),
            fields.contains(Fields.VECTOR_CENTRED_CODE),
            c.getKey() + ": " + fields);
        assertEquals(
            c.getKey().equals("listed"),
            fields.contains(Fields.VECTOR_LIST),
            c.getKey() + ": " + fields);
        assertTrue(fields.contains(Fields.VECTOR), c.getKey() + ": " + fields);
      }
    }
  }

  @Test
  void exact_onALexicalCorpusOrALexicalSearch_isATypedError() throws Exception {
    CorpusInfo lexical =
        new CorpusInfo("lexical", "lexical-id", CorpusSettings.DEFAULT, Instant.EPOCH);
    try (CorpusIndex index = CorpusIndex.open(dir.resolve("lexical"), lexical, config())) {
      assertEquals(
          "exact",
          assertThrows(
                  QuarryException.class,
                  () -> index.search(SearchRequest.of("river").withExact(true)))
              .field());
    }
    try (CorpusIndex index =
        CorpusIndex.open(
            dir.resolve("coded"),
            info(CorpusSettings.VectorIndex.CODES, PASSES.get(1)),
            config())) {
      assertEquals(
          "exact",
          assertThrows(
                  QuarryException.class,
                  () ->
                      index.search(
                          new SearchRequest(
                                  "river",
                                  SourceScope.ALL,
                                  List.of(),
                                  10,
                                  null,
                                  null,
                                  false,
                                  SearchRequest.Mode.LEXICAL,
                                  null)
                              .withExact(true)))
              .field());
    }
  }

  private static Map<String, List<Answer>> answerAll(CorpusIndex index, Long revision) {
    return answerAll(index, revision, false);
  }

  private static Map<String, List<Answer>> answerAll(
      CorpusIndex index, Long revision, boolean exact) {
    Map<String, List<Answer>> out = new TreeMap<>();
    for (String q : QUERIES) {
      for (SearchRequest.Mode mode :
          List.of(SearchRequest.Mode.SEMANTIC, SearchRequest.Mode.HYBRID)) {
        List<Answer> list = new ArrayList<>();
        SearchRequest request =
            new SearchRequest(q, SourceScope.ALL, List.of(), 10, revision, null, false, mode, null)
                .withExact(exact);
        for (Hit h : index.search(request).hits()) {
          list.add(new Answer(h.source(), h.sourceRevision(), h.chunk(), h.score(), h.parts()));
        }
        out.put(mode.wireName() + ":" + q, list);
      }
    }
    return out;
  }

  /** Eight to 80 of the test's words: up to five chunks of 16 words a source. */
  private static String randomText(Random random) {
    int words = 8 + random.nextInt(73);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < words; i++) {
      sb.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
    }
    return sb.toString();
  }
}
