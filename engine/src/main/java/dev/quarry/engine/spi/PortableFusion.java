package dev.quarry.engine.spi;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Hit;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.search.HybridFusion;
import dev.quarry.engine.search.ScoredChunk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.util.BytesRef;

/**
 * The embedded store's hybrid fusion for a store that finds each side's candidates itself: given
 * the best lexical and semantic candidates (each side's exact top, in result order) and the exact
 * score on the other side of every candidate only one side found, it ranks them as the embedded
 * store does ({@code search.HybridFusion}, the one home of the rule): the same fused floats, the
 * same order, the same score parts.
 */
public final class PortableFusion {
  /** A chunk of the searched revision: its source and number. */
  public record Key(String source, int chunk) {}

  /** One side's candidate with its exact score on that side. */
  public record Scored(Key key, float score) {}

  /** A chunk of the fused ranking: its fused score and each side's exact score and rank. */
  public record Fused(Key key, float score, Hit.ScoreParts parts) {}

  private PortableFusion() {}

  /** The candidates of {@code side} that {@code other} does not hold, in {@code side}'s order. */
  public static List<Key> onlyIn(List<Scored> side, List<Scored> other) {
    Set<Key> there = new HashSet<>();
    other.forEach(s -> there.add(s.key()));
    List<Key> out = new ArrayList<>();
    for (Scored s : side) {
      if (!there.contains(s.key())) {
        out.add(s.key());
      }
    }
    return out;
  }

  /**
   * The fused ranking of a hybrid search's candidates: its best {@code topK} under its {@code
   * maxChunksPerSource}, fused as {@code request} asks on a corpus whose embedding is {@code
   * embedding}.
   *
   * @param lexical the lexical candidates, in result order
   * @param semantic the semantic candidates, in result order
   * @param lexicalOfOthers the exact lexical score of each semantic candidate {@code lexical} does
   *     not hold; one absent scores 0 (it holds no query term)
   * @param semanticOfOthers the exact semantic score of each lexical candidate {@code semantic}
   *     does not hold
   */
  public static List<Fused> fuse(
      List<Scored> lexical,
      List<Scored> semantic,
      Map<Key, Float> lexicalOfOthers,
      Map<Key, Float> semanticOfOthers,
      SearchRequest request,
      CorpusSettings.Embedding embedding) {
    // Each candidate stands for a doc of the embedded store: numbered in the order first met.
    Map<Key, Integer> docs = new LinkedHashMap<>();
    List<ScoredChunk> lexicalChunks = chunks(lexical, docs);
    List<ScoredChunk> semanticChunks = chunks(semantic, docs);
    Map<Integer, int[]> ranks = HybridFusion.ranks(lexicalChunks, semanticChunks);
    Map<Key, Float> lexicalScores = new HashMap<>(lexicalOfOthers);
    lexical.forEach(s -> lexicalScores.put(s.key(), s.score()));
    Map<Key, Float> semanticScores = new HashMap<>(semanticOfOthers);
    semantic.forEach(s -> semanticScores.put(s.key(), s.score()));
    List<Key> byDoc = new ArrayList<>(docs.keySet());
    int[] order = ranks.keySet().stream().mapToInt(Integer::intValue).toArray();
    float[] lexicalOf = new float[order.length];
    float[] semanticOf = new float[order.length];
    for (int i = 0; i < order.length; i++) {
      Key key = byDoc.get(order[i]);
      lexicalOf[i] = lexicalScores.getOrDefault(key, 0f);
      Float dense = semanticScores.get(key);
      if (dense == null) {
        throw new IllegalArgumentException("no semantic score for candidate " + key);
      }
      semanticOf[i] = dense;
    }
    List<Fused> out = new ArrayList<>();
    for (HybridFusion.Fused f :
        HybridFusion.rank(
            lexicalChunks,
            semanticChunks,
            ranks,
            order,
            lexicalOf,
            semanticOf,
            HybridFusion.Options.of(request, embedding),
            request.topK(),
            request.maxChunksPerSource())) {
      out.add(new Fused(byDoc.get(f.chunk().doc()), f.chunk().score(), f.parts()));
    }
    return out;
  }

  private static List<ScoredChunk> chunks(List<Scored> side, Map<Key, Integer> docs) {
    List<ScoredChunk> out = new ArrayList<>(side.size());
    for (Scored s : side) {
      int doc = docs.computeIfAbsent(s.key(), k -> docs.size());
      out.add(new ScoredChunk(doc, s.score(), new BytesRef(s.key().source()), s.key().chunk()));
    }
    return out;
  }
}
