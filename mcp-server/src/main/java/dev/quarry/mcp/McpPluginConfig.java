package dev.quarry.mcp;

import dev.quarry.api.Authenticator;
import dev.quarry.api.QuarryPlugin;
import dev.quarry.corpora.Corpora;
import java.util.Objects;

/**
 * What a host hands {@link McpPlugin}: the corpora, the authenticator, and the {@link QuarryPlugin}
 * it stands beside (whose capacity gate, limits and features it shares). Adjust it in the plugin's
 * {@code Consumer}; the plugin checks it when built.
 *
 * @quarry.experimental
 */
public final class McpPluginConfig {
  /** Where the Streamable HTTP endpoint answers, as the MCP specification's examples name it. */
  public static final String DEFAULT_PATH = "/mcp";

  Corpora corpora;
  Authenticator authenticator;
  QuarryPlugin quarry;
  String path = DEFAULT_PATH;

  McpPluginConfig() {}

  /** The corpora to serve. Required; the host owns and closes it. */
  public McpPluginConfig corpora(Corpora corpora) {
    this.corpora = Objects.requireNonNull(corpora, "corpora");
    return this;
  }

  /** Turns bearer tokens into access: the same one the {@link QuarryPlugin} uses. Required. */
  public McpPluginConfig authenticator(Authenticator authenticator) {
    this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
    return this;
  }

  /**
   * The retrieval plugin this one stands beside: MCP tool calls take places in its capacity gate,
   * obey its limits, and offer indexing only when it does. Required, so that the two surfaces of
   * one server cannot disagree on what a caller may do.
   */
  public McpPluginConfig beside(QuarryPlugin quarry) {
    this.quarry = Objects.requireNonNull(quarry, "quarry");
    return this;
  }

  /**
   * The endpoint's path, {@link #DEFAULT_PATH} unless set.
   *
   * @throws IllegalArgumentException unless it starts with '/' and has no wildcard or query
   */
  public McpPluginConfig path(String path) {
    Objects.requireNonNull(path, "path");
    if (!path.startsWith("/") || path.length() < 2 || path.contains("*") || path.contains("?")) {
      throw new IllegalArgumentException(
          "path must start with '/' and name one exact path, such as \"/mcp\"; got \""
              + path
              + "\"");
    }
    this.path = path;
    return this;
  }

  void check() {
    if (corpora == null) {
      throw new IllegalStateException(
          "McpPlugin needs corpora: config.corpora(corpora), the ones QuarryPlugin serves");
    }
    if (authenticator == null) {
      throw new IllegalStateException(
          "McpPlugin needs an authenticator: config.authenticator(tokens), QuarryPlugin's");
    }
    if (quarry == null) {
      throw new IllegalStateException(
          "McpPlugin needs the QuarryPlugin it stands beside: config.beside(quarryPlugin)");
    }
  }
}
