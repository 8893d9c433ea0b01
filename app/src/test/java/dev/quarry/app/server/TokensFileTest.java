package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TokensFileTest {
  static TokenAuthenticator parse(String json) {
    return TokensFile.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  static String problem(String json) {
    return assertThrows(IllegalArgumentException.class, () -> parse(json)).getMessage();
  }

  @Test
  void plainToken_authenticatesWithItsGrants() {
    TokenAuthenticator auth =
        parse(
            """
        {"tokens": [{"subject": "app-1", "token": "s3cret",
          "grants": [{"corpus": "handbook", "sources": ["policies/*"], "scopes": ["search", "index"]}]}]}""");
    Access access = auth.authenticate("s3cret").orElseThrow();
    assertEquals("app-1", access.subject());
    assertEquals("handbook", access.grants().get(0).corpus());
    assertEquals(Set.of(Scope.SEARCH, Scope.INDEX), access.grants().get(0).scopes());
    assertTrue(auth.authenticate("s3cre").isEmpty());
    assertTrue(auth.authenticate("s3cret ").isEmpty());
  }

  @Test
  void hashedToken_authenticatesTheSecretBehindTheHash() throws Exception {
    String hash =
        HexFormat.of()
            .formatHex(
                MessageDigest.getInstance("SHA-256")
                    .digest("hidden".getBytes(StandardCharsets.UTF_8)));
    TokenAuthenticator auth =
        parse(
            "{\"tokens\": [{\"subject\": \"a\", \"tokenSha256\": \""
                + hash.toUpperCase()
                + "\", \"grants\": [{\"corpus\": \"*\", \"scopes\": [\"search\"]}]}]}");
    assertEquals("a", auth.authenticate("hidden").orElseThrow().subject());
    assertTrue(auth.authenticate(hash).isEmpty());
  }

  @Test
  void sourcesDefault_isEverySource() {
    Access access =
        parse(
                "{\"tokens\": [{\"subject\": \"a\", \"token\": \"t\", \"grants\": [{\"corpus\": \"c\", \"scopes\": [\"search\"]}]}]}")
            .authenticate("t")
            .orElseThrow();
    assertTrue(access.grants().get(0).coversAllSources());
  }

  @Test
  void emptySources_isRefusedNamingTheEntry_neverReadAsEverySource() {
    assertTrue(
        problem(
                """
        {"tokens": [{"subject": "a", "token": "t", "grants": [{"corpus": "a", "scopes": ["search"]},
          {"corpus": "a", "sources": [], "scopes": ["search"]}]}]}""")
            .startsWith("tokens[0].grants[1].sources: an empty sources list grants no source"));
  }

  @Test
  void moreSourcesThanAGrantMayList_isRefusedNamingTheEntry() {
    String sources =
        IntStream.rangeClosed(0, Grant.MAX_SOURCES)
            .mapToObj(i -> "\"s" + i + "\"")
            .collect(Collectors.joining(","));
    assertEquals(
        "tokens[0].grants[0].sources may have at most 1024 entries; got 1025",
        problem(
            "{\"tokens\": [{\"subject\": \"a\", \"token\": \"t\", \"grants\": [{\"corpus\": \"c\", \"sources\": ["
                + sources
                + "], \"scopes\": [\"search\"]}]}]}"));
  }

  @Test
  void unknownScope_isNamedByItsPath() {
    assertEquals(
        "tokens[1].grants[0].scopes[1]: unknown scope 'admin' (known: search, index, manage)",
        problem(
            """
        {"tokens": [{"subject": "a", "token": "t1", "grants": []},
          {"subject": "b", "token": "t2", "grants": [{"corpus": "c", "scopes": ["search", "admin"]}]}]}"""));
  }

  @Test
  void tokenAndHashTogether_isRefused() {
    assertTrue(
        problem(
                "{\"tokens\": [{\"subject\": \"a\", \"token\": \"t\", \"tokenSha256\": \""
                    + "0".repeat(64)
                    + "\", \"grants\": []}]}")
            .startsWith("tokens[0]: give exactly one of token and tokenSha256"));
  }

  @Test
  void sameTokenTwice_isRefused() {
    assertTrue(
        problem(
                """
        {"tokens": [{"subject": "a", "token": "t", "grants": []}, {"subject": "b", "token": "t", "grants": []}]}""")
            .startsWith("tokens[1]"));
  }

  @Test
  void malformedHash_unknownField_missingGrants_areNamed() {
    assertTrue(
        problem("{\"tokens\": [{\"subject\": \"a\", \"tokenSha256\": \"xyz\", \"grants\": []}]}")
            .startsWith("tokens[0].tokenSha256"));
    assertTrue(
        problem(
                "{\"tokens\": [{\"subject\": \"a\", \"token\": \"t\", \"grants\": [], \"role\": 1}]}")
            .startsWith("tokens[0].role"));
    assertTrue(
        problem("{\"tokens\": [{\"subject\": \"a\", \"token\": \"t\"}]}")
            .startsWith("tokens[0].grants"));
    assertTrue(
        problem(
                "{\"tokens\": [{\"subject\": \"a\", \"token\": \"t\", \"grants\": [{\"corpus\": \"c\"}]}]}")
            .startsWith("tokens[0].grants[0].scopes"));
  }
}
