package dev.quarry.benchmarks.report;

import dev.quarry.benchmarks.contender.ContenderKind;

/**
 * What an open index costs: heap held after a full GC and bytes on disk, for {@code chunks} chunks.
 *
 * @param heapBytes heap in use with the index open and searched, minus heap in use before it was
 *     opened, both after {@code System.gc()}; approximate, since the JVM may keep garbage
 */
public record Footprint(ContenderKind contender, long chunks, long heapBytes, long diskBytes) {
  public double heapBytesPerChunk() {
    return (double) heapBytes / chunks;
  }

  public double diskBytesPerChunk() {
    return (double) diskBytes / chunks;
  }
}
