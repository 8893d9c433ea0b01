package dev.quarry.openai;

import dev.quarry.openai.routes.OpenAiRoutes;
import io.javalin.config.JavalinState;
import io.javalin.plugin.Plugin;
import java.util.function.Consumer;

/**
 * OpenAI's vector stores and files API below {@code /openai/v1}, as a Javalin plugin: vector stores
 * are corpora, uploaded files are kept in the configured folder, files attached to a store are
 * ingested by Quarry's durable ingestion jobs, and a store's search is Quarry's search. Opt-in: a
 * host that embeds {@code QuarryPlugin} registers this one too if it wants the OpenAI surface; the
 * standalone server always does. See docs/openai-compatibility.md.
 *
 * <p>Thread-safe once built. The host owns the corpora and the jobs and closes them after stopping
 * its app.
 *
 * @quarry.experimental
 */
public final class OpenAiPlugin extends Plugin<OpenAiPluginConfig> {
  /** Where an SDK's {@code baseURL} points, below the server's address. */
  public static final String PREFIX = OpenAiRoutes.PREFIX;

  private final OpenAiRoutes routes;

  /**
   * @throws IllegalStateException when the configuration lacks corpora, jobs, an authenticator or a
   *     folder
   */
  public OpenAiPlugin(Consumer<OpenAiPluginConfig> userConfig) {
    super(userConfig, new OpenAiPluginConfig());
    pluginConfig.check();
    this.routes =
        new OpenAiRoutes(
            pluginConfig.corpora,
            pluginConfig.jobs,
            pluginConfig.authenticator,
            pluginConfig.folder,
            pluginConfig.clock,
            pluginConfig.maxUploadBytes,
            pluginConfig.maxJsonBytes);
  }

  @Override
  public void onInitialize(JavalinState state) {
    routes.mount(state);
  }

  @Override
  public String name() {
    return "quarry-openai";
  }
}
