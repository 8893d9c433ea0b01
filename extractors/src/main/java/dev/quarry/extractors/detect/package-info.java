/**
 * Media type detection from a document's bytes (Tika's detector: magic numbers and container
 * inspection), and the choice of extractor for each type. Entry type:
 * {@link dev.quarry.extractors.detect.MediaTypeDetector}.
 *
 * <p>Must not trust file names; the declared media type only refines what bytes cannot tell
 * (Markdown looks like plain text) and otherwise becomes a warning. Knows no parser.
 */
package dev.quarry.extractors.detect;
