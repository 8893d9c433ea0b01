package dev.quarry.app.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.app.cli.EvalCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Usage errors of {@code quarry eval}: refused before anything is read or indexed. */
class EvalCommandOptionsTest {
  @TempDir Path dir;

  private final StringWriter err = new StringWriter();

  private int execute(String... args) {
    return new CommandLine(new EvalCommand())
        .setOut(new PrintWriter(new StringWriter()))
        .setErr(new PrintWriter(err))
        .execute(args);
  }

  @Test
  void outOfRangeSetting_isAUsageErrorNamingTheLimit() {
    int exit = execute(dir.toString(), "--b", "1.5");

    assertEquals(CommandLine.ExitCode.USAGE, exit);
    assertTrue(err.toString().contains("b must be between 0 and 1; got 1.5"), err.toString());
  }

  @Test
  void unknownLanguage_isAUsageError() {
    int exit = execute(dir.toString(), "--language", "klingon");

    assertEquals(CommandLine.ExitCode.USAGE, exit);
    assertTrue(
        err.toString().contains("language must be one of english, standard, cjk"), err.toString());
  }

  @Test
  void overlapOfMoreThanHalfTheChunk_isAUsageError() {
    int exit = execute(dir.toString(), "--max-words", "100", "--overlap-words", "60");

    assertEquals(CommandLine.ExitCode.USAGE, exit);
    assertTrue(err.toString().contains("overlapWords"), err.toString());
  }

  @Test
  void unknownNormalization_isAUsageError() {
    int exit = execute(dir.toString(), "--fusion", "convex:0.3:zscore");

    assertEquals(CommandLine.ExitCode.USAGE, exit);
    assertTrue(
        err.toString().contains("normalization must be one of minmax, theoretical"),
        err.toString());
  }

  @Test
  void normalizationWithRrf_isAUsageError() {
    int exit = execute(dir.toString(), "--fusion", "rrf:theoretical");

    assertEquals(CommandLine.ExitCode.USAGE, exit);
    assertTrue(
        err.toString().contains("normalization applies to convex fusion only"), err.toString());
  }

  @Test
  void folderWithoutCollection_isAUsageErrorNamingTheMissingFile() {
    int exit = execute(dir.toString());

    assertEquals(CommandLine.ExitCode.USAGE, exit);
    assertTrue(err.toString().contains("corpus.jsonl is missing"), err.toString());
  }

  @Test
  void zeroQueries_isAUsageError() {
    int exit = execute(dir.toString(), "--queries", "0");

    assertEquals(CommandLine.ExitCode.USAGE, exit);
    assertTrue(err.toString().contains("--queries must be at least 1"), err.toString());
  }

  @Test
  void probesWithoutCodesOrExactWithoutAModel_areUsageErrors() {
    assertEquals(CommandLine.ExitCode.USAGE, execute(dir.toString(), "--probes", "8"));
    assertTrue(err.toString().contains("--probes need --index codes"), err.toString());

    assertEquals(CommandLine.ExitCode.USAGE, execute(dir.toString(), "--exact"));
    assertTrue(err.toString().contains("--exact needs --model"), err.toString());

    assertEquals(
        CommandLine.ExitCode.USAGE,
        execute(
            dir.toString(), "--model", "bge-small-en-v1.5", "--index", "codes", "--probes", "0"));
    assertTrue(err.toString().contains("--probes must be at least 1"), err.toString());
  }
}
