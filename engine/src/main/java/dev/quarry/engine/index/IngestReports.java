package dev.quarry.engine.index;

import dev.quarry.engine.IngestReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Stores ingest reports as JSON maps and reads them back. */
public final class IngestReports {
  private IngestReports() {}

  public static Map<String, Object> toMap(IngestReport r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("extractor", r.extractor());
    if (r.mediaType() != null) {
      m.put("mediaType", r.mediaType());
    }
    if (r.pages() != null) {
      m.put("pages", r.pages());
    }
    m.put("characters", r.characters());
    List<Map<String, Object>> warnings = new ArrayList<>();
    for (IngestReport.Warning w : r.warnings()) {
      Map<String, Object> wm = new LinkedHashMap<>();
      wm.put("code", w.code());
      wm.put("message", w.message());
      if (w.pages() != null) {
        wm.put("pages", w.pages());
      }
      warnings.add(wm);
    }
    m.put("warnings", warnings);
    if (r.markdownHeadings()) {
      // Written only when set, like mediaType: reports stored before either existed read back the
      // same.
      m.put("markdownHeadings", true);
    }
    if (r.encoding() != null) {
      m.put("encoding", r.encoding());
    }
    if (r.ocr() != null) {
      Map<String, Object> ocr = new LinkedHashMap<>();
      ocr.put("pagesRecognized", r.ocr().pagesRecognized());
      if (r.ocr().meanConfidence() != null) {
        ocr.put("meanConfidence", r.ocr().meanConfidence());
      }
      ocr.put("words", r.ocr().words());
      m.put("ocr", ocr);
    }
    return m;
  }

  @SuppressWarnings("unchecked")
  public static IngestReport fromMap(Map<String, Object> m) {
    List<IngestReport.Warning> warnings = new ArrayList<>();
    for (Map<String, Object> wm :
        (List<Map<String, Object>>) m.getOrDefault("warnings", List.of())) {
      List<Integer> pages = null;
      if (wm.get("pages") instanceof List<?> l) {
        pages = new ArrayList<>();
        for (Object o : l) {
          pages.add(((Number) o).intValue());
        }
      }
      warnings.add(
          new IngestReport.Warning((String) wm.get("code"), (String) wm.get("message"), pages));
    }
    Integer pages = m.get("pages") instanceof Number n ? n.intValue() : null;
    IngestReport.Ocr ocr = null;
    if (m.get("ocr") instanceof Map<?, ?> om) {
      ocr =
          new IngestReport.Ocr(
              ((Number) om.get("pagesRecognized")).intValue(),
              om.get("meanConfidence") instanceof Number c ? c.doubleValue() : null,
              ((Number) om.get("words")).intValue());
    }
    return new IngestReport(
        (String) m.get("extractor"),
        (String) m.get("mediaType"),
        pages,
        ((Number) m.get("characters")).longValue(),
        warnings,
        Boolean.TRUE.equals(m.get("markdownHeadings")),
        (String) m.get("encoding"),
        ocr);
  }
}
