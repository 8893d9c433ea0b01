package dev.quarry.embeddings;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quarry.engine.Embedder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * bge-small-zh-v1.5 through the real runtime and its own tokenizer, on public-domain Chinese texts
 * (Tao Yuanming's Peach Blossom Spring, the Analects, the Art of War, Lu Xun's Kong Yiji), each
 * found by a modern paraphrase that shares few of its characters.
 */
class BgeSmallZhTest {
  private static final OnnxEmbedder ZH = new OnnxEmbedder(Models.BGE_SMALL_ZH_V15);

  private static final List<String> PASSAGES =
      List.of(
          "晋太元中，武陵人捕鱼为业。缘溪行，忘路之远近。忽逢桃花林，夹岸数百步，中无杂树，芳草鲜美，落英缤纷。",
          "学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？",
          "兵者，国之大事，死生之地，存亡之道，不可不察也。",
          "孔乙己是站着喝酒而穿长衫的唯一的人。他身材很高大；青白脸色，皱纹间时常夹些伤痕。");

  private static float dot(float[] a, float[] b) {
    float s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  @Test
  void eachChineseQuery_findsThePassageItParaphrases() {
    List<Embedder.Embedding> passages = ZH.embedPassages(PASSAGES);
    assertEquals(512, ZH.dimensions());
    for (Embedder.Embedding e : passages) {
      assertEquals(512, e.vector().length);
      assertEquals(1.0, dot(e.vector(), e.vector()), 1e-4, "CLS pooled, then L2-normalized");
    }
    String[] queries = {
      "一个渔夫沿着小河发现了一片桃树林", "温习学过的知识，朋友从远方来访的快乐", "战争关系到国家的生死存亡", "那个穿着长衫站在柜台外喝酒的读书人"
    };
    for (int i = 0; i < queries.length; i++) {
      float[] q = ZH.embedQuery(queries[i]);
      int best = 0;
      for (int p = 1; p < passages.size(); p++) {
        if (dot(q, passages.get(p).vector()) > dot(q, passages.get(best).vector())) {
          best = p;
        }
      }
      assertEquals(i, best, queries[i]);
    }
  }
}
