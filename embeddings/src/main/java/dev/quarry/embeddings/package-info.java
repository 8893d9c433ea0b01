/**
 * Text embedding models run in process: ONNX Runtime for the network, HuggingFace's tokenizers
 * (through DJL's bindings, whose native library ships in its jar) for word pieces. The weights and
 * tokenizers are resources of Maven artifacts, so nothing is downloaded at run time.
 *
 * <p>{@link dev.quarry.embeddings.Models} lists what a process can run; each is an {@link
 * dev.quarry.engine.Embedder}, loaded on first use.
 */
package dev.quarry.embeddings;
