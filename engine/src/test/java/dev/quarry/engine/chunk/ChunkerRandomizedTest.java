package dev.quarry.engine.chunk;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.testing.TestSeed;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Random texts of every kind the chunker meets, each checked against {@link ChunkInvariants}. */
@ExtendWith(TestSeed.class)
class ChunkerRandomizedTest {
  private static final int TEXTS = 200;
  private static final String[] PIECES = {
    " ",
    " ",
    " ",
    " ",
    "\n",
    "\n\n",
    "\r\n",
    "\r\n\r\n",
    "\t",
    "\f",
    "\u00A0",
    "\u3000",
    "\u2029",
    ". ",
    "? ",
    "! ",
    "... ",
    "\" ",
    "e.g. ",
    "Dr. ",
    "3.14 ",
    "U.S. ",
    ", ",
    "\n# ",
    "\n## ",
    "\n###### ",
    "\n```\n",
    "#",
    "我们的检索引擎",
    "。",
    "！",
    "日本語のテキスト",
    "한국어 텍스트",
    "「",
    "」",
    "مرحبا بالعالم",
    "שלום עולם",
    "\uD83D\uDE00",
    "\uD800",
    "\uDC00",
    "\u0000",
    "\u0007",
    "\u0085",
    "\u200B",
  };

  @Test
  void split_randomTexts_keepEveryInvariant(Random random) {
    for (int n = 0; n < TEXTS; n++) {
      String text = randomText(random);
      int[] pageStarts = random.nextInt(3) == 0 ? null : randomPageStarts(random, text.length());
      int maxWords = CorpusSettings.Chunking.MIN_MAX_WORDS + random.nextInt(300);
      CorpusSettings.Chunking settings =
          new CorpusSettings.Chunking(maxWords, random.nextInt(maxWords / 2 + 1));
      String mediaType =
          switch (random.nextInt(4)) {
            case 0 -> null;
            case 1 -> "text/markdown";
            case 2 -> "text/plain";
            default -> "application/pdf";
          };
      try {
        ChunkInvariants.splitAndCheck(text, pageStarts, mediaType, settings);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(
            "text "
                + n
                + " ("
                + text.length()
                + " chars, "
                + settings
                + ", "
                + mediaType
                + ", pages "
                + Arrays.toString(pageStarts)
                + "): "
                + e.getMessage(),
            e);
      }
    }
  }

  private static String randomText(Random random) {
    int length = random.nextInt(20) == 0 ? random.nextInt(100_000) : random.nextInt(5_000);
    StringBuilder sb = new StringBuilder(length + 64);
    while (sb.length() < length) {
      int kind = random.nextInt(10);
      if (kind < 5) {
        appendWord(random, sb);
      } else if (kind < 9) {
        sb.append(PIECES[random.nextInt(PIECES.length)]);
      } else if (random.nextInt(20) == 0) {
        sb.append("x".repeat(random.nextInt(20_000))); // a run longer than any chunk
      } else {
        sb.append(' ');
      }
    }
    return sb.toString();
  }

  private static void appendWord(Random random, StringBuilder sb) {
    int letters = 1 + random.nextInt(12);
    for (int i = 0; i < letters; i++) {
      char c = (char) ('a' + random.nextInt(26));
      sb.append(i == 0 && random.nextBoolean() ? Character.toUpperCase(c) : c);
    }
  }

  private static int[] randomPageStarts(Random random, int length) {
    int[] starts = new int[1 + random.nextInt(20)];
    for (int i = 1; i < starts.length; i++) {
      starts[i] = random.nextInt(length + 1);
    }
    Arrays.sort(starts);
    starts[0] = 0;
    return starts;
  }
}
