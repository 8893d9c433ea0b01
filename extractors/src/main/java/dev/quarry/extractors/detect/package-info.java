/**
 * Media type detection from a document's bytes (Tika's detector: magic numbers and container
 * inspection), and the choice of extractor for each type. Entry type: {@link
 * dev.quarry.extractors.detect.MediaTypeDetector}.
 *
 * <p>File names and the declared media type only refine what bytes cannot tell (Markdown looks like
 * plain text); a declaration that disagrees becomes a warning. Knows no parser.
 */
package dev.quarry.extractors.detect;
