package dev.quarry.extractors.text;

import dev.quarry.extractors.ExtractionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads United States patents in the USPTO's full-text format for patents granted from 1976 to 2001
 * (APS, described in the USPTO's "Patent Full Text/APS" documentation): plain text in which every
 * line is a field, a tag of three or four capitals and then, after spaces, its value, continued on
 * lines that start with spaces. A tag of four capitals alone on its line opens a group of fields:
 * {@code PATN} a patent, {@code INVT} an inventor, {@code ABST} the abstract, {@code BSUM}, {@code
 * DRWD} and {@code DETD} the parts of the description, {@code CLMS} the claims.
 *
 * <p>A patent is rendered as Markdown: its title ({@code TTL}) as the document's heading; under it
 * a short bibliography (numbers and dates, inventors, assignee, examiners, classification,
 * references cited), since users search patents by those; then the abstract, the description and
 * the claims, each under a heading. The description's own captions ({@code PAC}: "BACKGROUND OF THE
 * INVENTION", "EXAMPLE 1") head its sections; a part with no caption of its own is headed by its
 * name ("Related applications"). A paragraph's continuation lines are joined with spaces; tables
 * and equations ({@code TBL}, {@code EQU}) keep their lines, in a fenced block. A file of several
 * patents (the USPTO's weekly files) renders each in turn.
 *
 * <p>Text is read so only when it is this format throughout: its first field is {@code PATN} (after
 * a weekly file's {@code HHHHHT} header lines) and every other line is a field or a continuation.
 * Anything else is left to be read as plain text.
 */
public final class PatentFullText {
  /** A field's line: its tag, then its value (none for a group's opening line). */
  private static final Pattern FIELD = Pattern.compile("([A-Z][A-Z0-9]{2,3})(?: +(.*))?");

  /** Column where a field's value starts, and where continuation lines put their text. */
  private static final int VALUE_COLUMN = 5;

  /** The groups whose fields are the patent's text, and the heading each has without a caption. */
  private static final Map<String, String> TEXT_GROUPS =
      Map.of(
          "ABST", "Abstract",
          "GOVT", "Government interest",
          "PARN", "Related applications",
          "BSUM", "Summary",
          "DRWD", "Drawings",
          "DETD", "Detailed description",
          "CLMS", "Claims",
          "DCLM", "Claim");

  /** The tags that open a group when alone on their line. */
  private static final Set<String> GROUPS =
      Set.of(
          "PATN", "INVT", "ASSG", "PRIR", "REIS", "RLAP", "CLAS", "UREF", "FREF", "OREF", "LREP",
          "PCTA", "ABST", "GOVT", "PARN", "BSUM", "DRWD", "DETD", "CLMS", "DCLM");

  /** The fields of a legal representative's group that name one. */
  private static final Set<String> REPRESENTATIVES =
      Set.of("FRM", "FR2", "AAT", "AGT", "ATT", "NAM");

  /** Text groups headed by their name even when a caption follows (claims have none). */
  private static final Set<String> ALWAYS_NAMED = Set.of("ABST", "CLMS", "DCLM");

  /** A patent read from the text: its Markdown and its title (null when it has none). */
  public record Patents(String markdown, String title) {}

  private PatentFullText() {}

  /**
   * The patents {@code text} holds, rendered as Markdown, or null when it is not the APS format
   * throughout.
   *
   * @throws ExtractionException {@code DOCUMENT_TOO_LARGE} when the rendering grows past {@code
   *     maxChars} (a patent's bibliography is written in words its tags abbreviate)
   */
  public static Patents read(String text, int maxChars) throws ExtractionException {
    // Every plain text comes here: most are told apart by their first line, before any split.
    if (!startsWithPatent(text)) {
      return null;
    }
    String[] lines = text.split("\r?\n", -1);
    if (!isFullText(lines)) {
      return null;
    }
    StringBuilder out = new StringBuilder();
    PatentWriter first = null;
    PatentWriter patent = null;
    FieldReader reader = new FieldReader(lines);
    for (Field field = reader.next(); field != null; field = reader.next()) {
      if (field.opensGroup() && field.tag().equals("PATN")) {
        if (patent != null) {
          append(out, patent.markdown(), maxChars);
        }
        patent = new PatentWriter();
        first = first == null ? patent : first;
      }
      patent.add(field);
    }
    append(out, patent.markdown(), maxChars);
    return new Patents(out.toString(), first.title);
  }

  /**
   * Whether the first line that is neither blank nor a weekly file's header is {@code PATN}: read
   * line by line from the start, so other text costs a few characters.
   */
  private static boolean startsWithPatent(String text) {
    int at = 0;
    while (at < text.length()) {
      int end = text.indexOf('\n', at);
      end = end < 0 ? text.length() : end;
      String line = text.substring(at, end);
      at = end + 1;
      if (!line.isBlank() && !line.startsWith("HHHHHT")) {
        return line.strip().equals("PATN");
      }
    }
    return false;
  }

  private static void append(StringBuilder out, String patent, int maxChars)
      throws ExtractionException {
    if (!out.isEmpty()) {
      out.append("\n\n");
    }
    out.append(patent);
    if (out.length() > maxChars) {
      throw PagedTextBuilder.tooManyCharacters(maxChars);
    }
  }

  /**
   * Whether every line is a field, a continuation of one or blank, and the first field is {@code
   * PATN} (after a weekly file's header lines).
   */
  private static boolean isFullText(String[] lines) {
    boolean header = true;
    boolean afterGroup = false; // the last field opened a group, so it has no value to continue
    for (String line : lines) {
      if (line.isBlank() || (header && line.startsWith("HHHHHT"))) {
        continue;
      }
      if (Character.isWhitespace(line.charAt(0))) {
        if (header || afterGroup) {
          return false; // a continuation before any field, or of a group's opening line
        }
        continue;
      }
      Matcher field = FIELD.matcher(line);
      if (!field.matches() || (header && !field.group(1).equals("PATN"))) {
        return false;
      }
      afterGroup = opensGroup(field.group(1), field.group(2) == null ? "" : field.group(2));
      if (header && !afterGroup) {
        return false; // PATN with a value opens nothing
      }
      header = false;
    }
    return !header;
  }

  /** Whether a field's line opens a group: a group's tag alone on its line. */
  private static boolean opensGroup(String tag, String value) {
    return value.isEmpty() && GROUPS.contains(tag);
  }

  /** One field: its tag, its value's first line and its continuation lines as written. */
  private record Field(String tag, String value, List<String> continued) {
    boolean opensGroup() {
      boolean opens = PatentFullText.opensGroup(tag, value);
      assert !opens || continued.isEmpty()
          : "isFullText accepted a group's opening line with a continuation: " + tag;
      return opens;
    }

    /** The value with its continuation lines joined by single spaces. */
    String prose() {
      StringBuilder out = new StringBuilder(value.strip());
      for (String line : continued) {
        String part = line.strip();
        if (!part.isEmpty()) {
          out.append(out.isEmpty() ? "" : " ").append(part);
        }
      }
      return out.toString();
    }

    /** The value's lines as laid out, continuation lines without the columns before values. */
    List<String> lines() {
      List<String> lines = new ArrayList<>();
      lines.add(value.stripTrailing());
      for (String line : continued) {
        int indent = 0;
        while (indent < VALUE_COLUMN && indent < line.length() && line.charAt(indent) == ' ') {
          indent++;
        }
        lines.add(line.substring(indent).stripTrailing());
      }
      return lines;
    }
  }

  /** The fields of text that {@link #isFullText} accepted, one at a time. */
  private static final class FieldReader {
    private final String[] lines;
    private int at;

    FieldReader(String[] lines) {
      this.lines = lines;
    }

    /** The next field, or null after the last. */
    Field next() {
      while (at < lines.length && !startsField(lines[at])) {
        at++; // blank lines and header lines before the first field
      }
      if (at == lines.length) {
        return null;
      }
      Matcher m = FIELD.matcher(lines[at++]);
      boolean isField = m.matches();
      assert isField : "isFullText accepted a line that is not a field: " + lines[at - 1];
      List<String> continued = new ArrayList<>();
      while (at < lines.length && !startsField(lines[at])) {
        continued.add(lines[at++]);
      }
      return new Field(
          m.group(1), m.group(2) == null ? "" : m.group(2), trimTrailingBlanks(continued));
    }

    private static boolean startsField(String line) {
      return !line.isEmpty()
          && !Character.isWhitespace(line.charAt(0))
          && !line.startsWith("HHHHHT");
    }
  }

  private static List<String> trimTrailingBlanks(List<String> lines) {
    int end = lines.size();
    while (end > 0 && lines.get(end - 1).isBlank()) {
      end--;
    }
    return List.copyOf(lines.subList(0, end));
  }

  /** Renders one patent as its fields arrive. */
  private static final class PatentWriter {
    String title;
    private String number;
    private String issued;
    private String application;
    private String filed;
    private final List<String> examiners = new ArrayList<>();
    private final List<Party> inventors = new ArrayList<>();
    private final List<Party> assignees = new ArrayList<>();
    private final List<String> priorities = new ArrayList<>();
    private final List<String> related = new ArrayList<>();
    private String usClass;
    private final List<String> usCrossClasses = new ArrayList<>();
    private final List<String> attorneys = new ArrayList<>();
    private final List<String> usReferences = new ArrayList<>();
    private final List<String> foreignReferences = new ArrayList<>();
    private final List<String> otherReferences = new ArrayList<>();
    private final List<String> body = new ArrayList<>();

    private String group = "";
    private String pendingHeading;
    private String claimNumber;
    private Party party;
    private Reference reference;

    void add(Field field) {
      if (field.opensGroup()) {
        open(field.tag());
        return;
      }
      switch (group) {
        case "PATN" -> patentField(field);
        case "INVT", "ASSG" -> partyField(field);
        case "PRIR", "RLAP", "REIS", "UREF", "FREF" -> referenceField(field);
        case "CLAS" -> classField(field);
        case "LREP" -> {
          if (REPRESENTATIVES.contains(field.tag())) {
            attorneys.add(person(field.prose()));
          }
        }
        case "OREF" -> otherReferences.add(field.prose().replaceFirst("\\.$", ""));
        default -> {
          if (TEXT_GROUPS.containsKey(group)) {
            textField(field);
          }
        }
      }
    }

    private void open(String tag) {
      closeReference();
      group = tag;
      party = null;
      claimNumber = null;
      switch (tag) {
        case "INVT" -> inventors.add(party = new Party());
        case "ASSG" -> assignees.add(party = new Party());
        case "PRIR", "RLAP", "REIS", "UREF", "FREF" -> reference = new Reference();
        default -> {}
      }
      String name = TEXT_GROUPS.get(tag);
      pendingHeading = name;
      if (name != null && ALWAYS_NAMED.contains(tag)) {
        heading(name);
      }
    }

    private void patentField(Field field) {
      String v = field.prose();
      switch (field.tag()) {
        case "WKU" -> number = patentNumber(v);
        case "TTL" -> title = v;
        case "ISD" -> issued = date(v);
        case "APN" -> application = v;
        case "APD" -> filed = date(v);
        case "EXP" -> examiners.add("Primary examiner: " + person(v));
        case "EXA" -> examiners.add("Assistant examiner: " + person(v));
        default -> {}
      }
    }

    private void partyField(Field field) {
      String v = field.prose();
      switch (field.tag()) {
        case "NAM" -> party.name = person(v);
        case "CTY" -> party.city = v;
        case "STA" -> party.state = v;
        case "CNT" -> party.country = v;
        default -> {}
      }
    }

    /** A field of a cited, related or priority document. */
    private void referenceField(Field field) {
      String v = field.prose();
      switch (field.tag()) {
        case "APN" -> reference.application = v;
        case "PNO" -> reference.patent = v;
        case "APD", "ISD" -> reference.date = date(v);
        case "NAM" -> reference.name = v;
        case "CNT" -> reference.country = v;
        default -> {}
      }
    }

    private void closeReference() {
      if (reference == null) {
        return;
      }
      Reference r = reference;
      reference = null;
      switch (group) {
        case "PRIR" -> priorities.add(join(" ", r.country, r.application) + parenthesized(r.date));
        case "RLAP", "REIS" ->
            related.add(
                join(
                    ", ",
                    r.application,
                    r.date == null ? null : "filed " + r.date,
                    r.patent == null ? null : "patent " + r.patent));
        case "UREF" ->
            usReferences.add(nonNull(r.patent) + parenthesized(join(", ", r.name, r.date)));
        case "FREF" ->
            foreignReferences.add(nonNull(r.patent) + parenthesized(join(", ", r.country, r.date)));
        default -> {}
      }
    }

    private void classField(Field field) {
      switch (field.tag()) {
        case "OCL" -> usClass = usClass(field.prose());
        case "XCL" -> usCrossClasses.add(usClass(field.prose()));
        default -> {}
      }
    }

    private void textField(Field field) {
      switch (field.tag()) {
        case "PAC" -> {
          pendingHeading = null;
          heading(field.prose());
        }
        case "NUM" -> claimNumber = field.prose();
        case "TBL", "TBL1", "TBL2", "TBL3", "TBL4", "TBL5", "EQU" -> {
          headIfNeeded();
          List<String> lines = new ArrayList<>();
          lines.add("```");
          for (String line : field.lines()) {
            lines.add(MarkdownEscapes.lineStart(line));
          }
          lines.add("```");
          body.add(String.join("\n", lines));
        }
        default -> {
          String text = field.prose();
          if (text.isEmpty()) {
            return;
          }
          headIfNeeded();
          if (claimNumber != null && !text.startsWith(claimNumber)) {
            text = claimNumber + " " + text;
          }
          claimNumber = null;
          body.add(MarkdownEscapes.lineStart(text));
        }
      }
    }

    private void headIfNeeded() {
      if (pendingHeading != null) {
        heading(pendingHeading);
      }
    }

    private void heading(String text) {
      pendingHeading = null;
      if (!text.isBlank()) {
        body.add("## " + text.strip());
      }
    }

    String markdown() {
      closeReference();
      List<String> blocks = new ArrayList<>();
      blocks.add("# " + (title != null ? title : number != null ? "Patent " + number : "Patent"));
      List<String> bibliography = new ArrayList<>();
      String patent =
          join(
              ", ",
              number == null ? null : "Patent " + number,
              issued == null ? null : "issued " + issued);
      String filing =
          join(
              ", ",
              application == null ? null : "application " + application,
              filed == null ? null : "filed " + filed);
      addLine(bibliography, "", join("; ", patent, filing));
      addLine(
          bibliography, inventors.size() == 1 ? "Inventor: " : "Inventors: ", parties(inventors));
      addLine(
          bibliography, assignees.size() == 1 ? "Assignee: " : "Assignees: ", parties(assignees));
      addLine(bibliography, "Priority: ", String.join("; ", priorities));
      addLine(bibliography, "Related U.S. application: ", String.join("; ", related));
      String crossClasses =
          usCrossClasses.isEmpty() ? null : "also " + String.join(", ", usCrossClasses);
      addLine(
          bibliography,
          "U.S. classification: ",
          join(" ", usClass, crossClasses == null ? null : "(" + crossClasses + ")"));
      examiners.forEach(line -> addLine(bibliography, "", line));
      addLine(bibliography, "Attorney, agent or firm: ", String.join("; ", attorneys));
      addLine(bibliography, "U.S. patents cited: ", String.join("; ", usReferences));
      addLine(bibliography, "Foreign patents cited: ", String.join("; ", foreignReferences));
      addLine(bibliography, "Other references cited: ", String.join("; ", otherReferences));
      if (!bibliography.isEmpty()) {
        blocks.add(String.join("\n", bibliography));
      }
      blocks.addAll(body);
      return String.join("\n\n", blocks);
    }

    private static void addLine(List<String> lines, String label, String value) {
      if (value != null && !value.isBlank()) {
        lines.add(MarkdownEscapes.lineStart(label + value));
      }
    }

    private static String parties(List<Party> parties) {
      List<String> named = new ArrayList<>();
      for (Party p : parties) {
        if (p.name != null) {
          named.add(p.name + parenthesized(join(", ", p.city, p.state, p.country)));
        }
      }
      return String.join("; ", named);
    }
  }

  /** A document a patent cites, continues or claims the priority of. */
  private static final class Reference {
    String application;
    String patent;
    String date;
    String name;
    String country;
  }

  /** An inventor or assignee. */
  private static final class Party {
    String name;
    String city;
    String state;
    String country;
  }

  /** "Miyazaki; Takeshi" as "Takeshi Miyazaki"; a name without the separator as written. */
  static String person(String name) {
    int semicolon = name.indexOf(';');
    if (semicolon < 0) {
      return name;
    }
    String last = name.substring(0, semicolon).strip();
    String first = name.substring(semicolon + 1).strip();
    return first.isEmpty() ? last : first + " " + last;
  }

  /** A date of eight digits as ISO 8601, to the month or year when the day or month is 00. */
  static String date(String v) {
    if (!v.matches("\\d{8}")) {
      return v;
    }
    String year = v.substring(0, 4);
    String month = v.substring(4, 6);
    String day = v.substring(6, 8);
    if (month.equals("00")) {
      return year;
    }
    return day.equals("00") ? year + "-" + month : year + "-" + month + "-" + day;
  }

  /**
   * The patent number of a WKU field: its digits without their leading zeros or the check digit
   * (057006474 is patent 5,700,647); another form (a design or reissue patent's) as written.
   */
  static String patentNumber(String wku) {
    if (!wku.matches("\\d{9}")) {
      return wku;
    }
    String digits = wku.substring(0, 8).replaceFirst("^0+", "");
    return digits.isEmpty() ? wku : digits;
  }

  /** A U.S. class field (class in three columns, then subclass) as "class/subclass". */
  static String usClass(String v) {
    if (v.length() <= 3) {
      return v.strip();
    }
    String subclass = v.substring(3).strip();
    String main = v.substring(0, 3).strip();
    return subclass.isEmpty() ? main : main + "/" + subclass;
  }

  private static String join(String separator, String... parts) {
    List<String> present = new ArrayList<>();
    for (String part : parts) {
      if (part != null && !part.isBlank()) {
        present.add(part);
      }
    }
    return String.join(separator, present);
  }

  private static String parenthesized(String text) {
    return text == null || text.isBlank() ? "" : " (" + text + ")";
  }

  private static String nonNull(String text) {
    return text == null ? "" : text;
  }
}
