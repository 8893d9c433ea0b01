package dev.quarry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.quarry.corpora.CorporaBuilder;
import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.CorpusSettings.Language;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import dev.quarry.testing.OpenSearchNodes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A corpus in each of several languages, on the embedded store and on a real OpenSearch node with
 * the scoring plugin: the same real passages written to both, the same queries (inflected forms,
 * words inside unsegmented runs, a phrase) answer the same chunks with the same scores to the bit.
 * The passages are public-domain texts: Goethe's Faust, the 1789 Declaration of the Rights of Man,
 * Anna Karenina, Lu Xun's Diary of a Madman and Kong Yiji, Soseki's I Am a Cat, Yun Dong-ju's
 * Prelude, Pan Tadeusz.
 */
class ClusterLanguagesIT {
  @TempDir Path dir;

  record Corpus(Language language, List<String> passages, List<String> queries) {}

  static final List<Corpus> CORPORA =
      List.of(
          new Corpus(
              Language.GERMAN,
              List.of(
                  "Habe nun, ach! Philosophie, Juristerei und Medizin, und leider auch Theologie durchaus studiert, mit "
                      + "heißem Bemühn. Da steh ich nun, ich armer Tor! Und bin so klug als wie zuvor.",
                  "Heiße Magister, heiße Doktor gar, und ziehe schon an die zehen Jahr herauf, herab und quer und krumm "
                      + "meine Schüler an der Nase herum.",
                  "Und sehe, dass wir nichts wissen können! Das will mir schier das Herz verbrennen."),
              List.of("Theologien", "heißen Doktoren", "\"armer Tor\"", "Schülern Herzen")),
          new Corpus(
              Language.FRENCH,
              List.of(
                  "Les hommes naissent et demeurent libres et égaux en droits. Les distinctions sociales ne peuvent être "
                      + "fondées que sur l'utilité commune.",
                  "La liberté consiste à pouvoir faire tout ce qui ne nuit pas à autrui.",
                  "La loi est l'expression de la volonté générale. Tous les citoyens ont droit de concourir personnellement "
                      + "à sa formation."),
              List.of("homme libre", "droit des citoyens", "lois générales")),
          new Corpus(
              Language.RUSSIAN,
              List.of(
                  "Все счастливые семьи похожи друг на друга, каждая несчастливая семья несчастлива по-своему.",
                  "Всё смешалось в доме Облонских. Жена узнала, что муж был в связи с бывшею в их доме француженкою-гувернанткой.",
                  "Жена не выходила из своих комнат, мужа третий день не было дома."),
              List.of("счастливая семья", "жены и мужья", "дома")),
          new Corpus(
              Language.CHINESE,
              List.of(
                  "今天晚上，很好的月光。我不见他，已是三十多年；今天见了，精神分外爽快。",
                  "孔乙己是站着喝酒而穿长衫的唯一的人。他身材很高大；青白脸色，皱纹间时常夹些伤痕。",
                  "我翻开历史一查，这历史没有年代，歪歪斜斜的每叶上都写着仁义道德几个字。"),
              List.of("精神", "喝酒的人", "历史 道德")),
          new Corpus(
              Language.JAPANESE,
              List.of(
                  "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。",
                  "何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。",
                  "吾輩はここで始めて人間というものを見た。"),
              List.of("名前", "人間を見る", "泣いた記憶")),
          new Corpus(
              Language.KOREAN,
              List.of(
                  "죽는 날까지 하늘을 우러러 한 점 부끄럼이 없기를, 잎새에 이는 바람에도 나는 괴로워했다.",
                  "별을 노래하는 마음으로 모든 죽어 가는 것을 사랑해야지.",
                  "그리고 나한테 주어진 길을 걸어가야겠다. 오늘 밤에도 별이 바람에 스치운다."),
              List.of("하늘", "별과 바람", "길을")),
          new Corpus(
              Language.POLISH,
              List.of(
                  "Litwo! Ojczyzno moja! ty jesteś jak zdrowie. Ile cię trzeba cenić, ten tylko się dowie, kto cię stracił.",
                  "Dziś piękność twą w całej ozdobie widzę i opisuję, bo tęsknię po tobie.",
                  "Panno Święta, co Jasnej bronisz Częstochowy i w Ostrej świecisz Bramie!"),
              List.of("cenię", "piękność", "Częstochowy bronisz")));

  private static Mutation write(List<String> passages) {
    List<SourceOperation> ops = new ArrayList<>();
    for (int i = 0; i < passages.size(); i++) {
      ops.add(
          SourceOperation.Index.text(
              "p-" + i,
              i == 0 ? passages.get(2).substring(0, 12) : null,
              passages.get(i),
              Metadata.EMPTY));
    }
    return new Mutation(ops, "tester", null, null);
  }

  private static List<String> hits(CorpusIndex index, String query, boolean operators) {
    SearchRequest request =
        new SearchRequest(query, SourceScope.ALL, List.of(), 10, null, null, false);
    List<String> out = new ArrayList<>();
    for (Hit h :
        index
            .search(operators ? request.withSyntax(SearchRequest.Syntax.OPERATORS) : request)
            .hits()) {
      out.add(
          h.source()
              + "#"
              + h.chunk()
              + " "
              + Integer.toHexString(Float.floatToIntBits(h.score())));
    }
    return out;
  }

  @Test
  void eachLanguage_scoresTheSameOnTheClusterAsEmbedded_toTheBit() throws Exception {
    EngineConfig config = EngineConfig.builder().build();
    try (OpenSearchCorpusStore cluster =
        new OpenSearchCorpusStore(
            OpenSearchSettings.of(OpenSearchNodes.single().urls())
                .withReplicas(0)
                .withShards(2)
                .withPrefix("t-lang-" + System.nanoTime() % 1_000_000),
            config,
            CorporaBuilder.DEFAULT_MAX_OPEN_CORPORA)) {
      for (Corpus c : CORPORA) {
        String name = c.language().wireName();
        CorpusInfo info =
            cluster.create(
                name,
                new CorpusSettings(
                    c.language(), CorpusSettings.Chunking.DEFAULT, CorpusSettings.Ranking.DEFAULT));
        try (CorpusIndex embedded = CorpusIndex.open(dir.resolve(name), info, config)) {
          Mutation m = write(c.passages());
          embedded.apply(m);
          cluster.withCorpus(name, ix -> ix.apply(m));
          for (String query : c.queries()) {
            boolean operators = query.startsWith("\"");
            List<String> local = hits(embedded, query, operators);
            assertFalse(local.isEmpty(), name + ": nothing found for " + query);
            assertEquals(
                local,
                cluster.withCorpus(name, ix -> hits(ix, query, operators)),
                name + ": " + query);
          }
        } finally {
          cluster.delete(name);
        }
      }
    }
  }
}
