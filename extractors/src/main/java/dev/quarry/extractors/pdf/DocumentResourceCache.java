package dev.quarry.extractors.pdf;

import org.apache.pdfbox.cos.COSObject;
import org.apache.pdfbox.pdmodel.DefaultResourceCache;
import org.apache.pdfbox.pdmodel.font.PDFont;

/**
 * A document's resource cache that keeps its fonts until the document is closed. PDFBox's text
 * stripper drops a page's resources from the cache after every page, and its default cache keeps a
 * resource only once it has been dropped three times: a font used on many pages was parsed again on
 * each of its first four pages, and a font used on a few pages on every one of them (1,524 font
 * parses over the shared good PDFs instead of 940). Parsing fonts cost about a tenth of PDF
 * extraction time in a profile of that collection.
 *
 * <p>Fonts stay soft references, as in the default cache, so memory pressure can still reclaim
 * them. Every other kind of resource (images above all, which rendering for OCR loads) is dropped
 * as PDFBox drops it.
 */
final class DocumentResourceCache extends DefaultResourceCache {

  @Override
  public PDFont removeFont(COSObject indirect) {
    return null;
  }
}
