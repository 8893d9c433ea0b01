package dev.quarry.corpora.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SourceScope;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class GrantTest {
  @Test
  void nullSources_isEverySource() {
    Grant g = new Grant("c", null, EnumSet.of(Scope.SEARCH));
    assertEquals(List.of("*"), g.sources());
    assertTrue(g.coversAllSources());
  }

  @Test
  void emptySources_isRefused_neverEverySource() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Grant("c", List.of(), EnumSet.of(Scope.SEARCH)));
    assertTrue(e.getMessage().contains("must not be empty"), e.getMessage());
  }

  @Test
  void moreSourcesThanTheLimit_areRefused() {
    List<String> most = IntStream.range(0, Grant.MAX_SOURCES).mapToObj(i -> "s" + i).toList();
    assertEquals(
        Grant.MAX_SOURCES, new Grant("c", most, EnumSet.of(Scope.SEARCH)).sources().size());
    List<String> tooMany = Stream.concat(most.stream(), Stream.of("one-more")).toList();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Grant("c", tooMany, EnumSet.of(Scope.SEARCH)));
    assertTrue(
        e.getMessage().contains("at most " + Grant.MAX_SOURCES) && e.getMessage().contains("'c'"),
        e.getMessage());
  }

  @Test
  void prefixGrant_seesOnlyItsPrefix() {
    Access access =
        new Access("a", List.of(new Grant("c", List.of("public/*"), EnumSet.of(Scope.SEARCH))));
    assertTrue(AccessPolicy.visibleSources(access, "c", EnumSet.of(Scope.SEARCH)).test("public/x"));
    assertFalse(
        AccessPolicy.visibleSources(access, "c", EnumSet.of(Scope.SEARCH)).test("y/secret"));
    assertFalse(AccessPolicy.seesAllSources(access, "c", EnumSet.of(Scope.SEARCH)));
    assertEquals(
        List.of("public/*"), AccessPolicy.searchScope(access, "c", SourceScope.ALL).entries());
  }

  @Test
  void noGrantWithTheScope_seesNothing() {
    Access access = new Access("a", List.of(new Grant("c", null, EnumSet.of(Scope.MANAGE))));
    assertFalse(AccessPolicy.visibleSources(access, "c", EnumSet.of(Scope.SEARCH)).test("x"));
    assertThrows(
        QuarryException.class, () -> AccessPolicy.searchScope(access, "c", SourceScope.ALL));
  }

  /**
   * A search's scope is derived from the same grants its statistics use: both agree whatever is
   * requested.
   */
  @Test
  void searchScope_fromTheSearchGrants_narrowsOnlyInsideThem() {
    Access prefixes =
        new Access(
            "a",
            List.of(
                new Grant("c", List.of("public/*", "faq"), EnumSet.of(Scope.SEARCH)),
                new Grant("c", List.of("hr/*"), EnumSet.of(Scope.INDEX))));
    SourceScope granted = AccessPolicy.searchGrants(prefixes, "c");
    assertEquals(List.of("public/*", "faq"), granted.entries());
    assertEquals(granted, AccessPolicy.searchScope(prefixes, "c", SourceScope.ALL));
    SourceScope narrower = new SourceScope(List.of("public/a/*", "faq"));
    assertEquals(narrower, AccessPolicy.searchScope(granted, narrower));
    for (List<String> outside :
        List.of(List.of("hr/x"), List.of("*"), List.of("faq*"), List.of("public/x", "y"))) {
      assertThrows(
          QuarryException.class,
          () -> AccessPolicy.searchScope(granted, new SourceScope(outside)),
          outside.toString());
      assertThrows(
          QuarryException.class,
          () -> AccessPolicy.searchScope(prefixes, "c", new SourceScope(outside)),
          outside.toString());
    }

    Access everything =
        new Access(
            "b",
            List.of(
                new Grant("c", List.of("public/*"), EnumSet.of(Scope.SEARCH)),
                new Grant("c*", null, EnumSet.of(Scope.SEARCH))));
    assertEquals(SourceScope.ALL, AccessPolicy.searchGrants(everything, "c"));
    SourceScope star = new SourceScope(List.of("*"));
    assertEquals(star, AccessPolicy.searchScope(everything, "c", star));
    assertThrows(QuarryException.class, () -> AccessPolicy.searchGrants(everything, "d"));
  }
}
