package dev.quarry.app.eval;

/** One query's scores: nDCG@10, Recall@100 and MRR@10. */
public record QueryScores(String queryId, double ndcgAt10, double recallAt100, double mrrAt10) {}
