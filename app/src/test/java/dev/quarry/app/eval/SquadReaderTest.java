package dev.quarry.app.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.app.cli.EvalCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SquadReaderTest {
  @TempDir Path dir;

  /**
   * A German question file in SQuAD's layout: two articles, three paragraphs. Each question asks in
   * an inflected form (Häuser, Brücken, Gärten) for a word its paragraph has in another (Haus,
   * Brücke, Garten) and shares no other word with it, so only a German analyzer finds it.
   */
  private static final String GERMAN =
      """
      {"version": "1.1", "data": [
        {"title": "Stadt", "paragraphs": [
          {"context": "Das alte Haus am Markt wurde 1650 erbaut.",
           "qas": [{"id": "q-haus", "question": "Welche Häuser stehen dort?",
                    "answers": [{"answer_start": 4, "text": "alte Haus"}]}]},
          {"context": "Über den Fluss führt eine steinerne Brücke.",
           "qas": [{"id": "q-bruecke", "question": "Wie viele Brücken gibt es?",
                    "answers": [{"answer_start": 25, "text": "steinerne Brücke"}]}]}
        ]},
        {"title": "Land", "paragraphs": [
          {"context": "Hinter der Mühle liegt ein großer Garten mit Apfelbäumen.",
           "qas": [{"id": "q-garten", "question": "Welche Gärten hat sie?",
                    "answers": [{"answer_start": 27, "text": "großer Garten"}]}]}
        ]}
      ]}
      """;

  private Path write(String name, String content) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, content);
    return file;
  }

  @Test
  void read_paragraphsAreDocuments_questionsAreQueriesJudgedOnTheirParagraph() throws IOException {
    BeirCollection c = new SquadReader().read(write("xquad.de.json", GERMAN));

    assertEquals("xquad.de", c.name());
    assertEquals(
        List.of(
            new BeirDocument("0-0", "", "Das alte Haus am Markt wurde 1650 erbaut."),
            new BeirDocument("0-1", "", "Über den Fluss führt eine steinerne Brücke."),
            new BeirDocument(
                "1-0", "", "Hinter der Mühle liegt ein großer Garten mit Apfelbäumen.")),
        c.documents());
    assertEquals(
        List.of(
            new BeirQuery("q-haus", "Welche Häuser stehen dort?"),
            new BeirQuery("q-bruecke", "Wie viele Brücken gibt es?"),
            new BeirQuery("q-garten", "Welche Gärten hat sie?")),
        c.judgedQueries());
    assertEquals(Map.of("1-0", 1), c.judgments().grades("q-garten"));
  }

  @Test
  void read_questionWithoutText_namesItsJsonPath() throws IOException {
    Path file =
        write(
            "bad.json",
            """
            {"data": [{"paragraphs": [{"context": "x", "qas": [{"id": "q1"}]}]}]}
            """);

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new SquadReader().read(file));
    assertTrue(e.getMessage().contains("data[0].paragraphs[0].qas[0].question"), e.getMessage());
  }

  @Test
  void read_repeatedQuestionId_isRefused() throws IOException {
    Path file =
        write(
            "twice.json",
            """
            {"data": [{"paragraphs": [
              {"context": "a", "qas": [{"id": "q1", "question": "a"}]},
              {"context": "b", "qas": [{"id": "q1", "question": "b"}]}]}]}
            """);

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new SquadReader().read(file));
    assertTrue(e.getMessage().contains("'q1' is not unique"), e.getMessage());
  }

  @Test
  void evalOnAGermanFile_germanFindsByInflectedFormsWhatStandardMisses() throws IOException {
    Path file = write("xquad.de.json", GERMAN);

    JsonNode german = eval(file, "german");
    JsonNode standard = eval(file, "standard");

    assertEquals(3, german.get("documents").asInt());
    assertEquals(1.0, german.get("mrrAt10").asDouble(), 1e-9, german.toString());
    assertEquals(0.0, standard.get("mrrAt10").asDouble(), 1e-9, standard.toString());
  }

  private JsonNode eval(Path file, String language) throws IOException {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit =
        new CommandLine(new EvalCommand())
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err))
            .execute(file.toString(), "--language", language, "--json");
    assertEquals(CommandLine.ExitCode.OK, exit, err.toString());
    return new ObjectMapper().readTree(out.toString());
  }
}
