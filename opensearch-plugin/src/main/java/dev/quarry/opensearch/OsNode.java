package dev.quarry.opensearch;

import dev.quarry.opensearch.scoring.QuarryScoringPlugin;
import org.opensearch.analysis.common.CommonAnalysisModulePlugin;
import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.index.mapper.MapperExtrasModulePlugin;
import org.opensearch.index.reindex.ReindexModulePlugin;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.painless.PainlessModulePlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.plugins.PluginInfo;
import org.opensearch.transport.Netty4ModulePlugin;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.opensearch.Version;

/**
 * Starts a real OpenSearch node (no Bootstrap, no security policy) whose "modules" are
 * loaded from the classpath instead of $HOME/modules.
 *
 * Usage: java -cp 'target/classes:target/lib/*' dev.quarry.opensearch.OsNode -Epath.home=DIR -Ehttp.port=9200 ...
 * If DIR/config/opensearch.yml exists it is read (command-line -E settings win).
 * If DIR/config/log4j2.properties exists it is used, else console logging at INFO.
 *
 * <p>For the cluster store's tests only: the node runs without OpenSearch's security sandbox (its
 * agent jar is not on Maven Central), so keep it on loopback. Production clusters use the
 * OpenSearch distribution.
 */
public final class OsNode {

    /** Node subclass exposing the protected constructor that takes classpath plugins. */
    static final class ClasspathPluginNode extends Node {
        ClasspathPluginNode(Environment env, Collection<Class<? extends Plugin>> plugins) {
            super(env, toInfos(plugins), true);
        }

        private static List<PluginInfo> toInfos(Collection<Class<? extends Plugin>> plugins) {
            List<PluginInfo> infos = new ArrayList<>();
            for (Class<? extends Plugin> p : plugins) {
                String name = p == QuarryScoringPlugin.class ? QuarryScoringPlugin.NAME : p.getName();
                infos.add(new PluginInfo(name, "classpath plugin", "NA", Version.CURRENT,
                    "21", p.getName(), null, List.of(), false));
            }
            return infos;
        }
    }

    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        Settings.Builder cli = Settings.builder();
        for (String a : args) {
            if (!a.startsWith("-E")) throw new IllegalArgumentException("expected -Ekey=value, got " + a);
            String kv = a.substring(2);
            int i = kv.indexOf('=');
            cli.put(kv.substring(0, i), kv.substring(i + 1));
        }
        Settings cliSettings = cli.build();
        if (cliSettings.get("path.home") == null) throw new IllegalArgumentException("-Epath.home is required");
        Path home = Path.of(cliSettings.get("path.home")).toAbsolutePath();
        Path configDir = home.resolve("config");
        Files.createDirectories(configDir);

        Environment env = InternalSettingsPreparer.prepareEnvironment(cliSettings, Map.of(), configDir, () -> "localhost");
        LogConfigurator.registerErrorListener();
        LogConfigurator.setNodeName(Node.NODE_NAME_SETTING.get(env.settings()));
        if (Files.exists(configDir.resolve("log4j2.properties"))) {
            LogConfigurator.configure(env);
        } else {
            LogConfigurator.configureWithoutConfig(env.settings());
        }

        List<Class<? extends Plugin>> plugins = new ArrayList<>(List.of(Netty4ModulePlugin.class, CommonAnalysisModulePlugin.class,
            MapperExtrasModulePlugin.class, ReindexModulePlugin.class));
        if (!Boolean.getBoolean("quarry.opensearch.noPainless")) plugins.add(PainlessModulePlugin.class);
        // Quarry's exact scoring (the quarry_bm25f query), as a cluster for exact scores has it installed.
        if (!Boolean.getBoolean("quarry.opensearch.noScoringPlugin")) plugins.add(QuarryScoringPlugin.class);

        Node node = new ClasspathPluginNode(env, plugins);
        CountDownLatch keepAlive = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
                node.awaitClose(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                keepAlive.countDown();
            }
        }, "os-shutdown"));
        node.start();
        System.out.printf("OSNODE: node %s started in %d ms%n", Node.NODE_NAME_SETTING.get(env.settings()),
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        keepAlive.await();
    }
}
