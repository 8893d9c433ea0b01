/**
 * What the OpenAI-compatible API keeps beside the corpora, in its own folder of the data folder:
 * uploaded files ({@link FileArea}), the names and metadata of vector stores ({@link StoreRecords})
 * and which files are attached to which store through which ingestion job ({@link Attachments}).
 * Every record is one small JSON file, written to a temporary name, fsynced and moved into place,
 * so a crash leaves the old record or the new one, never a torn one.
 *
 * <p>It must not know HTTP or OpenAI's wire shapes: those are {@code openai.routes}'.
 */
package dev.quarry.openai.store;
