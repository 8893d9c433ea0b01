package dev.quarry.api.wire;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.corpora.ingest.IngestRequest;
import dev.quarry.corpora.ingest.OcrChoice;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.QuarryException;
import java.util.List;
import java.util.Set;

/**
 * The {@code request} part of an ingest upload: {@code corpus}, {@code source}, and optionally
 * {@code corpusId}, {@code title}, {@code metadata}, {@code mediaType}, {@code expectedRevision}
 * and {@code ocr} ({@code auto} or {@code off}) and {@code ocrLanguages} (Tesseract language data
 * names), read as strictly as any request body.
 *
 * @param corpus the corpus the document goes into
 * @param request where the document goes and what is recorded with it
 */
public record IngestRequests(String corpus, IngestRequest request) {
  private static final Set<String> FIELDS =
      Set.of(
          "corpus",
          "corpusId",
          "source",
          "title",
          "metadata",
          "mediaType",
          "expectedRevision",
          "ocr",
          "ocrLanguages");

  /** Reads the request part of an upload without a file name. */
  public static IngestRequests read(WireObject body, Limits limits) {
    return read(body, limits, null);
  }

  /**
   * Reads the request part of an upload whose file part was named {@code fileName} (or null), a
   * hint for detection.
   */
  public static IngestRequests read(WireObject body, Limits limits, String fileName) {
    body.allowOnly(FIELDS);
    String corpus = WireValues.corpus(body);
    String corpusId = WireValues.corpusId(body);
    String source = WireValues.newSource(body, "source");
    String title = body.optionalString("title", limits.getInt(Limit.MAX_TITLE_CHARS));
    String mediaType = WireValues.mediaType(body);
    var metadata = WireValues.metadata(body, "metadata", limits.getInt(Limit.MAX_METADATA_ENTRIES));
    Long expected = body.optionalLong("expectedRevision", 0, Long.MAX_VALUE);
    OcrChoice ocr = WireValues.ocr(body);
    List<String> ocrLanguages = WireValues.ocrLanguages(body);
    return new IngestRequests(
        corpus,
        new IngestRequest(
            source, title, metadata, mediaType, expected, corpusId, fileName, ocr, ocrLanguages));
  }

  /**
   * Refuses {@code ocr: auto} (at {@code field}, such as {@code ocr} or {@code files[2].ocr}) on a
   * server that does not advertise the feature {@code ocr}: a validation error, checked right after
   * the request is read and before grants, for single ingests and jobs alike.
   */
  public static void requireOcrOffered(OcrChoice ocr, String field, boolean offered) {
    if (ocr == OcrChoice.AUTO && !offered) {
      throw QuarryException.invalid(
          field,
          "this server does not offer OCR (the feature 'ocr' is not advertised);"
              + " leave "
              + field
              + " out or set it to 'off'");
    }
  }

  /**
   * The idempotency of an upload sent with {@code key}: its fingerprint is the canonical JSON of
   * the request part together with the SHA-256 of the file's bytes and the file part's name (JSON
   * null without one), so the same request with other bytes, or under another name (a detection
   * hint that can change what is extracted), is another request. Keys recorded before the name was
   * part of the fingerprint carry its earlier form, without {@code fileName}; that form is accepted
   * too, so retrying such a request replays it (those records cannot tell names apart, and expire
   * with the idempotency retention). The earlier form can never match a key recorded now: those
   * always carry {@code fileName}.
   */
  public static Mutation.Idempotency idempotency(
      ObjectMapper mapper, String key, ObjectNode request, String fileSha256, String fileName) {
    ObjectNode upload = WireJson.object();
    upload.set("request", request);
    upload.put("fileSha256", fileSha256);
    String earlier = CanonicalJson.fingerprint(mapper, "ingest", upload);
    if (fileName == null) {
      upload.putNull("fileName");
    } else {
      upload.put("fileName", fileName);
    }
    return new Mutation.Idempotency(
        key, CanonicalJson.fingerprint(mapper, "ingest", upload), earlier);
  }

  /**
   * The JSON object of an upload's {@code request} part (an ingest's or a job's), parsed as
   * strictly as any body; its errors name the part, not the whole multipart body.
   */
  public static ObjectNode parseRequestPart(StrictJson json, byte[] part) {
    try {
      return json.parseObject(part);
    } catch (QuarryException e) {
      throw StrictJson.BODY_FIELD.equals(e.field())
          ? QuarryException.invalid("request", e.getMessage())
          : e;
    }
  }
}
