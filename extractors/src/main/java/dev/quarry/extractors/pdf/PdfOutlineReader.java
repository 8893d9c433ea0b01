package dev.quarry.extractors.pdf;

import dev.quarry.extractors.OutlineEntry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDDocumentOutline;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDOutlineItem;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDOutlineNode;

/**
 * Reads a PDF's outline (bookmarks) into a flat list with levels and target pages. Hostile outlines
 * are expected: loops are cut by remembering visited items, and depth and entry count are bounded.
 */
final class PdfOutlineReader {

  /** More entries than this is no table of contents a person reads. */
  static final int MAX_ENTRIES = 10_000;

  /** Deeper than this is a crafted file, not a document. */
  static final int MAX_DEPTH = 32;

  private final PDDocument document;
  private final Map<COSDictionary, Integer> pageNumbers = new IdentityHashMap<>();
  private final Set<COSDictionary> visited = Collections.newSetFromMap(new IdentityHashMap<>());
  private final List<OutlineEntry> entries = new ArrayList<>();

  PdfOutlineReader(PDDocument document) {
    this.document = document;
  }

  /** The outline's entries in reading order; empty when the document has none. */
  List<OutlineEntry> read() {
    PDDocumentOutline outline = document.getDocumentCatalog().getDocumentOutline();
    if (outline == null) {
      return List.of();
    }
    int number = 1;
    for (PDPage page : document.getPages()) {
      pageNumbers.putIfAbsent(page.getCOSObject(), number++);
    }
    visit(outline, 1);
    return List.copyOf(entries);
  }

  private void visit(PDOutlineNode node, int level) {
    if (level > MAX_DEPTH) {
      return;
    }
    for (PDOutlineItem item = node.getFirstChild(); item != null; item = item.getNextSibling()) {
      if (entries.size() >= MAX_ENTRIES || !visited.add(item.getCOSObject())) {
        return;
      }
      String title = item.getTitle();
      if (title != null && !title.isBlank()) {
        entries.add(new OutlineEntry(title.strip(), level, pageOf(item)));
      }
      visit(item, level + 1);
    }
  }

  private Integer pageOf(PDOutlineItem item) {
    try {
      PDPage page = item.findDestinationPage(document);
      return page == null ? null : pageNumbers.get(page.getCOSObject());
    } catch (IOException | RuntimeException unresolvable) {
      return null;
    }
  }
}
