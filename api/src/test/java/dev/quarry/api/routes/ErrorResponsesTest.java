package dev.quarry.api.routes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Only text written for clients reaches one; the rest becomes fixed text with a reference. */
class ErrorResponsesTest {
  @Test
  void aMessageWrittenForClients_isAnsweredAsItIs() {
    QuarryException e = QuarryException.invalid("topK", "topK must be between 1 and 100; got 500");
    assertEquals(e, ErrorResponses.of(e));
    QuarryException withCause =
        new QuarryException(
            ErrorCode.IDLE_TIMEOUT,
            "the request body arrived too slowly",
            new IOException("Idle timeout expired: 30000/30000 ms"));
    assertEquals(withCause, ErrorResponses.of(withCause));
  }

  @Test
  void aMessageQuotingItsCause_isFixedText_keepingCodeAndField() {
    IOException cause = new NoSuchFileException("/srv/quarry/backups/nightly");
    for (QuarryException e :
        List.of(
            new QuarryException(
                ErrorCode.UNAVAILABLE, "backup 'n' failed: " + cause.getMessage(), cause),
            new QuarryException(
                ErrorCode.EXTRACTION_FAILED, "cannot read it: " + cause.getMessage(), cause),
            new QuarryException(
                ErrorCode.INVALID_REQUEST, "bad: " + cause.getMessage(), "name", false, cause))) {
      QuarryException answered = ErrorResponses.of(e);
      assertEquals(e.code(), answered.code());
      assertEquals(e.field(), answered.field());
      assertFalse(answered.getMessage().contains("/srv"), answered.getMessage());
      assertTrue(answered.getMessage().contains("(reference "), answered.getMessage());
    }
  }

  @Test
  void aMessageNamingJavaInsides_isFixedText() {
    for (String message :
        List.of(
            "Document nesting depth (33) exceeds the maximum allowed (32, from `StreamReadConstraints.getMaxNestingDepth()`)",
            "not allowed as per `DeserializationFeature.FAIL_ON_TRAILING_TOKENS`",
            "bound as `com.fasterxml.jackson.databind.JsonNode`",
            "failed: java.util.concurrent.TimeoutException: Idle timeout expired",
            "TIKA-198: Illegal IOException from org.apache.tika.parser.odf.OpenDocumentParser@edd25d2",
            "at Foo.java:12")) {
      QuarryException answered =
          ErrorResponses.of(new QuarryException(ErrorCode.INVALID_REQUEST, message));
      assertTrue(
          answered.getMessage().startsWith("the request is not valid (reference "),
          answered.getMessage());
    }
    for (String written :
        List.of(
            "no source 'guide.md' in corpus 'handbook'",
            "source 'src/main/java/org.acme.Main.java' does not exist",
            "source 'IOException.md' does not exist",
            "topK must be an integer; got a string",
            "filter.year.gte must be a number",
            "send Authorization: Bearer <token>")) {
      assertEquals(
          written,
          ErrorResponses.of(new QuarryException(ErrorCode.INVALID_REQUEST, written)).getMessage());
    }
  }
}
