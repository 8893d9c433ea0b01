import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceOperation;
import java.nio.file.Path;
import java.time.Instant;

/**
 * A host on the module path, run by EngineModulePathIT from source (the unnamed module, which
 * reads every named module): it uses the engine through its exported package only, and prints what
 * the module system says of it. Reopening the index reads its segments through the engine's codec,
 * which Lucene finds only through the descriptor's {@code provides}.
 */
public class ModuleHost {
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    Module engine = CorpusIndex.class.getModule();
    System.out.println("module=" + engine.getName());
    System.out.println("spi exported to this host=" + engine.isExported("dev.quarry.engine.spi"));
    System.out.println("index exported to this host=" + engine.isExported("dev.quarry.engine.index"));
    CorpusInfo info = new CorpusInfo("modules", "modules-id", CorpusSettings.DEFAULT, Instant.EPOCH);
    try (CorpusIndex index = CorpusIndex.open(dir, info, EngineConfig.defaults())) {
      index.apply(
          Mutation.of(
              SourceOperation.Index.text(
                  "doc-1", "Leave", "Parental leave is sixteen weeks.", null),
              "host"));
    }
    try (CorpusIndex index = CorpusIndex.open(dir, info, EngineConfig.defaults())) {
      SearchResult result = index.search(SearchRequest.of("parental leave"));
      System.out.println("hits=" + result.hits().size());
      System.out.println("source=" + result.hits().get(0).source());
    }
  }
}
