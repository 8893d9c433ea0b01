package dev.quarry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Passage;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a token granted only some sources learns from scores, through {@link Corpora} as a host
 * calls it, on either store: nothing of the sources it may not see. Its lexical statistics are
 * those of the chunks it may see, so a word that also occurs in hidden sources scores as one that
 * does not, its scores are those of a corpus holding only what it may see, and they stay the same
 * (pinned or latest) while hidden sources change. A token that may see everything scores with the
 * corpus's statistics, as before, whatever sources it filters on.
 */
public abstract class GrantedScoresContract {
  protected static final Access ADMIN =
      new Access("admin", List.of(new Grant("*", null, EnumSet.allOf(Scope.class))));

  /** May search the public sources of every corpus; by two grants, as a tokens file may hold. */
  protected static final Access PUBLIC =
      new Access(
          "public",
          List.of(
              new Grant("*", List.of("public/*"), EnumSet.of(Scope.SEARCH)),
              new Grant("*", List.of("faq.md"), EnumSet.of(Scope.SEARCH, Scope.INDEX))));

  /** The corpora under test, on the store under test; the same instance for the whole test. */
  protected abstract Corpora corpora();

  /** A corpus name not used before by this test class. */
  protected abstract String newCorpusName(String hint);

  protected static SourceOperation.Index doc(String source, String text) {
    return new SourceOperation.Index(
        source,
        null,
        null,
        List.of(new Passage(text, Metadata.EMPTY)),
        null,
        null,
        null,
        null,
        null,
        null);
  }

  private static SearchRequest lexical(String query, List<String> sources, Long revision) {
    return new SearchRequest(
            query,
            new SourceScope(sources),
            List.of(),
            SearchRequest.MAX_TOP_K,
            revision,
            null,
            false)
        .withMode(SearchRequest.Mode.LEXICAL);
  }

  private String create(String hint, List<SourceOperation> first) {
    String name = newCorpusName(hint);
    corpora().createCorpus(ADMIN, name, null);
    corpora().mutate(ADMIN, name, first, null, null);
    return name;
  }

  /** Each hit's place and score (its bits). */
  private static List<String> scored(SearchResult result) {
    List<String> out = new ArrayList<>();
    for (Hit h : result.hits()) {
      out.add(
          h.source()
              + "#"
              + h.chunk()
              + " "
              + h.score()
              + " ("
              + Integer.toHexString(Float.floatToIntBits(h.score()))
              + ")");
    }
    return out;
  }

  private float onlyScore(Access access, String corpus, String word, List<String> sources) {
    SearchResult r = corpora().search(access, corpus, lexical(word, sources, null), null);
    assertEquals(1, r.hits().size(), word + " " + sources);
    return r.hits().get(0).score();
  }

  /**
   * The probe: one public chunk holds four words once each, two of which hidden sources hold too.
   * For the public token all four score the same, with or without a sources filter; for a token
   * that sees everything the two also held elsewhere score lower, as they always did.
   */
  @Test
  void aWordAlsoInHiddenSources_scoresAsAWordNowhereElse_forATokenThatCannotSeeThem() {
    String corpus =
        create(
            "probe",
            List.of(
                doc("public/probe.md", "acquisition zebraword berlin qqqxyz"),
                doc("secret/deal.md", "the acquisition of a company in berlin"),
                doc("secret/memo.md", "berlin acquisition closes friday")));
    Map<String, Float> restricted = new LinkedHashMap<>();
    for (String word : List.of("acquisition", "zebraword", "berlin", "qqqxyz")) {
      float filtered = onlyScore(PUBLIC, corpus, word, List.of("public/probe.md"));
      assertEquals(filtered, onlyScore(PUBLIC, corpus, word, List.of()), word);
      restricted.put(word, filtered);
    }
    assertEquals(1, restricted.values().stream().distinct().count(), "scores: " + restricted);
    float acquisition = onlyScore(ADMIN, corpus, "acquisition", List.of("public/probe.md"));
    float zebraword = onlyScore(ADMIN, corpus, "zebraword", List.of("public/probe.md"));
    assertNotEquals(
        acquisition,
        zebraword,
        "a token that sees everything scores with every chunk's statistics");
    assertEquals(zebraword, onlyScore(ADMIN, corpus, "qqqxyz", List.of()));
  }

  /**
   * The public token's scores over a corpus of public and hidden sources are, to the bit, a full
   * token's over a corpus holding only the public sources; the full token's own scores over the
   * first corpus differ (its statistics count the hidden sources), and do not change with the
   * sources it filters on.
   */
  @Test
  void aRestrictedTokensScores_areThoseOfACorpusOfWhatItMaySee() {
    List<SourceOperation> visible =
        List.of(
            doc("public/a.md", "river otters swim in the river near the old mill"),
            doc("public/b.md", "the mill pond holds otters and herons"),
            doc("faq.md", "where do otters live? by the river"));
    List<SourceOperation> all = new ArrayList<>(visible);
    all.add(doc("secret/x.md", "river river river mill herons herons pond pond pond"));
    all.add(doc("secret/y.md", "otters everywhere: otters otters"));
    String mixed = create("mixed", all);
    String only = create("only", visible);
    for (String q : List.of("river", "otters mill", "herons pond river", "where otters live")) {
      List<String> asPublic =
          scored(corpora().search(PUBLIC, mixed, lexical(q, List.of(), null), null));
      assertEquals(
          scored(corpora().search(ADMIN, only, lexical(q, List.of(), null), null)), asPublic, q);
      assertEquals(
          asPublic,
          scored(
              corpora()
                  .search(PUBLIC, mixed, lexical(q, List.of("public/*", "faq.md"), null), null)),
          q);
    }
    List<String> admin =
        scored(corpora().search(ADMIN, mixed, lexical("otters", List.of("public/*"), null), null));
    assertNotEquals(
        scored(corpora().search(PUBLIC, mixed, lexical("otters", List.of("public/*"), null), null)),
        admin);
    List<String> adminAll =
        scored(corpora().search(ADMIN, mixed, lexical("otters", List.of(), null), null));
    assertEquals(
        adminAll.stream().filter(s -> s.startsWith("public/")).toList(),
        admin,
        "a full token's statistics do not follow the sources it filters on");
  }

  /**
   * Writes to hidden sources (new words, more of the searched ones, a delete) change no score the
   * public token sees, latest or pinned, while the full token's change.
   */
  @Test
  void writesToHiddenSources_changeNoScoreOfARestrictedToken() {
    String corpus =
        create(
            "pinned",
            List.of(
                doc("public/a.md", "solar panels on every roof"),
                doc("public/b.md", "panels and inverters"),
                doc("secret/s.md", "solar solar secret panels")));
    long pinned = corpora().readCorpus(ADMIN, corpus).revision();
    List<String> queries = List.of("solar", "panels roof", "inverters solar");
    Map<String, List<String>> before = new LinkedHashMap<>();
    for (String q : queries) {
      before.put(q, scored(corpora().search(PUBLIC, corpus, lexical(q, List.of(), pinned), null)));
    }
    List<String> adminBefore =
        scored(corpora().search(ADMIN, corpus, lexical("solar", List.of(), pinned), null));
    corpora()
        .mutate(
            ADMIN,
            corpus,
            List.of(doc("secret/t.md", "solar roof inverters inverters panels")),
            null,
            null);
    corpora()
        .mutate(
            ADMIN,
            corpus,
            List.of(new SourceOperation.Delete("secret/s.md", null, false)),
            null,
            null);
    corpora()
        .mutate(ADMIN, corpus, List.of(doc("secret/u.md", "roof roof roof solar")), null, null);
    for (String q : queries) {
      assertEquals(
          before.get(q),
          scored(corpora().search(PUBLIC, corpus, lexical(q, List.of(), pinned), null)),
          "pinned " + q);
      assertEquals(
          before.get(q),
          scored(corpora().search(PUBLIC, corpus, lexical(q, List.of(), null), null)),
          "latest " + q);
    }
    assertEquals(
        adminBefore,
        scored(corpora().search(ADMIN, corpus, lexical("solar", List.of(), pinned), null)));
    assertNotEquals(
        adminBefore.stream().filter(s -> s.startsWith("public/")).toList(),
        scored(corpora().search(ADMIN, corpus, lexical("solar", List.of("public/*"), null), null)));
  }
}
