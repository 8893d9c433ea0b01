package dev.quarry.api.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.corpora.ingest.OcrChoice;
import dev.quarry.corpora.jobs.IngestJobs;
import dev.quarry.corpora.jobs.JobFile;
import dev.quarry.corpora.jobs.JobListPage;
import dev.quarry.corpora.jobs.JobState;
import dev.quarry.engine.QuarryException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The requests of the ingestion-job endpoints ({@code jobs/*}), read as strictly as any other: the
 * JSON bodies of create, close, cancel, read and list, and the {@code request} parts of the
 * multipart upload and submit.
 */
public final class JobRequests {
  private static final Set<String> FILE_FIELDS =
      Set.of("source", "title", "metadata", "mediaType", "ocr", "ocrLanguages");
  private static final String CURSOR_PREFIX = "v1:file:";
  private static final String LIST_CURSOR_PREFIX = "v1:job:";
  private static final String STATES =
      Stream.of(JobState.values())
          .map(JobState::wireName)
          .collect(Collectors.joining("', '", "'", "'"));

  private JobRequests() {}

  /**
   * {@code jobs/create}: an open job for a corpus.
   *
   * @param ocr the OCR choice for the job's files (each may name its own), or null for the server's
   *     setting
   * @param ocrLanguages the Tesseract language data its files are recognised with, or null for the
   *     server's
   */
  public record Create(String corpus, String corpusId, OcrChoice ocr, List<String> ocrLanguages) {
    public static Create read(WireObject body) {
      body.allowOnly(Set.of("corpus", "corpusId", "ocr", "ocrLanguages"));
      return new Create(
          WireValues.corpus(body),
          WireValues.corpusId(body),
          WireValues.ocr(body),
          WireValues.ocrLanguages(body));
    }

    /**
     * Refuses {@code ocr: auto} on a server without the feature {@code ocr}, as a single ingest
     * does.
     */
    public void requireOcrOffered(boolean offered) {
      IngestRequests.requireOcrOffered(ocr, "ocr", offered);
    }
  }

  /** {@code jobs/close} and {@code jobs/cancel}: one job by id. */
  public record Job(String job) {
    public static Job read(WireObject body) {
      body.allowOnly(Set.of("job"));
      return new Job(jobId(body));
    }
  }

  /** {@code jobs/read}: a job and a page of its files after {@code cursor}. */
  public record Read(String job, int after, int limit) {
    public static Read read(WireObject body, Limits limits) {
      body.allowOnly(Set.of("job", "cursor", "limit"));
      String job = jobId(body);
      return new Read(
          job, decodeCursor(WireValues.cursor(body)), WireValues.listLimit(body, limits));
    }
  }

  /**
   * {@code jobs/list}: the caller's readable jobs after {@code cursor}, optionally of one corpus
   * and in one state.
   *
   * @param corpus null for every corpus
   * @param state null for every state
   * @param after null for the first page
   */
  public record ListJobs(String corpus, JobState state, JobListPage.Key after, int limit) {
    public static ListJobs read(WireObject body, Limits limits) {
      body.allowOnly(Set.of("corpus", "state", "cursor", "limit"));
      String corpus = body.has("corpus") ? WireValues.corpus(body) : null;
      JobState state = state(body);
      JobListPage.Key after = decodeListCursor(body, WireValues.cursor(body));
      return new ListJobs(corpus, state, after, WireValues.listLimit(body, limits));
    }

    private static JobState state(WireObject body) {
      String value = body.optionalString("state", 32);
      if (value == null) {
        return null;
      }
      for (JobState s : JobState.values()) {
        if (s.wireName().equals(value)) {
          return s;
        }
      }
      throw QuarryException.invalid(
          body.pathOf("state"),
          body.pathOf("state") + " must be one of " + STATES + "; got '" + value + "'");
    }
  }

  /** The cursor after job {@code key} in {@code jobs/list}. */
  public static String listCursorAfter(JobListPage.Key key) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(
            (LIST_CURSOR_PREFIX + key.id() + ":" + key.createdAt())
                .getBytes(StandardCharsets.UTF_8));
  }

  private static JobListPage.Key decodeListCursor(WireObject body, String cursor) {
    if (cursor == null) {
      return null;
    }
    try {
      String s = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      int colon = s.indexOf(':', LIST_CURSOR_PREFIX.length());
      if (s.startsWith(LIST_CURSOR_PREFIX) && colon > 0) {
        String id = s.substring(LIST_CURSOR_PREFIX.length(), colon);
        IngestJobs.checkId(id);
        return new JobListPage.Key(Instant.parse(s.substring(colon + 1)), id);
      }
    } catch (IllegalArgumentException | DateTimeParseException | QuarryException e) {
      // the typed error below
    }
    throw QuarryException.invalid(body.pathOf("cursor"), "cursor is not one this service issued");
  }

  /**
   * The {@code request} part of {@code jobs/upload}: files for an open job, and whether to close it
   * after them.
   */
  public record Upload(String job, List<JobFile> files, boolean close) {
    public static Upload read(WireObject body, Limits limits) {
      body.allowOnly(Set.of("job", "files", "close"));
      String job = jobId(body);
      List<JobFile> files = readFiles(body, limits);
      return new Upload(job, files, body.optionalBoolean("close", false));
    }

    /**
     * Refuses a file's {@code ocr: auto} on a server without the feature {@code ocr}, naming the
     * file.
     */
    public void requireOcrOffered(boolean offered) {
      requireFilesOcrOffered(files, offered);
    }
  }

  /**
   * The {@code request} part of {@code jobs/submit}: a job created, filled and closed in one
   * request.
   *
   * @param ocr the OCR choice for the job's files (each may name its own), or null for the server's
   *     setting
   * @param ocrLanguages the Tesseract language data its files are recognised with, or null for the
   *     server's
   */
  public record Submit(
      String corpus,
      String corpusId,
      OcrChoice ocr,
      List<String> ocrLanguages,
      List<JobFile> files) {
    public static Submit read(WireObject body, Limits limits) {
      body.allowOnly(Set.of("corpus", "corpusId", "ocr", "ocrLanguages", "files"));
      String corpus = WireValues.corpus(body);
      String corpusId = WireValues.corpusId(body);
      OcrChoice ocr = WireValues.ocr(body);
      List<String> ocrLanguages = WireValues.ocrLanguages(body);
      return new Submit(corpus, corpusId, ocr, ocrLanguages, readFiles(body, limits));
    }

    /**
     * Refuses {@code ocr: auto}, the job's or a file's, on a server without the feature {@code
     * ocr}.
     */
    public void requireOcrOffered(boolean offered) {
      IngestRequests.requireOcrOffered(ocr, "ocr", offered);
      requireFilesOcrOffered(files, offered);
    }
  }

  private static void requireFilesOcrOffered(List<JobFile> files, boolean offered) {
    for (int i = 0; i < files.size(); i++) {
      IngestRequests.requireOcrOffered(files.get(i).ocr(), "files[" + i + "].ocr", offered);
    }
  }

  private static String jobId(WireObject body) {
    String job = body.requireString("job");
    try {
      IngestJobs.checkId(job);
    } catch (QuarryException e) {
      throw QuarryException.invalid(body.pathOf("job"), e.getMessage());
    }
    return job;
  }

  /** {@code files}: one entry per file part, in the order the parts follow; at least one. */
  private static List<JobFile> readFiles(WireObject body, Limits limits) {
    // More than maxJobFiles is the job's bound (413 JOB_TOO_LARGE, after grants), not a malformed
    // request.
    List<JsonNode> items = body.optionalArray("files", (int) Limit.MAX_JOB_FILES.ceiling());
    if (items == null || items.isEmpty()) {
      throw QuarryException.invalid(
          body.pathOf("files"), "files must list at least one file, one entry per file part");
    }
    List<JobFile> out = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      WireObject f = WireObject.at(items.get(i), body.pathOf("files") + "[" + i + "]");
      f.allowOnly(FILE_FIELDS);
      String source = WireValues.newSource(f, "source");
      String title = f.optionalString("title", limits.getInt(Limit.MAX_TITLE_CHARS));
      var metadata = WireValues.metadata(f, "metadata", limits.getInt(Limit.MAX_METADATA_ENTRIES));
      String mediaType = WireValues.mediaType(f);
      out.add(
          new JobFile(source, title, metadata, mediaType)
              .withOcr(WireValues.ocr(f))
              .withOcrLanguages(WireValues.ocrLanguages(f)));
    }
    return out;
  }

  /** The cursor after file {@code index}. */
  public static String cursorAfter(int index) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString((CURSOR_PREFIX + index).getBytes(StandardCharsets.UTF_8));
  }

  private static int decodeCursor(String cursor) {
    if (cursor == null) {
      return -1;
    }
    try {
      String s = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      if (s.startsWith(CURSOR_PREFIX)) {
        int index = Integer.parseInt(s.substring(CURSOR_PREFIX.length()));
        if (index >= 0) {
          return index;
        }
      }
    } catch (IllegalArgumentException e) {
      // the typed error below
    }
    throw QuarryException.invalid("cursor", "cursor is not one this service issued");
  }
}
