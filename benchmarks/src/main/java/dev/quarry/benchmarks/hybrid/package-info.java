/** What hybrid retrieval costs against lexical retrieval: ingest, search latency, memory. */
package dev.quarry.benchmarks.hybrid;
