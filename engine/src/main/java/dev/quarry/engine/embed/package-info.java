/**
 * Dense vectors of an embedding corpus: the bounded pool that embeds passages off the writer thread
 * with a cache by (model, text), and the fixed-scale int8 encoding a chunk document stores.
 */
package dev.quarry.engine.embed;
