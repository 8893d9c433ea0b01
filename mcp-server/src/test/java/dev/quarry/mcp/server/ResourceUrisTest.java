package dev.quarry.mcp.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.testing.TestSeed;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Resource URIs name exactly one corpus, source and revision, and read back to them. */
@ExtendWith(TestSeed.class)
class ResourceUrisTest {
  /** Characters source ids are made of in the round trip, the URI's own delimiters among them. */
  private static final String ALPHABET = "abcXYZ019/ -_.+%?#&=:@!$'()*,;~éß中🙂";

  @Test
  void sourceUri_readsBackToTheSameSourceAndRevision(Random random) {
    for (int i = 0; i < 500; i++) {
      StringBuilder source = new StringBuilder("s");
      int length = random.nextInt(40);
      for (int j = 0; j < length; j++) {
        source.appendCodePoint(
            ALPHABET.codePoints().toArray()[random.nextInt((int) ALPHABET.codePoints().count())]);
      }
      String id = source.toString().strip();
      Long revision = random.nextBoolean() ? null : (long) random.nextInt(1_000_000);
      String uri = ResourceUris.source("c1", id, revision);
      ResourceUris.Parsed parsed = ResourceUris.parse(uri);
      String replay = uri;
      assertEquals("c1", parsed.corpus(), replay);
      assertEquals(id, parsed.source(), replay);
      assertEquals(revision, parsed.revision(), replay);
      assertEquals(
          1, uri.substring("quarry://".length()).chars().filter(c -> c == '/').count(), replay);
    }
  }

  @Test
  void corpusUri_hasNoSource() {
    ResourceUris.Parsed parsed = ResourceUris.parse("quarry://handbook");
    assertEquals("handbook", parsed.corpus());
    assertNull(parsed.source());
  }

  @Test
  void malformedUris_areInvalidRequestsOnTheUri() {
    for (String uri :
        new String[] {
          "http://c1/a",
          "quarry://c1/a?rev=1",
          "quarry://c1/a?revision=-1",
          "quarry://c1/a?revision=",
          "quarry://c1?revision=3",
          "quarry://Bad Name/a",
          "quarry://c1/%zz"
        }) {
      QuarryException e = assertThrows(QuarryException.class, () -> ResourceUris.parse(uri), uri);
      assertEquals(ErrorCode.INVALID_REQUEST, e.code(), uri);
      assertEquals("uri", e.field(), uri);
    }
  }
}
