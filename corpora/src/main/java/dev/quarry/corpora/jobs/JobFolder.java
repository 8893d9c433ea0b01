package dev.quarry.corpora.jobs;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.corpora.PrivateFolders;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.corpora.ingest.OcrChoice;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.IngestReport;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Receipt;
import dev.quarry.engine.spi.SourcePreparation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.util.IOUtils;

/**
 * One job's folder under {@code <data>/ingest-jobs/<id>/}, the only durable form of a job:
 *
 * <ul>
 *   <li>{@code job.json}: id, corpus, corpusId, the submitter's subject and grants, the job's OCR
 *       choice (absent: the server's setting), timings, and whether it is closed, cancelled or
 *       ended (or, {@code submitting}, created by a submit not yet acknowledged: removed when
 *       loaded); replaced atomically (temp file, fsync, rename, fsync of the folder).
 *   <li>{@code files/<index>}: each acknowledged file's bytes, fsynced before the file is
 *       acknowledged; removed once the file has its outcome.
 *   <li>{@code files.log}: one JSON line per acknowledged file (index, source, title, metadata,
 *       declared media type, file name, its own OCR choice, SHA-256, size), appended and fsynced
 *       before the answer that acknowledges it. A file is acknowledged exactly when its line is in
 *       this log.
 *   <li>{@code outcomes.log}: one JSON line per file outcome (its receipt or its error), appended
 *       and fsynced when the file ends.
 * </ul>
 *
 * A line cut short by a crash was never acknowledged: loading truncates a log to its last whole
 * line. Not thread-safe; its {@link IngestJob}'s monitor (or the job's single loader) guards it.
 */
final class JobFolder {
  static final String JOB_JSON = "job.json";
  static final String FILES_LOG = "files.log";
  static final String OUTCOMES_LOG = "outcomes.log";
  static final String FILES = "files";

  /** Upload parts not yet acknowledged; whatever of them a crash leaves is deleted on load. */
  static final String PART_PREFIX = ".upload-";

  private static final ObjectMapper JSON = new ObjectMapper();

  final Path dir;

  JobFolder(Path dir) {
    this.dir = dir;
  }

  Path file(int index) {
    return dir.resolve(FILES).resolve(Integer.toString(index));
  }

  /** Where one file of an upload in progress is written before it is acknowledged. */
  Path part(String uploadId, int i) {
    return dir.resolve(FILES).resolve(PART_PREFIX + uploadId + "-" + i);
  }

  /**
   * Creates this folder with the first job.json of {@code job} (whose folder it is): written under
   * a temporary name that loading removes, the job exists once the folder has its final name.
   */
  void create(IngestJob job) throws IOException {
    assert job.folder == this : "a job's folder is created with the job's own state";
    Path root = dir.getParent();
    Path creating = root.resolve(".creating-" + dir.getFileName());
    PrivateFolders.create(creating.resolve(FILES));
    new JobFolder(creating).writeJob(job);
    Files.move(creating, dir, StandardCopyOption.ATOMIC_MOVE);
    fsyncDir(root);
  }

  /** Replaces job.json with the job's current state. Call holding the job's monitor. */
  void writeJob(IngestJob job) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("id", job.id);
    root.put("corpus", job.corpus);
    root.put("corpusId", job.corpusId);
    root.put("subject", job.access.subject());
    ArrayNode grants = root.putArray("grants");
    for (Grant g : job.access.grants()) {
      ObjectNode grant = grants.addObject();
      grant.put("corpus", g.corpus());
      g.sources().forEach(grant.putArray("sources")::add);
      g.scopes().stream().map(Scope::wireName).sorted().forEach(grant.putArray("scopes")::add);
    }
    if (job.ocr != null) {
      root.put("ocr", job.ocr.wireName());
    }
    if (job.ocrLanguages != null) {
      job.ocrLanguages.forEach(root.putArray("ocrLanguages")::add);
    }
    if (job.embedding) {
      root.put("embedding", true);
    }
    root.put("createdAt", job.createdAt.toString());
    putTime(root, "closedAt", job.closedAt);
    putTime(root, "endedAt", job.endedAt);
    root.put("state", job.state.wireName());
    if (job.uncommittedSubmit) {
      root.put("submitting", true);
    }
    if (job.errorCode != null) {
      root.putObject("error").put("code", job.errorCode.name()).put("message", job.errorMessage);
    }
    byte[] bytes = JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
    Path tmp = dir.resolve(JOB_JSON + ".tmp");
    try (FileChannel ch =
        FileChannel.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      writeFully(ch, bytes);
      ch.force(true);
    }
    Files.move(
        tmp,
        dir.resolve(JOB_JSON),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
    fsyncDir(dir);
  }

  /**
   * Makes an upload's files durable and acknowledged: each part fsynced and renamed to its index,
   * then one line per file appended to files.log and fsynced. Until the log's fsync returns,
   * nothing of the upload is acknowledged, and a crash leaves parts that loading deletes.
   */
  void acknowledge(String uploadId, List<IngestJob.Entry> entries) throws IOException {
    for (int i = 0; i < entries.size(); i++) {
      Path part = part(uploadId, i);
      fsync(part);
      Files.move(part, file(entries.get(i).index), StandardCopyOption.ATOMIC_MOVE);
    }
    fsyncDir(dir.resolve(FILES));
    ByteArrayOutputStream lines = new ByteArrayOutputStream();
    for (IngestJob.Entry e : entries) {
      ObjectNode line = JSON.createObjectNode();
      line.put("index", e.index);
      line.put("source", e.spec.source());
      if (e.spec.title() != null) {
        line.put("title", e.spec.title());
      }
      if (!e.spec.metadata().isEmpty()) {
        line.set("metadata", JSON.valueToTree(e.spec.metadata().values()));
      }
      if (e.spec.mediaType() != null) {
        line.put("mediaType", e.spec.mediaType());
      }
      if (e.spec.fileName() != null) {
        line.put("fileName", e.spec.fileName());
      }
      if (e.spec.ocr() != null) {
        line.put("ocr", e.spec.ocr().wireName());
      }
      if (e.spec.ocrLanguages() != null) {
        e.spec.ocrLanguages().forEach(line.putArray("ocrLanguages")::add);
      }
      line.put("sha256", e.sha256);
      line.put("bytes", e.bytes);
      lines.writeBytes(JSON.writeValueAsBytes(line));
      lines.write('\n');
    }
    append(FILES_LOG, lines.toByteArray());
  }

  /** Records a file's outcome (durably) and removes its bytes, which are no longer needed. */
  void recordOutcome(IngestJob.Entry e) throws IOException {
    ObjectNode line = JSON.createObjectNode();
    line.put("index", e.index);
    line.put("status", e.status.wireName());
    putTime(line, "endedAt", e.endedAt);
    if (e.receipt != null) {
      line.set("receipt", receipt(e.receipt));
    }
    if (e.errorCode != null) {
      line.putObject("error").put("code", e.errorCode.name()).put("message", e.errorMessage);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.writeBytes(JSON.writeValueAsBytes(line));
    bytes.write('\n');
    append(OUTCOMES_LOG, bytes.toByteArray());
    Files.deleteIfExists(file(e.index));
  }

  private void append(String log, byte[] bytes) throws IOException {
    try (FileChannel ch =
        FileChannel.open(
            dir.resolve(log),
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.APPEND)) {
      writeFully(ch, bytes);
      ch.force(true);
    }
  }

  /**
   * Reads a job back after a restart: job.json, the acknowledged files with their outcomes. Parts
   * of uploads that were never acknowledged are deleted, and logs are cut to their last whole line.
   */
  static IngestJob load(Path dir) throws IOException {
    JobFolder folder = new JobFolder(dir);
    JsonNode root = JSON.readTree(dir.resolve(JOB_JSON).toFile());
    List<Grant> grants = new ArrayList<>();
    for (JsonNode g : root.path("grants")) {
      List<String> sources = new ArrayList<>();
      g.path("sources").forEach(s -> sources.add(s.asText()));
      Set<Scope> scopes = EnumSet.noneOf(Scope.class);
      g.path("scopes").forEach(s -> scopes.add(Scope.fromWireName(s.asText())));
      grants.add(new Grant(g.path("corpus").asText(), sources, scopes));
    }
    IngestJob job =
        new IngestJob(
            root.path("id").asText(),
            root.path("corpus").asText(),
            root.path("corpusId").asText(),
            new Access(root.path("subject").asText(), grants),
            Instant.parse(root.path("createdAt").asText()),
            ocr(root),
            ocrLanguages(root),
            root.path("embedding").asBoolean(false),
            folder);
    job.closedAt = time(root, "closedAt");
    job.endedAt = time(root, "endedAt");
    job.state = JobState.fromWireName(root.path("state").asText());
    job.uncommittedSubmit = root.path("submitting").asBoolean(false);
    if (root.has("error")) {
      job.errorCode = ErrorCode.valueOf(root.path("error").path("code").asText());
      job.errorMessage = root.path("error").path("message").asText();
    }
    job.lastActivity = job.closedAt != null ? job.closedAt : Instant.now();
    for (JsonNode line : readLog(dir.resolve(FILES_LOG))) {
      Metadata metadata =
          line.has("metadata")
              ? Metadata.of(
                  JSON.convertValue(
                      line.get("metadata"), new TypeReference<Map<String, Object>>() {}),
                  "metadata")
              : null;
      JobFile spec =
          new JobFile(
              line.path("source").asText(),
              text(line, "title"),
              metadata,
              text(line, "mediaType"),
              text(line, "fileName"),
              ocr(line),
              ocrLanguages(line));
      int index = line.path("index").asInt();
      assert index == job.files.size() : "files.log holds the files in index order";
      job.files.add(
          new IngestJob.Entry(
              index, spec, line.path("sha256").asText(), line.path("bytes").asLong()));
    }
    for (JsonNode line : readLog(dir.resolve(OUTCOMES_LOG))) {
      IngestJob.Entry e = job.files.get(line.path("index").asInt());
      e.status = FileStatus.fromWireName(line.path("status").asText());
      e.endedAt = time(line, "endedAt");
      if (line.has("receipt")) {
        e.receipt = receipt(line.get("receipt"));
      }
      if (line.has("error")) {
        e.errorCode = ErrorCode.valueOf(line.path("error").path("code").asText());
        e.errorMessage = line.path("error").path("message").asText();
      }
      if (job.startedAt == null || (e.endedAt != null && e.endedAt.isBefore(job.startedAt))) {
        job.startedAt = e.endedAt;
      }
    }
    try (DirectoryStream<Path> parts =
        Files.newDirectoryStream(dir.resolve(FILES), PART_PREFIX + "*")) {
      for (Path part : parts) {
        Files.deleteIfExists(part);
      }
    }
    return job;
  }

  /** The whole lines of a log, after cutting off a last line a crash left unfinished. */
  private static List<JsonNode> readLog(Path log) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    if (!Files.exists(log)) {
      return out;
    }
    byte[] bytes = Files.readAllBytes(log);
    int end = bytes.length;
    while (end > 0 && bytes[end - 1] != '\n') {
      end--;
    }
    if (end < bytes.length) {
      try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE)) {
        ch.truncate(end);
        ch.force(true);
      }
    }
    for (String line : new String(bytes, 0, end, StandardCharsets.UTF_8).split("\n")) {
      if (!line.isEmpty()) {
        out.add(JSON.readTree(line));
      }
    }
    return out;
  }

  /** Removes the folder and everything in it. */
  void delete() throws IOException {
    IOUtils.rm(dir);
  }

  private static ObjectNode receipt(Receipt r) {
    ObjectNode out = JSON.createObjectNode();
    out.put("corpus", r.corpus());
    out.put("corpusId", r.corpusId());
    out.put("source", r.source());
    out.put("revision", r.revision());
    out.put("sourceRevision", r.sourceRevision());
    out.put("status", r.status().name());
    if (r.contentSha256() != null) {
      out.put("contentSha256", r.contentSha256());
    }
    out.put("chunks", r.chunks());
    if (r.ingest() != null) {
      out.set("ingest", JSON.valueToTree(SourcePreparation.ingestToMap(r.ingest())));
    }
    if (r.language() != null) {
      out.put("language", r.language());
    }
    return out;
  }

  private static Receipt receipt(JsonNode n) {
    JsonNode ingest = n.get("ingest");
    IngestReport report =
        ingest == null
            ? null
            : SourcePreparation.ingestFromMap(
                JSON.convertValue(ingest, new TypeReference<Map<String, Object>>() {}));
    return new Receipt(
        n.path("corpus").asText(),
        n.path("corpusId").asText(),
        n.path("source").asText(),
        n.path("revision").asLong(),
        n.path("sourceRevision").asLong(),
        Receipt.Status.valueOf(n.path("status").asText()),
        text(n, "contentSha256"),
        n.path("chunks").asInt(),
        report,
        text(n, "language"));
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  /**
   * The OCR choice a job or file line records; absent (null) in folders written before jobs had
   * one.
   */
  private static OcrChoice ocr(JsonNode n) {
    String name = text(n, "ocr");
    if (name == null) {
      return null;
    }
    OcrChoice mode = OcrChoice.fromWireName(name);
    if (mode == null) {
      throw new IllegalStateException("unknown OCR choice '" + name + "' in a job folder");
    }
    return mode;
  }

  /**
   * The OCR languages a job or file line records; absent (null: the server's) in folders written
   * before jobs had them.
   */
  private static List<String> ocrLanguages(JsonNode n) {
    JsonNode v = n.get("ocrLanguages");
    if (v == null || v.isNull()) {
      return null;
    }
    List<String> out = new ArrayList<>();
    v.forEach(l -> out.add(l.asText()));
    return out;
  }

  private static void putTime(ObjectNode n, String field, Instant t) {
    if (t != null) {
      n.put(field, t.toString());
    }
  }

  private static Instant time(JsonNode n, String field) {
    String s = text(n, field);
    return s == null ? null : Instant.parse(s);
  }

  private static void writeFully(FileChannel ch, byte[] bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      ch.write(buffer);
    }
  }

  static void fsync(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.force(true);
    }
  }

  /** Makes a creation, rename or removal inside {@code dir} durable. */
  static void fsyncDir(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Some file systems cannot fsync a directory; the rename is still atomic there.
    }
  }
}
