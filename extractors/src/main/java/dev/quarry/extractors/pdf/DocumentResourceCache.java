package dev.quarry.extractors.pdf;

import org.apache.pdfbox.cos.COSObject;
import org.apache.pdfbox.pdmodel.DefaultResourceCache;
import org.apache.pdfbox.pdmodel.documentinterchange.markedcontent.PDPropertyList;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.graphics.PDXObject;
import org.apache.pdfbox.pdmodel.graphics.color.PDColorSpace;
import org.apache.pdfbox.pdmodel.graphics.pattern.PDAbstractPattern;
import org.apache.pdfbox.pdmodel.graphics.shading.PDShading;
import org.apache.pdfbox.pdmodel.graphics.state.PDExtendedGraphicsState;

/**
 * A document's resource cache that keeps what it holds until the document is closed. PDFBox's
 * text stripper drops a page's resources from the cache after every page, and its default cache
 * keeps a resource only once it has been dropped three times: a font used on many pages was
 * parsed again on each of its first four pages, and a font used on a few pages on every one.
 * Parsing fonts cost about a tenth of PDF extraction time in a profile of the shared collection.
 *
 * <p>Entries stay soft references, as in the default cache, so memory pressure can still reclaim
 * them; one document is extracted at a time, and its cache goes with it.
 */
final class DocumentResourceCache extends DefaultResourceCache {

  @Override
  public PDFont removeFont(COSObject indirect) {
    return null;
  }

  @Override
  public PDColorSpace removeColorSpace(COSObject indirect) {
    return null;
  }

  @Override
  public PDExtendedGraphicsState removeExtState(COSObject indirect) {
    return null;
  }

  @Override
  public PDShading removeShading(COSObject indirect) {
    return null;
  }

  @Override
  public PDAbstractPattern removePattern(COSObject indirect) {
    return null;
  }

  @Override
  public PDPropertyList removeProperties(COSObject indirect) {
    return null;
  }

  @Override
  public PDXObject removeXObject(COSObject indirect) {
    return null;
  }
}
