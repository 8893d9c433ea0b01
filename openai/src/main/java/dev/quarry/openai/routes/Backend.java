package dev.quarry.openai.routes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.routes.BodyReader;
import dev.quarry.api.wire.StrictJson;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.AccessPolicy;
import dev.quarry.corpora.jobs.IngestJobs;
import dev.quarry.openai.store.Attachments;
import dev.quarry.openai.store.FileArea;
import dev.quarry.openai.store.StoreRecords;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;

/**
 * What every handler of this API works with: the corpora and ingestion jobs it maps onto, the
 * records it keeps beside them, and the bounds. Thread-safe; one per plugin.
 *
 * @param maxUploadBytes the largest file an upload may hold (the server's maxDocumentBytes)
 * @param maxJsonBytes the largest JSON body (the server's maxRequestBytes)
 */
record Backend(
    Corpora corpora,
    IngestJobs jobs,
    FileArea files,
    StoreRecords stores,
    Attachments attachments,
    Statuses statuses,
    StrictJson json,
    Clock clock,
    long maxUploadBytes,
    long maxJsonBytes) {

  static Backend open(
      Corpora corpora,
      IngestJobs jobs,
      Path folder,
      Clock clock,
      long maxUploadBytes,
      long maxJsonBytes) {
    StrictJson json = new StrictJson();
    ObjectMapper mapper = json.mapper();
    Attachments attachments = new Attachments(folder.resolve("attachments"), mapper);
    return new Backend(
        corpora,
        jobs,
        new FileArea(folder.resolve("files"), mapper, clock),
        new StoreRecords(folder.resolve("vector-stores"), mapper),
        attachments,
        new Statuses(corpora, jobs, attachments),
        json,
        clock,
        maxUploadBytes,
        maxJsonBytes);
  }

  ObjectMapper mapper() {
    return json.mapper();
  }

  long now() {
    return clock.instant().getEpochSecond();
  }

  /**
   * The request's JSON object: at most {@link #maxJsonBytes} (413 REQUEST_TOO_LARGE), strict UTF-8
   * JSON (400 otherwise); an empty body reads as {@code {}} when {@code emptyIsObject}.
   */
  ObjectNode body(Context ctx, boolean emptyIsObject) throws IOException {
    byte[] bytes;
    try (InputStream in = ctx.req().getInputStream()) {
      // The API's reader: 413 over the limit, 408 for a body too slow or stalled, 400 for broken
      // framing.
      bytes = BodyReader.read(in, ctx.contentLength(), maxJsonBytes);
    }
    if (bytes.length == 0 && emptyIsObject) {
      return mapper().createObjectNode();
    }
    String type = ctx.header("Content-Type");
    if (type != null && !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      throw new OpenAiException(
          415, "Send the request as application/json.", null, "unsupported_media_type");
    }
    return json.parseObject(bytes);
  }

  /** The caller may see {@code corpus} at all (FORBIDDEN otherwise, whether or not it exists). */
  static boolean mayUse(Access access, String corpus) {
    return AccessPolicy.anyGrant(access, corpus);
  }
}
