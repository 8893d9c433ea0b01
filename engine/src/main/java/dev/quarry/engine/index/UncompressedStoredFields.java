package dev.quarry.engine.index;

import java.io.IOException;
import org.apache.lucene.codecs.compressing.CompressionMode;
import org.apache.lucene.codecs.compressing.Compressor;
import org.apache.lucene.codecs.compressing.Decompressor;
import org.apache.lucene.codecs.lucene90.compressing.Lucene90CompressingStoredFieldsFormat;
import org.apache.lucene.store.ByteBuffersDataInput;
import org.apache.lucene.store.DataInput;
import org.apache.lucene.store.DataOutput;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;

/**
 * Lucene's block layout of stored fields with the blocks written as they are, not compressed.
 *
 * <p>Why: every search reads the stored fields of each chunk it returns (text, provenance,
 * metadata). Lucene's default compresses blocks of about 80 KB with LZ4 and a preset dictionary, so
 * reading one chunk decompresses the dictionary and the 8 KB sub-block holding it, byte by byte
 * from the mapped file; sampling profiles of a server answering SciFact's claims (top 10) put a
 * fifth of the search's samples there. Measured, the engine's CPU per such search fell by 7%
 * without it, and a server's latency on two-word queries by about 30%. An uncompressed block is
 * read by one seek and one copy of the document's own bytes. The price is disk: stored text takes
 * its full size (about twice LZ4's), which benchmarks/HISTORY.md measures beside the speed.
 */
final class UncompressedStoredFields {
  /** The format's name in segment headers; a new layout needs a new name, never a changed one. */
  private static final String FORMAT_NAME = "QuarryStoredFieldsUncompressed";

  /**
   * Bytes per block: a block's header (its documents' lengths) is decoded whenever a search reads a
   * chunk from another block, so blocks stay small; decompression no longer sets their size.
   */
  private static final int BLOCK_BYTES = 16 * 1024;

  private static final int MAX_DOCS_PER_BLOCK = 128;

  /** Lucene's own default for the block index's shift. */
  private static final int BLOCK_SHIFT = 10;

  private static final CompressionMode MODE =
      new CompressionMode() {
        @Override
        public Compressor newCompressor() {
          return new Compressor() {
            @Override
            public void compress(ByteBuffersDataInput buffersInput, DataOutput out)
                throws IOException {
              out.copyBytes(buffersInput, buffersInput.length());
            }

            @Override
            public void close() {}
          };
        }

        @Override
        public Decompressor newDecompressor() {
          return new Copying();
        }

        @Override
        public String toString() {
          return "uncompressed";
        }
      };

  private UncompressedStoredFields() {}

  static Lucene90CompressingStoredFieldsFormat format() {
    return new Lucene90CompressingStoredFieldsFormat(
        FORMAT_NAME, MODE, BLOCK_BYTES, MAX_DOCS_PER_BLOCK, BLOCK_SHIFT);
  }

  /** Reads only the wanted bytes of a block: its {@code offset} bytes before them are skipped. */
  private static final class Copying extends Decompressor {
    @Override
    public void decompress(DataInput in, int originalLength, int offset, int length, BytesRef bytes)
        throws IOException {
      assert offset >= 0 && length >= 0 && offset + length <= originalLength
          : offset + "+" + length + " > " + originalLength;
      in.skipBytes(offset);
      bytes.bytes = ArrayUtil.growNoCopy(bytes.bytes, length);
      in.readBytes(bytes.bytes, 0, length);
      bytes.offset = 0;
      bytes.length = length;
    }

    @Override
    public Decompressor clone() {
      return new Copying();
    }
  }
}
