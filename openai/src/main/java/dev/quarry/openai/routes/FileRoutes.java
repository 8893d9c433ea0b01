package dev.quarry.openai.routes;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.routes.BodyReader;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.AccessPolicy;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.openai.store.FileArea;
import dev.quarry.openai.store.FileRecord;
import io.javalin.http.Context;
import io.javalin.http.UploadedFile;
import jakarta.servlet.MultipartConfigElement;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code /files}: uploads kept durably in the files area of the data folder until deleted. A file
 * belongs to the token subject that uploaded it: only that subject lists, reads, attaches or
 * deletes it; for any other caller it does not exist (404, worded as for an id that never existed).
 * Uploading needs a token that may index somewhere ({@code index} on some corpus): a read-only
 * token stores nothing on the server.
 */
final class FileRoutes {
  /** What OpenAI's SDKs send as {@code purpose}; file search reads files of any of them. */
  static final Set<String> PURPOSES =
      Set.of("assistants", "batch", "fine-tune", "vision", "user_data", "evals");

  /** Room for the multipart framing and the purpose field around the file's bytes. */
  static final long FRAMING_BYTES = 64 * 1024;

  static final int MAX_FILENAME_CHARS = 512;

  /**
   * Parts up to this size stay in memory while the body is parsed; larger ones are spooled to disk.
   */
  static final int SPOOL_THRESHOLD_BYTES = 1 << 20;

  /**
   * The request attribute Jetty's multipart parser reads its bounds from (Javalin sets its own only
   * when absent).
   */
  private static final String MULTIPART_CONFIG = "org.eclipse.jetty.multipartConfig";

  private final Backend backend;

  FileRoutes(Backend backend) {
    this.backend = backend;
  }

  /** File {@code id}, if it is the caller's; 404 naming {@code param} otherwise. */
  static FileRecord require(Backend backend, Access access, String id, String param) {
    if (Ids.isFile(id)) {
      var file = backend.files().find(id);
      if (file.isPresent() && file.get().subject().equals(access.subject())) {
        return file.get();
      }
    }
    throw new OpenAiException(404, "No file found with id '" + id + "'.", param, null);
  }

  void upload(Context ctx, Access access) throws IOException {
    String type = ctx.header("Content-Type");
    if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) {
      throw new OpenAiException(
          415,
          "Upload a file as multipart/form-data with the fields 'file' and 'purpose'.",
          null,
          "unsupported_media_type");
    }
    if (ctx.contentLength() > backend.maxUploadBytes() + FRAMING_BYTES) {
      BodyReader.drop(
          ctx.req().getInputStream(),
          0,
          ctx.contentLength(),
          backend.maxUploadBytes() + FRAMING_BYTES);
      throw tooLarge();
    }
    Map<String, List<String>> fields;
    Map<String, List<UploadedFile>> uploads;
    // The container's parser spools parts to disk: bounded here, for a body sent without its length
    // too.
    ctx.req()
        .setAttribute(
            MULTIPART_CONFIG,
            new MultipartConfigElement(
                System.getProperty("java.io.tmpdir"),
                backend.maxUploadBytes(),
                backend.maxUploadBytes() + FRAMING_BYTES,
                SPOOL_THRESHOLD_BYTES));
    try {
      // Copied here, since the container parses when they are first read.
      fields = new HashMap<>(ctx.formParamMap());
      uploads = new HashMap<>(ctx.uploadedFileMap());
      uploads.values().forEach(List::size);
    } catch (Exception e) {
      // The container's parser refused the body (a checked ServletException, thrown through
      // Javalin's
      // Kotlin); its words name its own classes.
      if (overBound(e)) {
        throw tooLarge();
      }
      throw new OpenAiException(
          400, "The multipart/form-data body is malformed.", null, "invalid_multipart");
    }
    for (String name : fields.keySet()) {
      // The form's fields include the file parts' names, which the loop below checks.
      if (!name.equals("purpose") && !uploads.containsKey(name)) {
        throw OpenAiException.unknownParameter(name);
      }
    }
    for (String name : uploads.keySet()) {
      if (!name.equals("file")) {
        throw OpenAiException.unknownParameter(name);
      }
    }
    List<String> purposes = fields.get("purpose");
    if (purposes == null || purposes.isEmpty()) {
      throw new OpenAiException(
          400, "Missing required parameter: 'purpose'.", "purpose", "missing_required_parameter");
    }
    String purpose = purposes.get(0);
    if (purposes.size() > 1 || !PURPOSES.contains(purpose)) {
      throw new OpenAiException(
          400,
          "'purpose' must be one of " + PURPOSES.stream().sorted().toList() + ".",
          "purpose",
          "invalid_value");
    }
    List<UploadedFile> files = uploads.get("file");
    if (files == null || files.isEmpty()) {
      throw new OpenAiException(
          400, "Missing required parameter: 'file'.", "file", "missing_required_parameter");
    }
    if (files.size() > 1) {
      throw new OpenAiException(400, "Send one 'file' per upload.", "file", "invalid_value");
    }
    UploadedFile part = files.get(0);
    String filename = part.filename();
    if (filename == null
        || filename.isBlank()
        || filename.length() > MAX_FILENAME_CHARS
        || filename.chars().anyMatch(Character::isISOControl)) {
      throw new OpenAiException(
          400,
          "The file needs a name of 1 to "
              + MAX_FILENAME_CHARS
              + " characters without control characters.",
          "file",
          "invalid_value");
    }
    if (part.size() > backend.maxUploadBytes()) {
      throw tooLarge();
    }
    // Decided once the body is read, as the contract's own uploads do (validation, then grants):
    // a refusal sent while the client is still sending its file reaches it as a broken connection,
    // not as the 403.
    if (access.grants().stream().map(Grant::scopes).noneMatch(s -> s.contains(Scope.INDEX))) {
      throw AccessPolicy.forbidden();
    }
    FileRecord stored;
    try (InputStream in = part.content()) {
      stored =
          backend
              .files()
              .store(
                  Ids.newFile(), filename, purpose, access.subject(), in, backend.maxUploadBytes());
    } catch (FileArea.TooLarge e) {
      throw tooLarge();
    }
    Replies.json(ctx, 200, render(stored), backend.mapper());
  }

  void list(Context ctx, Access access) {
    Map<String, String> query = Params.query(ctx, Set.of("purpose", "limit", "order", "after"));
    Lists.Cursor cursor = Lists.Cursor.of(query);
    String purpose = query.get("purpose");
    List<FileRecord> mine =
        backend.files().list().stream()
            .filter(
                f ->
                    f.subject().equals(access.subject())
                        && (purpose == null || purpose.equals(f.purpose())))
            .sorted(Comparator.comparingLong(FileRecord::createdAt).thenComparing(FileRecord::id))
            .toList();
    Replies.json(
        ctx,
        200,
        Lists.page(mine, FileRecord::id, this::render, cursor, backend.mapper()),
        backend.mapper());
  }

  void retrieve(Context ctx, Access access) {
    Params.query(ctx, Set.of());
    Replies.json(
        ctx, 200, render(require(backend, access, ctx.pathParam("file"), null)), backend.mapper());
  }

  void delete(Context ctx, Access access) {
    Params.query(ctx, Set.of());
    var file = require(backend, access, ctx.pathParam("file"), null);
    backend.files().delete(file.id());
    ObjectNode out =
        backend
            .mapper()
            .createObjectNode()
            .put("id", file.id())
            .put("object", "file")
            .put("deleted", true);
    Replies.json(ctx, 200, out, backend.mapper());
  }

  void content(Context ctx, Access access) throws IOException {
    Params.query(ctx, Set.of());
    var file = require(backend, access, ctx.pathParam("file"), null);
    byte[] bytes = Files.readAllBytes(backend.files().content(file));
    ctx.status(200).contentType("application/octet-stream").result(bytes);
  }

  private ObjectNode render(FileRecord f) {
    return backend
        .mapper()
        .createObjectNode()
        .put("id", f.id())
        .put("object", "file")
        .put("bytes", f.bytes())
        .put("created_at", f.createdAt())
        .put("filename", f.filename())
        .put("purpose", f.purpose())
        .put("status", "processed");
  }

  /**
   * Whether the parser stopped at one of the bounds it was given: Jetty says so only in words, in
   * the cause of its 400 ("max file size exceeded", "max length exceeded").
   */
  private static boolean overBound(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = t.getMessage();
      if (m != null && m.toLowerCase(Locale.ROOT).contains("exceeded")) {
        return true;
      }
    }
    return false;
  }

  private QuarryException tooLarge() {
    return new QuarryException(
        ErrorCode.DOCUMENT_TOO_LARGE,
        "the file is larger than the server's maxDocumentBytes ("
            + backend.maxUploadBytes()
            + " bytes)");
  }
}
