/**
 * Retrieval-quality evaluation: scores Quarry's rankings on a test collection in BEIR's layout.
 *
 * <p>{@link dev.quarry.app.eval.BeirReader} reads a collection (documents, queries, graded {@link
 * dev.quarry.app.eval.Judgments}), {@link dev.quarry.app.eval.SquadReader} a question answering
 * file in SQuAD's layout (XQuAD's, one per language) as one; {@link dev.quarry.app.eval.Evaluation}
 * indexes it into a fresh corpus through the engine's public {@code CorpusIndex} (the path every
 * application uses, nothing evaluation-only), runs the judged queries and scores each ranking with
 * {@link dev.quarry.app.eval.RankingMetrics} (trec_eval's nDCG@10, Recall@100 and MRR@10); {@link
 * dev.quarry.app.eval.ReportFormat} prints the {@link dev.quarry.app.eval.EvalReport}.
 *
 * <pre>{@code
 * BeirCollection scifact = new BeirReader().read(Path.of("scifact"));
 * EvalReport report = new Evaluation(EngineConfig.defaults())
 *     .run(scifact, CorpusSettings.DEFAULT, Files.createTempDirectory("eval"), Integer.MAX_VALUE);
 * System.out.print(ReportFormat.text(report));
 * }</pre>
 *
 * <p>The command line front is {@code quarry eval} ({@code dev.quarry.app.cli.EvalCommand}). This
 * package knows nothing of HTTP; docs/quality.md records what the figures justified.
 */
package dev.quarry.app.eval;
