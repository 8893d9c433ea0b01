import java.io.File;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;

/**
 * Writes handbook.pdf, one page per topic. Run from this folder with PDFBox on the class path:
 * {@code java -cp pdfbox-3.jar:pdfbox-io-3.jar:fontbox-3.jar:commons-logging.jar MakeHandbookPdf.java}
 */
public class MakeHandbookPdf {
  static final List<List<String>> PAGES = List.of(
      List.of("Employee Handbook", "", "1. Leave",
          "Parental leave is 20 weeks, fully paid, for every parent.",
          "It can be taken in up to three blocks during the child's first two years.",
          "Annual leave is 25 days per calendar year; up to five unused days carry over",
          "into the first quarter of the next year."),
      List.of("2. Travel",
          "Book trains for trips under four hours; fly only when the train takes longer.",
          "Economy class is the default for flights under six hours.",
          "Book all business travel through the travel desk at least 14 days ahead."),
      List.of("3. Expenses",
          "Claim expenses within 30 days, with an itemised receipt above 25 euros.",
          "Meals while travelling are covered up to 60 euros per day.",
          "Alcohol is never reimbursed."));

  public static void main(String[] args) throws Exception {
    try (PDDocument document = new PDDocument()) {
      document.getDocumentInformation().setTitle("Employee Handbook");
      PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
      for (List<String> lines : PAGES) {
        PDPage page = new PDPage();
        document.addPage(page);
        try (PDPageContentStream content = new PDPageContentStream(document, page)) {
          content.beginText();
          content.setFont(font, 12);
          content.setLeading(18);
          content.newLineAtOffset(72, 720);
          for (String line : lines) {
            content.showText(line);
            content.newLine();
          }
          content.endText();
        }
      }
      document.save(new File("handbook.pdf"));
    }
  }
}
