package dev.quarry.client;

import java.util.List;

/**
 * {@code POST /v1/retrieval/whoami}: the token's own subject and grants, as the server reads them,
 * so that a program can offer only what the token allows. The server still decides every request.
 *
 * @quarry.stable
 */
public record Whoami(String subject, List<Grant> grants) {
  /**
   * One grant.
   *
   * @param corpus a corpus name, or a prefix ending in {@code *}
   * @param sources the source ids or prefixes (ending in {@code *}) it covers
   * @param scopes {@code search}, {@code index}, {@code manage}
   */
  public record Grant(String corpus, List<String> sources, List<String> scopes) {}
}
