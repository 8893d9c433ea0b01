/**
 * Text embedding models run in process: ONNX Runtime for the network, HuggingFace's tokenizers
 * (through DJL's bindings, whose native library ships in its jar) for word pieces. The weights and
 * tokenizers are resources of Maven artifacts, so nothing is downloaded at run time.
 *
 * <p>{@link dev.quarry.embeddings.Models} lists what a process can run: the shipped models ({@code
 * Models.all()}), and with them those of an operator's model folders ({@code Models.all(folders)});
 * each is an {@link dev.quarry.engine.Embedder}, loaded on first use. A host that wants hybrid
 * corpora adds this one dependency and hands the models to the engine's {@code EngineConfig}
 * (docs/embedding.md).
 *
 * <p>It is not for corpora or HTTP.
 */
package dev.quarry.embeddings;
