package dev.quarry.engine.index;

import dev.quarry.engine.MutationResult;
import dev.quarry.engine.Receipt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Stores a {@link MutationResult} in an idempotency record, and reads it back for replay. */
public final class ResultCodec {
  private ResultCodec() {}

  public static String write(MutationResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("corpus", r.corpus());
    m.put("corpusId", r.corpusId());
    m.put("revision", r.revision());
    List<Map<String, Object>> receipts = new ArrayList<>();
    for (Receipt rc : r.receipts()) {
      Map<String, Object> rm = new LinkedHashMap<>();
      rm.put("source", rc.source());
      rm.put("revision", rc.revision());
      rm.put("sourceRevision", rc.sourceRevision());
      rm.put("status", rc.status().name());
      if (rc.contentSha256() != null) {
        rm.put("contentSha256", rc.contentSha256());
      }
      rm.put("chunks", rc.chunks());
      if (rc.ingest() != null) {
        rm.put("ingest", IngestReports.toMap(rc.ingest()));
      }
      if (rc.language() != null) {
        rm.put("language", rc.language());
      }
      receipts.add(rm);
    }
    m.put("receipts", receipts);
    return Json.write(m);
  }

  @SuppressWarnings("unchecked")
  public static MutationResult read(String json) {
    Map<String, Object> m = Json.readMap(json);
    String corpus = (String) m.get("corpus");
    String corpusId = (String) m.get("corpusId");
    List<Receipt> receipts = new ArrayList<>();
    for (Map<String, Object> rm : (List<Map<String, Object>>) m.get("receipts")) {
      Object ingest = rm.get("ingest");
      receipts.add(
          new Receipt(
              corpus,
              corpusId,
              (String) rm.get("source"),
              ((Number) rm.get("revision")).longValue(),
              ((Number) rm.get("sourceRevision")).longValue(),
              Receipt.Status.valueOf((String) rm.get("status")),
              (String) rm.get("contentSha256"),
              ((Number) rm.get("chunks")).intValue(),
              ingest == null ? null : IngestReports.fromMap((Map<String, Object>) ingest),
              (String) rm.get("language")));
    }
    return new MutationResult(
        corpus, corpusId, ((Number) m.get("revision")).longValue(), receipts, false);
  }
}
