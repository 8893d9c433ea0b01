/**
 * What the harness prints: {@link dev.quarry.benchmarks.report.ResultTable} puts Quarry and raw
 * Lucene side by side with their ratio, from JMH results and the {@link
 * dev.quarry.benchmarks.report.Footprint}s that {@link dev.quarry.benchmarks.report.FootprintProbe}
 * measures; {@link dev.quarry.benchmarks.report.Environment} names the machine they were measured
 * on.
 */
package dev.quarry.benchmarks.report;
