package dev.quarry.app.cli;

import dev.quarry.client.ApiException;
import dev.quarry.client.IngestRequest;
import dev.quarry.client.ProtocolException;
import dev.quarry.client.QuarryClient;
import dev.quarry.client.QuarryClientException;
import dev.quarry.client.Receipt;
import dev.quarry.client.TransportException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Ingests through a running server with the {@link QuarryClient}: each file is streamed from disk
 * as one {@code POST /v1/retrieval/ingest}, never read whole into memory. Answers the server marks
 * retryable ({@code 429 CAPACITY}, {@code 503}) are retried a few times with a growing pause, with
 * the same Idempotency-Key, so a retry never ingests a file twice. Also the client that {@link
 * JobIngest} sends jobs with.
 */
final class HttpIngester implements DocumentIngester {
  /** Tries per file when the server answers with a retryable error. */
  static final int MAX_ATTEMPTS = 5;

  /** The pause before the second try; each further try waits one more of these. */
  static final Duration RETRY_PAUSE = Duration.ofMillis(500);

  /** Extraction of a large document may take a minute; this bounds a hung connection, not speed. */
  static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(10);

  private final HttpClient http =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(10))
          .version(HttpClient.Version.HTTP_1_1)
          .build();
  private final String baseUrl;
  private final QuarryClient client;
  private final String ocr;
  private final List<String> ocrLanguages;

  /**
   * @param ocr {@code auto} or {@code off}, sent with every file, or null for the server's setting
   * @param ocrLanguages the OCR language data sent with every file, or null for the server's
   */
  HttpIngester(String baseUrl, String token, String ocr, List<String> ocrLanguages) {
    this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    this.ocr = ocr;
    this.ocrLanguages = ocrLanguages;
    this.client =
        QuarryClient.builder(this.baseUrl)
            .token(token)
            .httpClient(http)
            .timeout(REQUEST_TIMEOUT)
            .build();
  }

  String baseUrl() {
    return baseUrl;
  }

  QuarryClient client() {
    return client;
  }

  @Override
  public String checkCorpus(String corpus) {
    try {
      client.readCorpus(corpus);
      return null;
    } catch (QuarryClientException e) {
      return problem(e, baseUrl);
    }
  }

  @Override
  public String createCorpus(String corpus) {
    try {
      client.createCorpus(corpus, null);
      return null;
    } catch (QuarryClientException e) {
      return problem(e, baseUrl);
    }
  }

  /**
   * {@code CODE: message} of a failed call to the server at {@code baseUrl}, as the command prints
   * it; a server out of reach is {@code UNREACHABLE}.
   */
  static String problem(QuarryClientException e, String baseUrl) {
    return switch (e) {
      case ApiException api -> api.code() + ": " + api.error().message();
      case TransportException t -> "UNREACHABLE: " + baseUrl + ": " + reason(t);
      default -> e.getMessage();
    };
  }

  /** Why the server could not be reached: the cause's words when it has some. */
  private static String reason(TransportException e) {
    Throwable cause = e.getCause();
    return cause != null && cause.getMessage() != null ? cause.getMessage() : e.getMessage();
  }

  @Override
  public IngestOutcome ingest(String corpus, DocumentFiles.DocumentFile file, String sha256) {
    try {
      if (sha256.equals(heldSha256(corpus, file.source()))) {
        return IngestOutcome.of(IngestOutcome.UNCHANGED);
      }
      IngestRequest request =
          IngestRequest.of(corpus, file.source())
              .withMediaType(file.declaredMediaType())
              .withOcr(ocr)
              .withOcrLanguages(ocrLanguages);
      String key = QuarryClient.newKey();
      Receipt receipt =
          retried(() -> client.ingest(request, file.path(), key), ApiException::retryable);
      return IngestOutcome.of(
          receipt.status(), RecognitionReport.of(receipt), DecodingReport.of(receipt.encoding()));
    } catch (ApiException e) {
      if (Thread.currentThread().isInterrupted()) {
        return IngestOutcome.failed(
            "CANCELLED", "interrupted"); // interrupted while waiting to retry
      }
      return IngestOutcome.failed(e.code(), e.error().message());
    } catch (UncheckedIOException e) {
      return IngestOutcome.failed(
          "UNREADABLE", "the file could not be read: " + e.getCause().getMessage());
    } catch (TransportException e) {
      if (e.getCause() instanceof InterruptedException) {
        return IngestOutcome.failed("CANCELLED", "interrupted");
      }
      return IngestOutcome.failed("UNREACHABLE", baseUrl + ": " + reason(e));
    } catch (ProtocolException e) {
      return IngestOutcome.failed(e.code(), e.getMessage());
    }
  }

  /**
   * {@code call}, sent again while the server refuses it for a passing reason ({@code passing}), at
   * most {@link #MAX_ATTEMPTS} times, each pause one {@link #RETRY_PAUSE} longer than the last. The
   * last refusal is thrown; so is the refusal whose pause is interrupted (the thread keeps its
   * interrupt, for the caller to see).
   */
  static <T> T retried(Supplier<T> call, Predicate<ApiException> passing) {
    for (int attempt = 1; ; attempt++) {
      try {
        return call.get();
      } catch (ApiException e) {
        if (!passing.test(e) || attempt == MAX_ATTEMPTS) {
          throw e;
        }
        try {
          Thread.sleep(RETRY_PAUSE.toMillis() * attempt);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  /** The content hash the source holds, or null when it holds none the token may read. */
  private String heldSha256(String corpus, String source) {
    try {
      return client.readSource(corpus, source).contentSha256();
    } catch (ApiException e) {
      return null; // a missing or unreadable source: the upload says what is wrong
    }
  }

  @Override
  public void close() {
    http.close();
  }
}
