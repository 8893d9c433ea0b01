package dev.quarry.benchmarks.contender;

import java.util.List;

/** One raw-Lucene search result: the same provenance a Quarry hit carries. */
record LuceneHit(
    String source,
    long sourceRevision,
    int chunk,
    float score,
    String text,
    List<int[]> highlights,
    String title,
    String mediaType,
    int start,
    int end,
    String contentSha256,
    String metadataJson) {}
