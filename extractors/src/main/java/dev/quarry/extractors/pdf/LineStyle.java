package dev.quarry.extractors.pdf;

/**
 * How one line of a page was set: its text (as PDFBox wrote it), the font size most of its
 * characters have, and whether nearly all of them are bold.
 */
record LineStyle(String text, float size, boolean bold) {}
