package dev.quarry.corpora;

import java.util.List;

/**
 * A page of corpora in name order; {@code nextCursor} is null on the last page.
 *
 * @quarry.stable
 */
public record CorpusListPage(List<CorpusDescription> corpora, String nextCursor) {
  public CorpusListPage {
    corpora = List.copyOf(corpora);
  }
}
