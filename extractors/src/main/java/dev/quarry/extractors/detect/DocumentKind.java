package dev.quarry.extractors.detect;

/** Which extractor, if any, reads a detected media type. */
public enum DocumentKind {
  /** PDF, read page by page by PDFBox. */
  PDF,
  /** Plain text, read directly. */
  PLAIN_TEXT,
  /** Markdown, read directly; its headings are already ATX lines. */
  MARKDOWN,
  /** Anything Tika parses into text: Office, OpenDocument, HTML, RTF, EPUB, mail, ... */
  TIKA,
  /** An image whose text only optical character recognition reads: PNG, JPEG, TIFF, WebP. */
  IMAGE,
  /** A container that is encrypted as a whole (password-protected Office files). */
  ENCRYPTED,
  /**
   * Bytes no extractor turns into text: unknown bytes, other images, audio, video, archives,
   * programs.
   */
  UNSUPPORTED
}
