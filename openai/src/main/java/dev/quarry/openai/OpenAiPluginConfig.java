package dev.quarry.openai;

import dev.quarry.api.Authenticator;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.jobs.IngestJobs;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;

/**
 * What a host hands {@link OpenAiPlugin}: the corpora and ingestion jobs to map onto, the
 * authenticator, the folder for uploaded files and records, and the bounds. The plugin checks it
 * when built.
 *
 * @quarry.experimental
 */
public final class OpenAiPluginConfig {
  /** The largest uploaded file by default: Quarry's default maxDocumentBytes. */
  public static final long DEFAULT_MAX_UPLOAD_BYTES = 64L << 20;

  /** The largest JSON body by default: Quarry's default maxRequestBytes. */
  public static final long DEFAULT_MAX_JSON_BYTES = 8L << 20;

  Corpora corpora;
  IngestJobs jobs;
  Authenticator authenticator;
  Path folder;
  Clock clock = Clock.systemUTC();
  long maxUploadBytes = DEFAULT_MAX_UPLOAD_BYTES;
  long maxJsonBytes = DEFAULT_MAX_JSON_BYTES;

  OpenAiPluginConfig() {}

  /** The corpora whose corpora are the vector stores. Required. */
  public OpenAiPluginConfig corpora(Corpora corpora) {
    this.corpora = Objects.requireNonNull(corpora, "corpora");
    return this;
  }

  /** The ingestion jobs, over the same corpora, that attach files to stores. Required. */
  public OpenAiPluginConfig jobs(IngestJobs jobs) {
    this.jobs = Objects.requireNonNull(jobs, "jobs");
    return this;
  }

  /** Turns bearer tokens into access, as for Quarry's own API. Required. */
  public OpenAiPluginConfig authenticator(Authenticator authenticator) {
    this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
    return this;
  }

  /**
   * The folder that keeps uploaded files and the records of stores and attachments; the standalone
   * server uses {@code openai/} in its data folder. Required; the plugin creates it as needed.
   */
  public OpenAiPluginConfig folder(Path folder) {
    this.folder = Objects.requireNonNull(folder, "folder");
    return this;
  }

  /** The clock of {@code created_at}; the system's by default. */
  public OpenAiPluginConfig clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * The bounds: the largest uploaded file (413 past it; the server's maxDocumentBytes) and the
   * largest JSON body (413 past it; the server's maxRequestBytes).
   */
  public OpenAiPluginConfig limits(long maxUploadBytes, long maxJsonBytes) {
    if (maxUploadBytes < 1 || maxJsonBytes < 1) {
      throw new IllegalArgumentException(
          "maxUploadBytes and maxJsonBytes must be positive; got "
              + maxUploadBytes
              + ", "
              + maxJsonBytes);
    }
    this.maxUploadBytes = maxUploadBytes;
    this.maxJsonBytes = maxJsonBytes;
    return this;
  }

  void check() {
    if (corpora == null || jobs == null || authenticator == null || folder == null) {
      throw new IllegalStateException(
          "the OpenAI plugin needs corpora, jobs, an authenticator and a folder: call "
              + "corpora(...), jobs(...), authenticator(...) and folder(...)");
    }
  }
}
