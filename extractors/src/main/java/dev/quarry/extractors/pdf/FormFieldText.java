package dev.quarry.extractors.pdf;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationWidget;
import org.apache.pdfbox.pdmodel.interactive.form.PDAcroForm;
import org.apache.pdfbox.pdmodel.interactive.form.PDField;
import org.apache.pdfbox.pdmodel.interactive.form.PDSignatureField;
import org.apache.pdfbox.pdmodel.interactive.form.PDTerminalField;

/**
 * The values of a PDF's form fields (AcroForm), by the page whose widget shows them. The text
 * stripper reads only page content streams, where filled-in values are not.
 */
final class FormFieldText {

  /** Fields beyond this many are left out: a form has dozens, a crafted file millions. */
  static final int MAX_FIELDS = 10_000;

  private final Map<Integer, StringBuilder> byPage;

  private FormFieldText(Map<Integer, StringBuilder> byPage) {
    this.byPage = byPage;
  }

  /** Reads the field values of {@code document}, at most {@code maxChars} characters in all. */
  static FormFieldText read(PDDocument document, int maxChars) {
    Map<Integer, StringBuilder> byPage = new HashMap<>();
    try {
      PDAcroForm form = document.getDocumentCatalog().getAcroForm(null);
      if (form == null) {
        return new FormFieldText(byPage);
      }
      Map<COSDictionary, Integer> pageNumbers = new IdentityHashMap<>();
      int number = 1;
      for (PDPage page : document.getPages()) {
        pageNumbers.putIfAbsent(page.getCOSObject(), number++);
      }
      int fields = 0;
      long chars = 0;
      for (PDField field : form.getFieldTree()) {
        if (++fields > MAX_FIELDS || chars > maxChars) {
          break;
        }
        if (!(field instanceof PDTerminalField terminal) || field instanceof PDSignatureField) {
          // A signature's value is a dictionary, not text: its string form is an object's identity.
          continue;
        }
        String value = terminal.getValueAsString();
        if (value == null || value.isBlank() || terminal.getWidgets().isEmpty()) {
          continue;
        }
        PDAnnotationWidget widget = terminal.getWidgets().get(0);
        PDPage page = widget.getPage();
        Integer pageNumber = page == null ? null : pageNumbers.get(page.getCOSObject());
        if (pageNumber != null) {
          byPage
              .computeIfAbsent(pageNumber, p -> new StringBuilder())
              .append(value.strip())
              .append('\n');
          chars += value.length();
        }
      }
    } catch (RuntimeException unreadableForm) {
      // A broken form costs its field values, not the document's text.
    }
    return new FormFieldText(byPage);
  }

  /** The field values shown on 1-based {@code page}, one per line, or "" when none. */
  String textOf(int page) {
    StringBuilder values = byPage.get(page);
    return values == null ? "" : values.toString();
  }
}
