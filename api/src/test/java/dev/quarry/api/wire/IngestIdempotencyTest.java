package dev.quarry.api.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.QuarryException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The idempotency of an ingest upload: the file part's name is part of the request, and a key
 * recorded before it was (with the fingerprint's earlier form) still replays the same request.
 */
class IngestIdempotencyTest {
  final StrictJson json = new StrictJson();
  static final String SHA = "ab".repeat(32);

  ObjectNode request() {
    return json.parseObject(
        "{\"corpus\": \"docs\", \"source\": \"a\"}".getBytes(StandardCharsets.UTF_8));
  }

  Mutation.Idempotency of(String fileName) {
    return IngestRequests.idempotency(json.mapper(), "k", request(), SHA, fileName);
  }

  /** The fingerprint the service recorded before the name was part of it. */
  String earlierForm() {
    ObjectNode upload = WireJson.object();
    upload.set("request", request());
    upload.put("fileSha256", SHA);
    return CanonicalJson.fingerprint(json.mapper(), "ingest", upload);
  }

  @Test
  void anotherFileName_isAnotherRequest() {
    Mutation.Idempotency md = of("notes.md");
    assertNotEquals(md.fingerprint(), of("notes.xml").fingerprint());
    QuarryException e =
        assertThrows(
            QuarryException.class, () -> of("notes.xml").requireSameRequest(md.fingerprint()));
    assertEquals(ErrorCode.IDEMPOTENCY_KEY_REUSED, e.code());
  }

  @Test
  void noFileName_differsFromAnyName() {
    assertNotEquals(of(null).fingerprint(), of("notes.md").fingerprint());
    assertThrows(
        QuarryException.class, () -> of("notes.md").requireSameRequest(of(null).fingerprint()));
    assertThrows(
        QuarryException.class, () -> of(null).requireSameRequest(of("notes.md").fingerprint()));
  }

  @Test
  void theSameRequest_matchesItsOwnFingerprint() {
    of("notes.md").requireSameRequest(of("notes.md").fingerprint());
    of(null).requireSameRequest(of(null).fingerprint());
  }

  @Test
  void aKeyRecordedInTheEarlierForm_stillMatchesTheSameRequest() {
    of("notes.md").requireSameRequest(earlierForm());
    of(null).requireSameRequest(earlierForm());
  }

  @Test
  void theEarlierForm_neverEqualsAFingerprintRecordedNow() {
    assertNotEquals(earlierForm(), of(null).fingerprint());
    assertNotEquals(earlierForm(), of("notes.md").fingerprint());
  }
}
