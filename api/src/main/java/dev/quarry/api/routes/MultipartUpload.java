package dev.quarry.api.routes;

import dev.quarry.api.wire.StrictUtf8;
import dev.quarry.corpora.jobs.IngestJobs;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Sha256;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Reads an ingest upload, {@code multipart/form-data} with a {@code request} part (JSON, kept in
 * memory, at most {@code maxRequestBytes}) and a {@code file} part (streamed to a temporary file
 * while its SHA-256 is computed). Limits are checked while reading, so an oversized upload costs at
 * most one buffer of memory and {@code maxDocumentBytes} of disk before it is refused: the file
 * part past {@code maxDocumentBytes}, or a declared Content-Length past both limits together (plus
 * {@link #OVERHEAD_BYTES}), is 413 DOCUMENT_TOO_LARGE; the request part past {@code
 * maxRequestBytes}, or a body without a declared length that streams past both together, is 413
 * REQUEST_TOO_LARGE. Anything else that is not such an upload is 400 INVALID_REQUEST (or 415 for
 * another content type).
 *
 * <p>Not thread-safe; one per request. The temporary file is deleted by {@link Upload#close()}, and
 * at once when reading fails.
 */
final class MultipartUpload {
  /** Boundaries, part headers and line breaks: far more than a well-formed upload needs. */
  static final long OVERHEAD_BYTES = 64 * 1024;

  /** The headers of one part; a browser sends a few hundred bytes. */
  static final int MAX_PART_HEADER_BYTES = 8 * 1024;

  /** RFC 2046: a boundary has 1 to 70 characters. */
  static final int MAX_BOUNDARY_CHARS = 70;

  static final String REQUEST_PART = "request";
  static final String FILE_PART = "file";
  private static final int BUFFER_BYTES = 64 * 1024;
  private static final int CRLF = 0x0d0a;
  private static final int CRLF_CRLF = 0x0d0a0d0a;

  private final InputStream in;
  private final byte[] delimiter;
  private final byte[] buffer;
  private final long maxRequestBytes;
  private final long maxDocumentBytes;
  private long maxTotalBytes;
  private int position;
  private int limit;
  private long consumed;
  private boolean eof;

  private MultipartUpload(
      InputStream in, String boundary, long maxRequestBytes, long maxDocumentBytes) {
    this.in = in;
    this.delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
    this.buffer = new byte[BUFFER_BYTES + delimiter.length];
    this.maxRequestBytes = maxRequestBytes;
    this.maxDocumentBytes = maxDocumentBytes;
    this.maxTotalBytes = maxRequestBytes + maxDocumentBytes + OVERHEAD_BYTES;
  }

  /**
   * What was uploaded: the request part's bytes and the file part on disk, with the name the client
   * gave the file (its {@code filename} parameter, or null). Close it to delete the file.
   */
  record Upload(byte[] request, Path file, long fileBytes, String fileSha256, String fileName)
      implements AutoCloseable {
    @Override
    public void close() {
      deleteQuietly(file);
    }
  }

  /**
   * Reads the whole upload from {@code in}.
   *
   * @param contentType the request's Content-Type header (must be multipart/form-data with a
   *     boundary)
   * @param declaredLength the Content-Length, or -1 when the body is chunked
   * @param tempDir where the file part is written, or null for the system's temporary folder
   */
  static Upload read(
      InputStream in,
      String contentType,
      long declaredLength,
      long maxRequestBytes,
      long maxDocumentBytes,
      Path tempDir)
      throws IOException {
    MultipartUpload reader =
        new MultipartUpload(in, boundary(contentType), maxRequestBytes, maxDocumentBytes);
    if (declaredLength > reader.maxTotalBytes) {
      BodyReader.drop(in, 0, declaredLength, reader.maxTotalBytes);
      throw new QuarryException(
          ErrorCode.DOCUMENT_TOO_LARGE,
          "the upload has "
              + declaredLength
              + " bytes; a document may have at most "
              + maxDocumentBytes
              + " bytes (maxDocumentBytes)");
    }
    return reader.readParts(tempDir);
  }

  private Upload readParts(Path tempDir) throws IOException {
    byte[] request = null;
    Path file = null;
    long fileBytes = 0;
    String sha256 = null;
    String fileName = null;
    try {
      skipPreamble();
      boolean more = afterDelimiter();
      while (more) {
        PartHeaders headers = readHeaders();
        if (REQUEST_PART.equals(headers.name())) {
          if (request != null) {
            throw invalid(REQUEST_PART, "the upload has more than one 'request' part");
          }
          request = readRequestPart();
        } else if (FILE_PART.equals(headers.name())) {
          if (file != null) {
            throw invalid(
                FILE_PART,
                "the upload has more than one 'file' part; ingest one document at a time");
          }
          fileName = headers.fileName();
          file =
              tempDir == null
                  ? Files.createTempFile("quarry-upload-", ".part")
                  : Files.createTempFile(tempDir, "quarry-upload-", ".part");
          StoredPart stored =
              streamFilePart(
                  file,
                  maxDocumentBytes,
                  () ->
                      new QuarryException(
                          ErrorCode.DOCUMENT_TOO_LARGE,
                          "the document is larger than "
                              + maxDocumentBytes
                              + " bytes (maxDocumentBytes)"));
          fileBytes = stored.bytes();
          sha256 = stored.sha256();
        } else {
          throw invalid(
              headers.name(),
              "unknown part '"
                  + headers.name()
                  + "'; an upload has a 'request' part (JSON) and a 'file' part");
        }
        more = afterDelimiter();
      }
      if (request == null) {
        throw invalid(
            REQUEST_PART, "the upload has no 'request' part (JSON with corpus and source)");
      }
      if (file == null) {
        throw invalid(FILE_PART, "the upload has no 'file' part with the document's bytes");
      }
      return new Upload(request, file, fileBytes, sha256, fileName);
    } catch (IOException | RuntimeException | Error e) {
      deleteQuietly(file);
      throw e;
    }
  }

  /**
   * What a job upload holds: the upload its files went to, and each file as stored, in part order.
   */
  record JobParts(IngestJobs.Upload upload, List<IngestJobs.StoredFile> stored) {}

  /**
   * Reads an ingestion-job upload: a {@code request} part first (JSON, at most {@code
   * maxRequestBytes}), handed to {@code begin}, which checks it and returns the upload the file
   * parts go to; then one {@code file} part per entry of the request's {@code files}, each streamed
   * to {@link IngestJobs.Upload#part} with its SHA-256, at most {@code maxDocumentBytes} each (413
   * DOCUMENT_TOO_LARGE) and {@link IngestJobs.Upload#maxBytes} together ({@link
   * IngestJobs.Upload#overBudget}). Nothing of the files is read before the request part passed
   * {@code begin}. When reading fails, the upload is closed (its parts deleted) before the failure
   * is rethrown; otherwise the caller commits or closes it.
   */
  static JobParts readJob(
      InputStream in,
      String contentType,
      long declaredLength,
      long maxRequestBytes,
      long maxDocumentBytes,
      Function<byte[], IngestJobs.Upload> begin)
      throws IOException {
    MultipartUpload reader =
        new MultipartUpload(in, boundary(contentType), maxRequestBytes, maxDocumentBytes);
    reader.maxTotalBytes = maxRequestBytes + OVERHEAD_BYTES;
    return reader.readJobParts(declaredLength, begin);
  }

  private JobParts readJobParts(long declaredLength, Function<byte[], IngestJobs.Upload> begin)
      throws IOException {
    skipPreamble();
    if (!afterDelimiter() || !REQUEST_PART.equals(readHeaders().name())) {
      throw invalid(
          REQUEST_PART,
          "a job upload starts with its 'request' part (JSON), before the file parts");
    }
    IngestJobs.Upload upload = begin.apply(readRequestPart());
    try {
      int files = upload.files().size();
      long budget = Math.min(upload.maxBytes(), files * maxDocumentBytes);
      maxTotalBytes =
          maxRequestBytes + budget + OVERHEAD_BYTES + (long) files * MAX_PART_HEADER_BYTES;
      if (declaredLength > maxTotalBytes) {
        BodyReader.drop(in, consumed, declaredLength, maxTotalBytes);
        throw upload.maxBytes() < files * maxDocumentBytes
            ? upload.overBudget()
            : new QuarryException(
                ErrorCode.DOCUMENT_TOO_LARGE,
                "the upload has "
                    + declaredLength
                    + " bytes; each of its "
                    + files
                    + " documents may have at most "
                    + maxDocumentBytes
                    + " bytes (maxDocumentBytes)");
      }
      List<IngestJobs.StoredFile> stored = new ArrayList<>(files);
      long used = 0;
      boolean more = afterDelimiter();
      while (more) {
        PartHeaders part = readHeaders();
        String name = part.name();
        if (!FILE_PART.equals(name)) {
          throw invalid(
              name,
              "unexpected part '"
                  + name
                  + "'; after the 'request' part come the 'file' parts, "
                  + "one per entry of files");
        }
        int i = stored.size();
        if (i == files) {
          throw invalid(
              "files", "the upload has more 'file' parts than files lists (" + files + ")");
        }
        long room = upload.maxBytes() - used;
        boolean jobIsTheBound = room < maxDocumentBytes;
        StoredPart file =
            streamFilePart(
                upload.part(i),
                Math.min(room, maxDocumentBytes),
                () ->
                    jobIsTheBound
                        ? upload.overBudget()
                        : new QuarryException(
                            ErrorCode.DOCUMENT_TOO_LARGE,
                            "file "
                                + i
                                + " ("
                                + upload.files().get(i).source()
                                + ") is larger than "
                                + maxDocumentBytes
                                + " bytes (maxDocumentBytes)"));
        used += file.bytes();
        stored.add(new IngestJobs.StoredFile(file.sha256(), file.bytes(), part.fileName()));
        more = afterDelimiter();
      }
      if (stored.size() != files) {
        throw invalid(
            "files",
            "files lists "
                + files
                + " files but the upload has "
                + stored.size()
                + " 'file' parts");
      }
      return new JobParts(upload, stored);
    } catch (IOException | RuntimeException | Error e) {
      upload.close();
      throw e;
    }
  }

  /**
   * The {@code request} part's bytes (JSON, kept in memory); 413 REQUEST_TOO_LARGE past {@code
   * maxRequestBytes}.
   */
  private byte[] readRequestPart() throws IOException {
    ByteArrayOutputStream json = new ByteArrayOutputStream();
    copyUntilDelimiter(
        json,
        maxRequestBytes,
        ErrorCode.REQUEST_TOO_LARGE,
        "the request part is larger than " + maxRequestBytes + " bytes (maxRequestBytes)");
    return json.toByteArray();
  }

  /** A file part as written to disk: its size and the SHA-256 of its bytes. */
  private record StoredPart(long bytes, String sha256) {}

  /**
   * Streams a file part to {@code file} while hashing it; fails with {@code tooLarge}'s exception
   * past {@code maxBytes}.
   */
  private StoredPart streamFilePart(Path file, long maxBytes, Supplier<QuarryException> tooLarge)
      throws IOException {
    MessageDigest sha = Sha256.newDigest();
    long bytes;
    try (OutputStream out = new DigestOutputStream(Files.newOutputStream(file), sha)) {
      bytes = copyUntilDelimiter(out, maxBytes, tooLarge);
    }
    return new StoredPart(bytes, Sha256.hex(sha));
  }

  /** The boundary parameter of a multipart/form-data Content-Type; 415 for any other type. */
  static String boundary(String contentType) {
    String[] parts = contentType == null ? new String[] {""} : contentType.split(";");
    if (!parts[0].strip().toLowerCase(Locale.ROOT).equals("multipart/form-data")) {
      throw new QuarryException(
          ErrorCode.UNSUPPORTED_MEDIA_TYPE,
          "ingest takes multipart/form-data with a 'request' part (JSON) and a 'file' part");
    }
    for (int i = 1; i < parts.length; i++) {
      String param = parts[i].strip();
      if (param.toLowerCase(Locale.ROOT).startsWith("boundary=")) {
        String boundary = param.substring("boundary=".length());
        if (boundary.length() >= 2 && boundary.startsWith("\"") && boundary.endsWith("\"")) {
          boundary = boundary.substring(1, boundary.length() - 1);
        }
        if (boundary.isEmpty() || boundary.length() > MAX_BOUNDARY_CHARS) {
          break;
        }
        return boundary;
      }
    }
    throw invalid(
        "$",
        "the multipart/form-data Content-Type needs a boundary of 1 to "
            + MAX_BOUNDARY_CHARS
            + " characters");
  }

  /** Skips anything before the first boundary line (the delimiter without its leading CRLF). */
  private void skipPreamble() throws IOException {
    // Pretend a line break came first, so the first boundary matches the delimiter like all others.
    byte[] first = new byte[] {'\r', '\n'};
    System.arraycopy(first, 0, buffer, 0, 2);
    limit = 2;
    copyUntilDelimiter(
        OutputStream.nullOutputStream(),
        OVERHEAD_BYTES,
        ErrorCode.INVALID_REQUEST,
        "no multipart boundary found at the start of the body");
  }

  /**
   * After a delimiter: {@code --} ends the body (false), a line break starts another part (true).
   */
  private boolean afterDelimiter() throws IOException {
    int a = next();
    int b = next();
    if (a == '-' && b == '-') {
      return false;
    }
    // Transport padding (spaces, tabs) may follow a boundary before its line break.
    while (a == ' ' || a == '\t') {
      a = b;
      b = next();
    }
    if (a == '\r' && b == '\n') {
      return true;
    }
    throw invalid("$", "malformed multipart body after a boundary");
  }

  /** A part's form field name and, for a file, the name the client gave it (or null). */
  private record PartHeaders(String name, String fileName) {}

  private PartHeaders readHeaders() throws IOException {
    ByteArrayOutputStream raw = new ByteArrayOutputStream();
    int lastFour = 0;
    while (true) {
      int c = next();
      if (c < 0) {
        throw invalid("$", "the multipart body ends inside a part's headers");
      }
      raw.write(c);
      if (raw.size() > MAX_PART_HEADER_BYTES) {
        throw invalid("$", "a part's headers are longer than " + MAX_PART_HEADER_BYTES + " bytes");
      }
      lastFour = (lastFour << 8) | c;
      boolean noHeaders = raw.size() == 2 && (lastFour & 0xffff) == CRLF;
      if (lastFour == CRLF_CRLF || noHeaders) {
        break;
      }
    }
    String name = null;
    String fileName = null;
    for (String line : StrictUtf8.decode(raw.toByteArray(), "$").split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).strip().equalsIgnoreCase("Content-Disposition")) {
        name = dispositionParameter(line.substring(colon + 1), "name");
        fileName = dispositionParameter(line.substring(colon + 1), "filename");
      }
    }
    if (name == null) {
      throw invalid("$", "a part has no Content-Disposition: form-data; name=\"...\"");
    }
    return new PartHeaders(name, fileName == null || fileName.isBlank() ? null : fileName);
  }

  private static String dispositionParameter(String value, String parameter) {
    String prefix = parameter + "=";
    for (String param : value.split(";")) {
      String p = param.strip();
      if (p.toLowerCase(Locale.ROOT).startsWith(prefix)) {
        String name = p.substring(prefix.length()).strip();
        if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
          name = name.substring(1, name.length() - 1);
        }
        return name;
      }
    }
    return null;
  }

  /**
   * Copies bytes up to the next delimiter to {@code out}; fails with {@code tooLarge} past {@code
   * maxBytes}.
   */
  private long copyUntilDelimiter(
      OutputStream out, long maxBytes, ErrorCode tooLarge, String message) throws IOException {
    return copyUntilDelimiter(out, maxBytes, () -> new QuarryException(tooLarge, message));
  }

  /**
   * Copies bytes up to the next delimiter to {@code out}; fails with {@code tooLarge}'s exception
   * past {@code maxBytes}.
   */
  private long copyUntilDelimiter(
      OutputStream out, long maxBytes, Supplier<QuarryException> tooLarge) throws IOException {
    long copied = 0;
    while (true) {
      int found = indexOfDelimiter();
      int end = found >= 0 ? found : Math.max(position, limit - (delimiter.length - 1));
      if (eof && found < 0) {
        end = limit;
      }
      int n = end - position;
      copied += n;
      if (copied > maxBytes) {
        // A part over its bound in a body within the whole's: the body ends within the bound
        // BodyReader.drop waits for.
        BodyReader.drop(in, consumed, -1, maxTotalBytes);
        throw tooLarge.get();
      }
      out.write(buffer, position, n);
      position = end;
      if (found >= 0) {
        position += delimiter.length;
        return copied;
      }
      if (eof) {
        throw invalid("$", "the multipart body ends before its closing boundary");
      }
      fill();
    }
  }

  private int indexOfDelimiter() {
    outer:
    for (int i = position; i <= limit - delimiter.length; i++) {
      for (int j = 0; j < delimiter.length; j++) {
        if (buffer[i + j] != delimiter[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /** Moves the unread bytes to the front of the buffer and reads more after them. */
  private void fill() throws IOException {
    int unread = limit - position;
    System.arraycopy(buffer, position, buffer, 0, unread);
    position = 0;
    limit = unread;
    int n = ClientBody.read(in, buffer, limit, buffer.length - limit);
    if (n < 0) {
      eof = true;
      return;
    }
    consumed += n;
    if (consumed > maxTotalBytes) {
      // More than allowed was sent, so no declared length (if any) bounded it below the limit.
      BodyReader.drop(in, consumed, -1, maxTotalBytes);
      throw new QuarryException(
          ErrorCode.REQUEST_TOO_LARGE,
          "the upload is larger than maxDocumentBytes plus "
              + "maxRequestBytes ("
              + maxTotalBytes
              + " bytes with the multipart framing)");
    }
    limit += n;
  }

  private int next() throws IOException {
    if (position == limit) {
      if (eof) {
        return -1;
      }
      fill();
      if (position == limit) {
        return -1;
      }
    }
    return buffer[position++] & 0xff;
  }

  private static QuarryException invalid(String field, String message) {
    return QuarryException.invalid(field, message);
  }

  private static void deleteQuietly(Path file) {
    if (file == null) {
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      file.toFile().deleteOnExit();
    }
  }
}
