package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.CorpusSettings.Language;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Receipt;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.analysis.LanguageDetection;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An auto corpus: each source analysed in the language detected from its text, queries read in
 * every language the counted chunks hold. The texts are article 1 of the Universal Declaration of
 * Human Rights in its official and published translations, and the first sentences of Goethe's
 * Faust.
 */
class AutoLanguageTest {
  @TempDir Path dir;

  static final Map<String, String> TEXTS = new LinkedHashMap<>();

  static {
    TEXTS.put(
        "en",
        "All human beings are born free and equal in dignity and rights. They are endowed with reason "
            + "and conscience and should act towards one another in a spirit of brotherhood.");
    TEXTS.put(
        "de",
        "Alle Menschen sind frei und gleich an Würde und Rechten geboren. Sie sind mit Vernunft und "
            + "Gewissen begabt und sollen einander im Geist der Brüderlichkeit begegnen.");
    TEXTS.put(
        "fr",
        "Tous les êtres humains naissent libres et égaux en dignité et en droits. Ils sont doués de "
            + "raison et de conscience et doivent agir les uns envers les autres dans un esprit de fraternité.");
    TEXTS.put(
        "es",
        "Todos los seres humanos nacen libres e iguales en dignidad y derechos y, dotados como están "
            + "de razón y conciencia, deben comportarse fraternalmente los unos con los otros.");
    TEXTS.put(
        "ru",
        "Все люди рождаются свободными и равными в своем достоинстве и правах. Они наделены разумом и "
            + "совестью и должны поступать в отношении друг друга в духе братства.");
    TEXTS.put(
        "ja",
        "すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。人間は、理性と良心とを"
            + "授けられており、互いに同胞の精神をもって行動しなければならない。");
    TEXTS.put(
        "faust",
        "Habe nun, ach! Philosophie, Juristerei und Medizin, und leider auch Theologie durchaus "
            + "studiert, mit heißem Bemühn. Da steh ich nun, ich armer Tor! Und bin so klug als wie zuvor.");
  }

  static final Map<String, Language> EXPECTED =
      Map.of(
          "en",
          Language.ENGLISH,
          "de",
          Language.GERMAN,
          "fr",
          Language.FRENCH,
          "es",
          Language.SPANISH,
          "ru",
          Language.RUSSIAN,
          "ja",
          Language.JAPANESE,
          "faust",
          Language.GERMAN);

  private static CorpusInfo auto() {
    return new CorpusInfo(
        "udhr",
        "c1",
        new CorpusSettings(
            Language.AUTO, CorpusSettings.Chunking.DEFAULT, CorpusSettings.Ranking.DEFAULT),
        Instant.EPOCH);
  }

  private static Receipt index(CorpusIndex index, String source, String text) {
    return index
        .apply(
            Mutation.of(SourceOperation.Index.text(source, null, text, Metadata.EMPTY), "tester"))
        .receipts()
        .get(0);
  }

  private static SearchResult search(
      CorpusIndex index, String query, Long revision, SourceScope statistics) {
    return index.search(
        new SearchRequest(query, SourceScope.ALL, List.of(), 10, revision, null, true)
            .withStatistics(statistics));
  }

  @Test
  void detection_namesEachTextsLanguage_everyTime() {
    for (Map.Entry<String, String> t : TEXTS.entrySet()) {
      assertEquals(EXPECTED.get(t.getKey()), LanguageDetection.detect(t.getValue()), t.getKey());
      assertEquals(
          EXPECTED.get(t.getKey()), LanguageDetection.detect(t.getValue()), t.getKey() + ", again");
    }
  }

  @Test
  void detection_readsOtherScriptsToo() {
    assertEquals(
        Language.CHINESE, LanguageDetection.detect("人人生而自由,在尊严和权利上一律平等。他们赋有理性和良心,并应以兄弟关系的精神相对待。"));
    assertEquals(
        Language.KOREAN,
        LanguageDetection.detect(
            "모든 인간은 태어날 때부터 자유로우며 그 존엄과 권리에 있어 동등하다. 인간은 "
                + "천부적으로 이성과 양심을 부여받았으며 서로 형제애의 정신으로 행동하여야 한다."));
    assertEquals(
        Language.GREEK,
        LanguageDetection.detect(
            "Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην "
                + "αξιοπρέπεια και τα δικαιώματα."));
    assertEquals(
        Language.ARABIC,
        LanguageDetection.detect(
            "يولد جميع الناس أحرارًا متساوين في الكرامة والحقوق. وقد "
                + "وهبوا عقلاً وضميرًا وعليهم أن يعامل بعضهم بعضًا بروح الإخاء."));
    assertEquals(Language.JAPANESE, LanguageDetection.detect("吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。"));
  }

  @Test
  void detection_fallsBackToStandard_forShortOrUnsureText() {
    assertEquals(Language.STANDARD, LanguageDetection.detect("Leave policy"));
    assertEquals(Language.STANDARD, LanguageDetection.detect("invoice 2024-03 total 1,234.00 EUR"));
    assertEquals(
        Language.STANDARD, LanguageDetection.detect("public static void main(String[] args) { }"));
    assertEquals(Language.STANDARD, LanguageDetection.detect(""));
  }

  @Test
  void receiptsAndHits_sayTheSourcesLanguage() throws IOException {
    try (CorpusIndex index = CorpusIndex.open(dir, auto(), EngineConfig.defaults())) {
      for (Map.Entry<String, String> t : TEXTS.entrySet()) {
        assertEquals(
            EXPECTED.get(t.getKey()).wireName(), index(index, t.getKey(), t.getValue()).language());
      }
      assertEquals("standard", index(index, "memo", "Leave policy").language());
      // Unchanged content keeps its language, and says it.
      Receipt again = index(index, "de", TEXTS.get("de"));
      assertEquals(Receipt.Status.UNCHANGED, again.status());
      assertEquals("german", again.language());

      // A German query stems in German: "Recht" finds "Rechten", in the German source only.
      List<Hit> recht = search(index, "Recht", null, SourceScope.ALL).hits();
      assertEquals(List.of("de"), recht.stream().map(Hit::source).toList());
      assertEquals("german", recht.get(0).language());
      assertTrue(
          recht
              .get(0)
              .text()
              .substring(recht.get(0).highlights().get(0)[0], recht.get(0).highlights().get(0)[1])
              .equals("Rechten"));
      // An English query stems in English: "acting" finds "act".
      List<Hit> acting = search(index, "acting", null, SourceScope.ALL).hits();
      assertEquals(List.of("en"), acting.stream().map(Hit::source).toList());
      assertEquals("english", acting.get(0).language());
      // French, Spanish, Russian and Japanese, each by a form or a word of its own analysis.
      assertEquals("fr", search(index, "raisons", null, SourceScope.ALL).hits().get(0).source());
      assertEquals("es", search(index, "derecho", null, SourceScope.ALL).hits().get(0).source());
      assertEquals("ru", search(index, "братство", null, SourceScope.ALL).hits().get(0).source());
      Hit ja = search(index, "良心", null, SourceScope.ALL).hits().get(0);
      assertEquals("ja", ja.source());
      assertEquals("japanese", ja.language());
    }
  }

  @Test
  void readAndList_sayTheLanguageEachReceiptSaid() throws IOException {
    try (CorpusIndex index = CorpusIndex.open(dir, auto(), EngineConfig.defaults())) {
      Map<String, String> said = new TreeMap<>();
      for (Map.Entry<String, String> t : TEXTS.entrySet()) {
        said.put(t.getKey(), index(index, t.getKey(), t.getValue()).language());
      }
      said.put("memo", index(index, "memo", "Leave policy").language());
      Map<String, String> read = new TreeMap<>();
      for (String source : said.keySet()) {
        read.put(source, index.readSource(source).orElseThrow().language());
      }
      assertEquals(said, read);
      Map<String, String> listed = new TreeMap<>();
      index
          .listSources(null, null, 100, s -> true)
          .sources()
          .forEach(s -> listed.put(s.source(), s.language()));
      assertEquals(said, listed);
      // A new version in a named language says that one.
      index.apply(
          Mutation.of(
              SourceOperation.Index.text("faust", null, TEXTS.get("faust"), Metadata.EMPTY)
                  .withLanguage(Language.STANDARD),
              "tester"));
      assertEquals("standard", index.readSource("faust").orElseThrow().language());
    }
    CorpusInfo german =
        new CorpusInfo(
            "de",
            "c2",
            new CorpusSettings(
                Language.GERMAN, CorpusSettings.Chunking.DEFAULT, CorpusSettings.Ranking.DEFAULT),
            Instant.EPOCH);
    try (CorpusIndex index = CorpusIndex.open(dir.resolve("de"), german, EngineConfig.defaults())) {
      index(index, "fr", TEXTS.get("fr"));
      assertEquals("german", index.readSource("fr").orElseThrow().language());
      assertEquals(
          "german", index.listSources(null, null, 10, s -> true).sources().get(0).language());
    }
  }

  @Test
  void aRecordWrittenBeforeItKeptItsLanguage_saysItsChunks() throws IOException {
    PreparedSource p =
        PreparedSource.prepare(
            SourceOperation.Index.text("de", null, TEXTS.get("de"), Metadata.EMPTY),
            CorpusSettings.Chunking.DEFAULT,
            null,
            Language.AUTO);
    List<Document> docs = Documents.sourceVersion(p, 1, Instant.EPOCH);
    Document record = docs.get(docs.size() - 1);
    assertEquals("german", record.get(Fields.SOURCE_LANGUAGE));
    record.removeField(Fields.SOURCE_LANGUAGE);
    try (Directory directory = new ByteBuffersDirectory();
        IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig())) {
      writer.addDocuments(docs);
      try (DirectoryReader reader = DirectoryReader.open(writer)) {
        assertEquals(
            "german", SourceRecords.read(reader, "de", Language.AUTO).orElseThrow().language());
      }
    }
  }

  @Test
  void scores_areReproducibleAtARevision_andCountOnlyWhatTheCallerMaySee() throws IOException {
    float pinned;
    long revision;
    try (CorpusIndex index =
        CorpusIndex.open(dir.resolve("all"), auto(), EngineConfig.defaults())) {
      for (Map.Entry<String, String> t : TEXTS.entrySet()) {
        revision = index(index, t.getKey(), t.getValue()).revision();
      }
      revision = index.search(SearchRequest.of("Menschen")).revision();
      SearchResult first = search(index, "Menschen Würde Gewissen", revision, SourceScope.ALL);
      pinned = first.hits().get(0).score();
      assertEquals("de", first.hits().get(0).source());
      index(
          index,
          "de2",
          "Die Würde des Menschen ist unantastbar. Sie zu achten und zu schützen ist "
              + "Verpflichtung aller staatlichen Gewalt.");
      SearchResult later = search(index, "Menschen Würde Gewissen", revision, SourceScope.ALL);
      assertEquals(pinned, later.hits().get(0).score(), "the same score at the pinned revision");
      assertEquals(
          first.hits().stream().map(h -> h.source() + "=" + h.score()).toList(),
          later.hits().stream().map(h -> h.source() + "=" + h.score()).toList());

      // Statistics over the German source alone score as a corpus holding only it.
      float scoped =
          search(index, "Menschen Würde Gewissen", null, new SourceScope(List.of("de")))
              .hits()
              .stream()
              .filter(h -> h.source().equals("de"))
              .findFirst()
              .orElseThrow()
              .score();
      try (CorpusIndex alone =
          CorpusIndex.open(dir.resolve("alone"), auto(), EngineConfig.defaults())) {
        index(alone, "de", TEXTS.get("de"));
        assertEquals(
            alone.search(SearchRequest.of("Menschen Würde Gewissen")).hits().get(0).score(),
            scoped);
      }
    }
    // Pinned: the same texts always score the same.
    assertEquals(PINNED_SCORE, pinned);
  }

  /** The German source's score for "Menschen Würde Gewissen" over the seven texts above. */
  static final float PINNED_SCORE = 1.8243631f;

  @Test
  void aRequestsLanguage_readsTheQueryInThatLanguageOnly() throws IOException {
    try (CorpusIndex index = CorpusIndex.open(dir, auto(), EngineConfig.defaults())) {
      index(index, "de", TEXTS.get("de"));
      index(index, "en", TEXTS.get("en"));
      SearchRequest recht = SearchRequest.of("Recht rights");
      assertEquals(
          List.of("de", "en"),
          index.search(recht).hits().stream().map(Hit::source).sorted().toList());
      assertEquals(
          List.of("de"),
          index.search(recht.withLanguage(Language.GERMAN)).hits().stream()
              .map(Hit::source)
              .toList());
      assertEquals(
          List.of("en"),
          index.search(recht.withLanguage(Language.ENGLISH)).hits().stream()
              .map(Hit::source)
              .toList());
      // A language no source is in reads terms no chunk holds.
      assertEquals(List.of(), index.search(recht.withLanguage(Language.FRENCH)).hits());
      QuarryException auto =
          assertThrows(
              QuarryException.class, () -> index.search(recht.withLanguage(Language.AUTO)));
      assertEquals("language", auto.field());
    }
  }

  @Test
  void operators_matchPhrasesAndWordsInEachSourcesOwnLanguage() throws IOException {
    try (CorpusIndex index = CorpusIndex.open(dir, auto(), EngineConfig.defaults())) {
      for (Map.Entry<String, String> t : TEXTS.entrySet()) {
        index(index, t.getKey(), t.getValue());
      }
      SearchRequest phrase =
          SearchRequest.of("\"Würde und Recht\"").withSyntax(SearchRequest.Syntax.OPERATORS);
      assertEquals(List.of("de"), index.search(phrase).hits().stream().map(Hit::source).toList());
      SearchRequest excluded =
          SearchRequest.of("dignity dignité -droit").withSyntax(SearchRequest.Syntax.OPERATORS);
      assertEquals(List.of("en"), index.search(excluded).hits().stream().map(Hit::source).toList());
      SearchRequest required =
          SearchRequest.of("+Theologien Menschen").withSyntax(SearchRequest.Syntax.OPERATORS);
      assertEquals(
          List.of("faust"), index.search(required).hits().stream().map(Hit::source).toList());
    }
  }

  @Test
  void aQueryWithEveryOperator_overEveryLanguage_staysWithinLucenesClauseLimit()
      throws IOException {
    try (CorpusIndex index = CorpusIndex.open(dir, auto(), EngineConfig.defaults())) {
      for (Language language : Language.values()) {
        if (language != Language.AUTO) {
          index.apply(
              Mutation.of(
                  SourceOperation.Index.text(
                          language.wireName(), null, TEXTS.get("en"), Metadata.EMPTY)
                      .withLanguage(language),
                  "tester"));
        }
      }
      StringBuilder query = new StringBuilder();
      for (int i = 0; i < 40; i++) {
        query.append("+born").append(i % 2 == 0 ? "" : "e").append(" \"in dignity\" ");
      }
      for (int i = 0; query.length() < SearchRequest.MAX_QUERY_CHARS - 12; i++) {
        query.append("w").append(i).append(' ');
      }
      SearchResult result =
          index.search(
              SearchRequest.of(query.toString().strip())
                  .withSyntax(SearchRequest.Syntax.OPERATORS));
      assertTrue(
          result.hits().stream().map(Hit::language).toList().contains("english"),
          result.hits()::toString);
      // The operators are honoured in every language: one more required word no source holds finds
      // nothing.
      assertEquals(
          List.of(),
          index
              .search(
                  SearchRequest.of("+zyxwv " + query.toString().strip())
                      .withSyntax(SearchRequest.Syntax.OPERATORS))
              .hits());
    }
  }

  @Test
  void aCorpusOfOneLanguage_acceptsOnlyItsOwnInARequest() throws IOException {
    CorpusInfo german =
        new CorpusInfo(
            "de",
            "c2",
            new CorpusSettings(
                Language.GERMAN, CorpusSettings.Chunking.DEFAULT, CorpusSettings.Ranking.DEFAULT),
            Instant.EPOCH);
    try (CorpusIndex index = CorpusIndex.open(dir, german, EngineConfig.defaults())) {
      Receipt r = index(index, "de", TEXTS.get("de"));
      assertEquals("german", r.language());
      Hit hit = index.search(SearchRequest.of("Recht").withLanguage(Language.GERMAN)).hits().get(0);
      assertEquals("german", hit.language());
      QuarryException e =
          assertThrows(
              QuarryException.class,
              () -> index.search(SearchRequest.of("Recht").withLanguage(Language.ENGLISH)));
      assertEquals("language", e.field());
    }
  }

  @Test
  void anOperationsLanguage_overridesDetection_andIsChecked() throws IOException {
    try (CorpusIndex index = CorpusIndex.open(dir, auto(), EngineConfig.defaults())) {
      SourceOperation.Index faust =
          SourceOperation.Index.text("faust", null, TEXTS.get("faust"), Metadata.EMPTY);
      Receipt standard =
          index
              .apply(Mutation.of(faust.withLanguage(Language.STANDARD), "tester"))
              .receipts()
              .get(0);
      assertEquals("standard", standard.language());
      // Unstemmed: the plural finds nothing, the word as written does.
      assertEquals(List.of(), search(index, "Theologien", null, SourceScope.ALL).hits());
      assertEquals(
          "standard", search(index, "Theologie", null, SourceScope.ALL).hits().get(0).language());
      // The same content in another language is a change, not "unchanged".
      Receipt german = index.apply(Mutation.of(faust, "tester")).receipts().get(0);
      assertEquals(Receipt.Status.INDEXED, german.status());
      assertEquals("german", german.language());
      assertEquals(
          "faust", search(index, "Theologien", null, SourceScope.ALL).hits().get(0).source());
      QuarryException auto =
          assertThrows(
              QuarryException.class,
              () -> index.apply(Mutation.of(faust.withLanguage(Language.AUTO), "tester")));
      assertEquals("language", auto.field());
    }
    CorpusInfo english = new CorpusInfo("en", "c3", CorpusSettings.DEFAULT, Instant.EPOCH);
    try (CorpusIndex index =
        CorpusIndex.open(dir.resolve("en"), english, EngineConfig.defaults())) {
      SourceOperation.Index en =
          SourceOperation.Index.text("en", null, TEXTS.get("en"), Metadata.EMPTY);
      assertEquals(
          "english",
          index
              .apply(Mutation.of(en.withLanguage(Language.ENGLISH), "tester"))
              .receipts()
              .get(0)
              .language());
      QuarryException other =
          assertThrows(
              QuarryException.class,
              () -> index.apply(Mutation.of(en.withLanguage(Language.GERMAN), "tester")));
      assertEquals("language", other.field());
    }
  }

  @Test
  void unknownLanguage_isATypedErrorNamingTheField() {
    QuarryException e = assertThrows(QuarryException.class, () -> Language.fromWireName("klingon"));
    assertEquals("settings.language", e.field());
  }
}
