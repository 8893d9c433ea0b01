import dev.quarry.engine.index.CodesFormat;
import dev.quarry.engine.index.QuarryCodec;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.DocValuesFormat;

/**
 * Quarry's engine: corpora as Lucene indexes with exact, durable revisions.
 *
 * <p>A host names only {@code dev.quarry.engine}; the sub-packages are internal. {@code
 * dev.quarry.engine.spi} is exported to the two modules that prepare, score and report as the
 * engine does (the corpora layer and the cluster store), as Lucene exports its {@code
 * internal.tests} package to its test framework alone. The build's {@code architecture-rules} holds
 * the same list; {@code ArchitectureTest} fails when the two differ.
 */
// The modules the SPI is exported to are built after the engine, so javac cannot see them here;
// Tika's jars (the optional language detector) are automatic modules.
@SuppressWarnings({"module", "requires-automatic"})
module dev.quarry.engine {
  // Lucene types appear in the engine's API (caches, analyzers of the SPI).
  requires transitive org.apache.lucene.core;
  requires org.apache.lucene.analysis.common;
  requires org.apache.lucene.analysis.kuromoji;
  requires org.apache.lucene.analysis.nori;
  requires org.apache.lucene.analysis.stempel;
  requires org.apache.lucene.analysis.morfologik;
  requires org.apache.lucene.analysis.smartcn;
  requires org.apache.lucene.sandbox;
  // The engine's log lines go to java.util.logging, which a host routes where it likes.
  requires java.logging;
  requires com.fasterxml.jackson.core;
  requires com.fasterxml.jackson.databind;
  // Optional, as in the engine's pom: OpenNLP's language detector (auto corpora) where the host
  // adds it, and the Vector API where the JVM has it (--add-modules jdk.incubator.vector).
  requires static org.apache.tika.core;
  requires static org.apache.tika.langdetect.opennlp;
  requires static jdk.incubator.vector;

  exports dev.quarry.engine;
  exports dev.quarry.engine.spi to
      dev.quarry.corpora,
      dev.quarry.cluster;

  provides Codec with
      QuarryCodec;
  provides DocValuesFormat with
      CodesFormat;
}
