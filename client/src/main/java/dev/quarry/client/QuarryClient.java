package dev.quarry.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A client of a Quarry server (wire version 1.0), with only the JDK's HttpClient and Jackson.
 *
 * <p>Every request carries {@code AgenticDriver-Version: 1.0}; an answer selecting another version
 * is refused before its body is read ({@link ProtocolException}). Answers are read tolerantly
 * (unknown fields ignored, unknown error codes kept verbatim in {@link ApiException}); requests are
 * written strictly from records that hold exactly the contract's fields. Every mutation of sources
 * carries an {@code Idempotency-Key}: a fresh one unless the caller gives one, which makes a retry
 * with the same key safe ({@link SafeRetry} does that for index and delete). Nothing is retried
 * automatically. Thread-safe; one instance serves many threads.
 *
 * @quarry.stable
 */
public final class QuarryClient {
  private final Transport transport;

  private QuarryClient(Transport transport) {
    this.transport = transport;
  }

  /**
   * A client of the server at {@code baseUrl} (such as {@code http://127.0.0.1:8080}) with a bearer
   * token.
   */
  public static QuarryClient create(String baseUrl, String token) {
    return builder(baseUrl).token(token).build();
  }

  public static Builder builder(String baseUrl) {
    return new Builder(baseUrl);
  }

  /** Options of a client. */
  public static final class Builder {
    private final URI base;
    private String token;
    private HttpClient http;
    private Duration timeout = Duration.ofSeconds(60);

    private Builder(String baseUrl) {
      this.base = URI.create(baseUrl.endsWith("/") ? baseUrl : baseUrl + "/");
    }

    public Builder token(String token) {
      this.token = token;
      return this;
    }

    /** The HttpClient to use (its proxy, TLS and executor); default: a new one. */
    public Builder httpClient(HttpClient http) {
      this.http = http;
      return this;
    }

    /**
     * How long a request may wait for its answer's headers; runs are not bounded by it. Null:
     * unbounded.
     */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    public QuarryClient build() {
      HttpClient client =
          http != null
              ? http
              : HttpClient.newBuilder()
                  .connectTimeout(Duration.ofSeconds(10))
                  .version(HttpClient.Version.HTTP_1_1)
                  .build();
      return new QuarryClient(new Transport(client, base, token, timeout));
    }
  }

  // ----- protocol

  /** {@code GET /v1/protocol}: the selected version, the features switched on and the limits. */
  public Protocol protocol() {
    return Transport.read(transport.get("v1/protocol"), Protocol.class);
  }

  /**
   * {@code POST /v1/retrieval/whoami}: the token's own subject and grants (any valid token); says
   * nothing about which corpora or sources exist.
   */
  public Whoami whoami() {
    return Transport.read(
        transport.post("v1/retrieval/whoami", Transport.JSON.createObjectNode(), null),
        Whoami.class);
  }

  // ----- search

  public SearchResult search(SearchRequest request) {
    return Transport.read(searchAsJson(request), SearchResult.class);
  }

  /**
   * The search's answer as the server wrote it, every field included (also those newer than this
   * client's records), for a caller that shows or passes it on as it is; {@link #search} reads the
   * same answer into a {@link SearchResult}.
   */
  public JsonNode searchAsJson(SearchRequest request) {
    return transport.post("v1/retrieval/search", request, null);
  }

  /** The latest revision's top results for {@code query}. */
  public SearchResult search(String corpus, String query) {
    return search(SearchRequest.of(corpus, query));
  }

  // ----- corpora

  public Corpus createCorpus(String corpus, Settings settings) {
    return Transport.read(
        transport.post("v1/retrieval/corpora/create", new CreateCorpus(corpus, settings), null),
        Corpus.class);
  }

  public Corpus readCorpus(String corpus) {
    return Transport.read(
        transport.post("v1/retrieval/corpora/read", new Named(corpus), null), Corpus.class);
  }

  public void deleteCorpus(String corpus) {
    transport.post("v1/retrieval/corpora/delete", new Named(corpus), null);
  }

  /**
   * One page of the corpora the token has a grant on; {@code cursor} null for the first, {@code
   * limit} null for the default.
   */
  public Page<Corpus> listCorpora(String cursor, Integer limit) {
    JsonNode page =
        transport.post("v1/retrieval/corpora/list", new CorpusListing(cursor, limit), null);
    return new Page<>(
        list(page.path("corpora"), Corpus.class), page.path("nextCursor").textValue());
  }

  /** Every corpus the token has a grant on, page by page as the stream is consumed. */
  public Stream<Corpus> corpora() {
    return keyset(cursor -> listCorpora(cursor, null));
  }

  // ----- sources

  /** Indexes {@code document} with a fresh Idempotency-Key. */
  public Receipt index(String corpus, Document document) {
    return index(corpus, null, document, newKey());
  }

  /**
   * Indexes {@code document}.
   *
   * @param corpusId the corpus id the caller expects (409 CORPUS_REPLACED otherwise), or null
   * @param idempotencyKey sent as Idempotency-Key: the same key and body again return the original
   *     receipt
   */
  public Receipt index(String corpus, String corpusId, Document document, String idempotencyKey) {
    ObjectNode body = Transport.JSON.valueToTree(document);
    body.put("corpus", corpus);
    if (corpusId != null) {
      body.put("corpusId", corpusId);
    }
    return Transport.read(
        transport.post("v1/retrieval/sources/index", body, key(idempotencyKey)), Receipt.class);
  }

  public Receipt delete(String corpus, String source) {
    return delete(corpus, null, new DeleteOperation(source, null, null), newKey());
  }

  /**
   * Deletes a source; {@code purge} in the operation erases every retained version of its content.
   */
  public Receipt delete(
      String corpus, String corpusId, DeleteOperation operation, String idempotencyKey) {
    ObjectNode body = Transport.JSON.valueToTree(operation);
    body.put("corpus", corpus);
    if (corpusId != null) {
      body.put("corpusId", corpusId);
    }
    return Transport.read(
        transport.post("v1/retrieval/sources/delete", body, key(idempotencyKey)), Receipt.class);
  }

  /**
   * A delete operation (also of a batch): {@code expectedRevision} and {@code purge} may be null.
   */
  public record DeleteOperation(String source, Long expectedRevision, Boolean purge) {}

  /** One operation of a batch: exactly one of {@code index} and {@code delete}. */
  public record BatchOperation(Document index, DeleteOperation delete) {
    public static BatchOperation index(Document document) {
      return new BatchOperation(Objects.requireNonNull(document), null);
    }

    public static BatchOperation delete(String source) {
      return new BatchOperation(null, new DeleteOperation(source, null, null));
    }
  }

  /** Applies {@code operations} atomically at one revision, with a fresh Idempotency-Key. */
  public BatchResult batch(String corpus, List<BatchOperation> operations) {
    return batch(corpus, null, operations, newKey());
  }

  public BatchResult batch(
      String corpus, String corpusId, List<BatchOperation> operations, String idempotencyKey) {
    return Transport.read(
        transport.post(
            "v1/retrieval/sources/batch",
            new Batch(corpus, corpusId, operations),
            key(idempotencyKey)),
        BatchResult.class);
  }

  /**
   * The source's state; {@link ApiException.NotFoundException} ({@code SOURCE_NOT_FOUND}) when it
   * does not exist.
   */
  public SourceState readSource(String corpus, String source) {
    return Transport.read(
        transport.post("v1/retrieval/sources/read", new SourceRef(corpus, source), null),
        SourceState.class);
  }

  /**
   * One page of a source's chunks at {@code revision} (null: the latest), numbered above {@code
   * after} (null: from the first); {@link ApiException.NotFoundException} ({@code
   * SOURCE_NOT_FOUND}) when the source did not exist at that revision.
   */
  public SourceText readChunks(
      String corpus, String source, Long revision, Integer after, Integer limit) {
    return Transport.read(
        transport.post(
            "v1/retrieval/sources/chunks",
            new ChunksListing(corpus, null, source, revision, after, limit),
            null),
        SourceText.class);
  }

  /**
   * The source's whole text, chunk by chunk, page by page as the stream is consumed, every page at
   * the revision the first one answered at (so the pages fit together while the corpus changes).
   */
  public Stream<SourceText.Chunk> chunks(String corpus, String source, Long revision) {
    long[] at = {revision == null ? -1 : revision};
    return keyset(
        next -> {
          SourceText page =
              readChunks(
                  corpus,
                  source,
                  at[0] < 0 ? null : at[0],
                  next == null ? null : Integer.valueOf(next),
                  null);
          at[0] = page.revision();
          return new Page<>(
              page.chunks(), page.nextAfter() == null ? null : page.nextAfter().toString());
        });
  }

  /** One page of sources in name order. */
  public Page<SourceState> listSources(String corpus, String prefix, String cursor, Integer limit) {
    JsonNode page =
        transport.post(
            "v1/retrieval/sources/list", new SourceListing(corpus, prefix, cursor, limit), null);
    return new Page<>(
        list(page.path("sources"), SourceState.class), page.path("nextCursor").textValue());
  }

  /** Every source (under {@code prefix}, or all when null) the token may see, page by page. */
  public Stream<SourceState> sources(String corpus, String prefix) {
    return keyset(cursor -> listSources(corpus, prefix, cursor, null));
  }

  /**
   * One page of history: entries with revision above {@code after}; {@code next} is the next {@code
   * after}.
   */
  public Page<HistoryEntry> history(String corpus, long after, Integer limit) {
    JsonNode page =
        transport.post(
            "v1/retrieval/corpora/history", new HistoryListing(corpus, after, limit), null);
    JsonNode next = page.get("nextAfter");
    return new Page<>(
        list(page.path("entries"), HistoryEntry.class), next == null ? null : next.asText());
  }

  /** Every history entry after revision {@code after}, page by page. */
  public Stream<HistoryEntry> historyAfter(String corpus, long after) {
    return keyset(next -> history(corpus, next == null ? after : Long.parseLong(next), null));
  }

  // ----- ingest

  /** Uploads the file at {@code file} (streamed) with a fresh Idempotency-Key. */
  public Receipt ingest(IngestRequest request, Path file) {
    return ingest(request, file, newKey());
  }

  /**
   * Uploads the file at {@code file}, streamed from disk, and checks that the server hashed the
   * bytes that were sent (the receipt's {@code contentSha256}).
   */
  public Receipt ingest(IngestRequest request, Path file, String idempotencyKey) {
    return new MultipartIngest(transport, request)
        .send(MultipartIngest.FileBytes.of(file), key(idempotencyKey));
  }

  /**
   * Uploads what {@code content} holds, streamed (read once, closed after), hashing it on the way;
   * a stream cannot be sent again, so a retry needs a new stream with the same bytes and key.
   */
  public Receipt ingest(IngestRequest request, InputStream content, String idempotencyKey) {
    return new MultipartIngest(transport, request)
        .send(MultipartIngest.FileBytes.of(content), key(idempotencyKey));
  }

  // ----- ingestion jobs

  /**
   * {@code jobs/create}: a new open job for {@code corpus} ({@code corpusId}: the id expected, or
   * null).
   */
  public Job createJob(String corpus, String corpusId) {
    return createJob(corpus, corpusId, null);
  }

  /**
   * {@code jobs/create} with an OCR choice for the job's files: {@code auto} (refused with {@code
   * INVALID_REQUEST} unless the server advertises the feature {@code ocr}), {@code off}, or null
   * for the server's setting. A file may name its own ({@link JobFile#withOcr}).
   */
  public Job createJob(String corpus, String corpusId, String ocr) {
    return createJob(corpus, corpusId, ocr, null);
  }

  /**
   * {@code jobs/create} with an OCR choice and the Tesseract language data its files are recognised
   * with ({@code List.of("deu", "eng")}), or null for the server's {@code extraction.ocrLanguages}.
   * A name that is not language data or not installed on the server is refused with {@code
   * INVALID_REQUEST} naming {@code ocrLanguages[i]}. A file may name its own ({@link
   * JobFile#withOcrLanguages}).
   */
  public Job createJob(String corpus, String corpusId, String ocr, List<String> ocrLanguages) {
    return job(
        transport.post(
            "v1/retrieval/jobs/create",
            new JobCreate(corpus, corpusId, ocr, copy(ocrLanguages)),
            null));
  }

  /**
   * {@code jobs/upload}: {@code files} for an open job, streamed from disk in one request; with
   * {@code close}, the job takes no more files after them. Answered once every file is on the
   * server's disk; a refused upload keeps none of its files.
   *
   * @throws java.io.UncheckedIOException when a file is not a regular file, before anything is sent
   */
  public Job uploadToJob(String job, List<JobFile> files, boolean close) {
    return JobUpload.upload(transport, job, files, close);
  }

  /** {@code jobs/submit}: a job created, given {@code files} and closed by one request. */
  public Job submitJob(String corpus, String corpusId, List<JobFile> files) {
    return submitJob(corpus, corpusId, null, files);
  }

  /**
   * {@code jobs/submit} with an OCR choice for the job's files, as {@link #createJob(String,
   * String, String)}.
   */
  public Job submitJob(String corpus, String corpusId, String ocr, List<JobFile> files) {
    return submitJob(corpus, corpusId, ocr, null, files);
  }

  /**
   * {@code jobs/submit} with an OCR choice and OCR languages for the job's files, as {@link
   * #createJob(String, String, String, List)}.
   */
  public Job submitJob(
      String corpus, String corpusId, String ocr, List<String> ocrLanguages, List<JobFile> files) {
    return JobUpload.submit(transport, corpus, corpusId, ocr, copy(ocrLanguages), files);
  }

  private static List<String> copy(List<String> languages) {
    return languages == null ? null : List.copyOf(languages);
  }

  /** {@code jobs/close}: no more files; the job ends once those it holds have their outcome. */
  public Job closeJob(String job) {
    return job(transport.post("v1/retrieval/jobs/close", new JobRef(job), null));
  }

  /** {@code jobs/cancel}: files not yet indexed never will be; indexed ones stay. */
  public Job cancelJob(String job) {
    return job(transport.post("v1/retrieval/jobs/cancel", new JobRef(job), null));
  }

  /**
   * {@code jobs/read}: the job and one page of its files after {@code cursor} (null: the first),
   * {@code limit} at a time (null: the server's default); {@link ApiException.NotFoundException}
   * ({@code JOB_NOT_FOUND}) for a job that is not the token's to read.
   */
  public JobPage readJob(String job, String cursor, Integer limit) {
    return Transport.read(
        transport.post("v1/retrieval/jobs/read", new JobListing(job, cursor, limit), null),
        JobPage.class);
  }

  /** Every file of a job with its outcome, page by page as the stream is consumed. */
  public Stream<JobPage.FileOutcome> jobFiles(String job) {
    return keyset(
        cursor -> {
          JobPage page = readJob(job, cursor, null);
          return new Page<>(page.files(), page.nextCursor());
        });
  }

  /**
   * {@code jobs/list}: one page of the jobs the token may read (those its subject submitted, and
   * every job of a corpus it may manage), newest first, after {@code cursor} (null: the first),
   * {@code limit} at a time (null: the server's default). {@code corpus} (a name inside the token's
   * grants, else {@link ApiException.ForbiddenException}) and {@code state} ({@code open}, {@code
   * running}, {@code completed}, {@code cancelled} or {@code failed}) narrow it; null for any.
   */
  public Page<Job> listJobs(String corpus, String state, String cursor, Integer limit) {
    JsonNode page =
        transport.post(
            "v1/retrieval/jobs/list", new JobsListing(corpus, state, cursor, limit), null);
    return new Page<>(list(page.path("jobs"), Job.class), page.path("nextCursor").textValue());
  }

  /**
   * Every job {@link #listJobs} would show, newest first, page by page as the stream is consumed.
   */
  public Stream<Job> jobs(String corpus, String state) {
    return keyset(cursor -> listJobs(corpus, state, cursor, null));
  }

  private static Job job(JsonNode answer) {
    return Transport.read(answer.path("job"), Job.class);
  }

  // ----- operations

  /**
   * {@code POST /v1/admin/backup}: backs up the whole data folder into the server's {@code
   * backup.directory} as {@code name} (the token needs {@code manage} on every corpus) and answers
   * once it is complete, which may take long: {@code timeout} bounds the wait (null: unbounded)
   * instead of the client's. {@link ApiException.NotFoundException} when the server takes no
   * backups, {@code BACKUP_EXISTS} for a name already used.
   */
  public Backup backup(String name, Duration timeout) {
    return backup(name, null, timeout);
  }

  /**
   * {@code POST /v1/admin/backup} of only the corpora named ({@code corpora} non-empty; null backs
   * up everything): {@code CORPUS_NOT_FOUND} when one does not exist.
   */
  public Backup backup(String name, List<String> corpora, Duration timeout) {
    HttpRequest.Builder b = transport.request("v1/admin/backup", false);
    if (timeout != null) {
      b.timeout(timeout);
    }
    return Transport.read(transport.post(b, new BackupRequest(name, corpora), null), Backup.class);
  }

  // ----- runs

  /**
   * Starts a run and returns its events as they arrive, validated ({@link RunStream}). Refusals
   * before the run starts (validation, grants) are thrown here as {@link ApiException}. Close the
   * stream to cancel the run.
   */
  public RunStream stream(RunRequest request) {
    HttpRequest http =
        transport
            .request("v1/runs", false)
            .header("Content-Type", "application/json")
            .header("Accept", "text/event-stream")
            .header("AgenticDriver-Accept-Optional-Events", "true")
            .POST(HttpRequest.BodyPublishers.ofByteArray(Transport.write(runBody(request, true))))
            .build();
    HttpResponse<InputStream> res = transport.send(http);
    return new RunStream(res.body());
  }

  /**
   * Runs and waits for the result; a run that fails or is cancelled is {@link RunFailedException},
   * a refusal before it started {@link ApiException}.
   */
  public RunResult run(RunRequest request) {
    HttpRequest http =
        transport
            .request("v1/runs", false)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(Transport.write(runBody(request, false))))
            .build();
    HttpResponse<InputStream> res = transport.send(http);
    JsonNode answer;
    try {
      answer = Transport.JSON.readTree(Transport.readAll(res));
    } catch (IOException e) {
      throw new ProtocolException(
          ProtocolException.INVALID_RESPONSE, "a run's answer is not JSON", e);
    }
    return Transport.read(answer.path("result"), RunResult.class);
  }

  private static ObjectNode runBody(RunRequest r, boolean stream) {
    ObjectNode body = Transport.JSON.createObjectNode().put("provider", "retrieval");
    if (r.input() != null) {
      body.put("input", r.input());
    }
    body.set(
        "retrieval",
        Transport.JSON.valueToTree(
            new RunRetrieval(
                r.corpus(), r.sources(), r.query(), r.topK(), r.revision(), r.corpusId())));
    body.put("stream", stream);
    if (r.idleTimeoutMs() != null) {
      body.put("idleTimeoutMs", r.idleTimeoutMs());
    }
    return body;
  }

  // ----- helpers

  /** A new random Idempotency-Key. */
  public static String newKey() {
    return UUID.randomUUID().toString();
  }

  private static String key(String idempotencyKey) {
    return idempotencyKey == null ? newKey() : idempotencyKey;
  }

  private static <T> List<T> list(JsonNode array, Class<T> type) {
    List<T> out = new ArrayList<>();
    if (array.isArray()) {
      array.forEach(item -> out.add(Transport.read(item, type)));
    }
    return out;
  }

  /**
   * A lazy stream over keyset pages: {@code fetch} gets the page after a cursor (null: the first).
   */
  private static <T> Stream<T> keyset(Function<String, Page<T>> fetch) {
    Iterator<T> items =
        new Iterator<>() {
          private Iterator<T> page = List.<T>of().iterator();
          private String next;
          private boolean last;

          @Override
          public boolean hasNext() {
            while (!page.hasNext() && !last) {
              Page<T> p = fetch.apply(next);
              page = p.items().iterator();
              next = p.next();
              last = next == null;
            }
            return page.hasNext();
          }

          @Override
          public T next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            return page.next();
          }
        };
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(items, Spliterator.ORDERED), false);
  }

  // The request bodies: exactly the contract's fields, nulls left out.
  record CreateCorpus(String corpus, Settings settings) {}

  record Named(String corpus) {}

  record CorpusListing(String cursor, Integer limit) {}

  record SourceRef(String corpus, String source) {}

  record SourceListing(String corpus, String prefix, String cursor, Integer limit) {}

  record ChunksListing(
      String corpus, String corpusId, String source, Long revision, Integer after, Integer limit) {}

  record HistoryListing(String corpus, long after, Integer limit) {}

  record Batch(String corpus, String corpusId, List<BatchOperation> operations) {}

  record BackupRequest(String name, List<String> corpora) {}

  record JobCreate(String corpus, String corpusId, String ocr, List<String> ocrLanguages) {}

  record JobRef(String job) {}

  record JobListing(String job, String cursor, Integer limit) {}

  record JobsListing(String corpus, String state, String cursor, Integer limit) {}

  record RunRetrieval(
      String corpus,
      List<String> sources,
      String query,
      Integer topK,
      Long revision,
      String corpusId) {}
}
