package dev.headroom.cli.bench;

import dev.headroom.sim.engine.Admission;
import dev.headroom.sim.engine.Drift;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;

/**
 * The evaluation benchmarks' truths, kept between runs in {@code target/bench-truths.tsv}: a dense evaluation costs
 * most of a benchmark's time and does not change when only the search does. A truth is keyed by what it measures (the
 * server's whole configuration, its workload and SLO, the kind of truth and its arguments), so a refitted profile or
 * another server is evaluated afresh ({@code -Dbench.truth.file=F} keeps them elsewhere); a change to the simulator's
 * code is not seen in the key, and {@code -Dbench.truth.cache=false} (or deleting the file) evaluates every truth
 * again.
 */
final class TruthCache {
    private static final boolean ENABLED = !"false".equals(System.getProperty("bench.truth.cache"));
    private static final Path FILE = Path.of(System.getProperty("bench.truth.file", "target/bench-truths.tsv"));
    private static final Map<String, Double> VALUES = load();
    private static int hits, misses;

    private TruthCache() {}

    /** The value stored under {@code kind}, {@code what} and {@code args}, or {@code compute}'s, stored. */
    static synchronized double value(String kind, Object what, DoubleSupplier compute, Object... args) {
        // A stationary server's key leaves its drift out, so truths from before servers could drift stay valid; one
        // written with it (by the first version that had it) is read too. vLLM's admission, the default, is left out
        // the same way, as truths came before engines could admit otherwise.
        // Likewise what later engines and models could state and these servers do not: attention data-parallel over
        // one group, an MLA latent stored once, no attention parameters of the model's own, no latent.
        String full = what.toString()
                .replace(", admission=" + Admission.CHUNK, "")
                .replace(", attentionDataParallel=1, mlaCacheKeyAndValue=false]", "]")
                .replace(", attentionParameters=null, kvLatent=null]", "]");
        String k = key(kind, full.replace(", drift=" + Drift.NONE, ""), args);
        Double v = ENABLED ? VALUES.get(k) : null;
        if (v == null && ENABLED) v = VALUES.get(key(kind, full, args));
        if (v != null) {
            hits++;
            return v;
        }
        misses++;
        double computed = compute.getAsDouble();
        VALUES.put(k, computed);
        try {
            Files.createDirectories(FILE.getParent());
            Files.writeString(
                    FILE,
                    k + "\t" + Double.toString(computed) + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return computed;
    }

    private static String key(String kind, String what, Object... args) {
        StringBuilder key = new StringBuilder(kind).append('|').append(digest(what));
        for (Object a : args) key.append('|').append(a);
        return key.toString();
    }

    /** "truths: H from target/bench-truths.tsv, M evaluated": what a benchmark's figures rest on. */
    static synchronized String describe() {
        return String.format(Locale.ROOT, "truths: %d from %s, %d evaluated", hits, FILE, misses);
    }

    private static Map<String, Double> load() {
        Map<String, Double> out = new ConcurrentHashMap<>();
        if (!ENABLED || !Files.isRegularFile(FILE)) return out;
        try {
            for (String line : Files.readAllLines(FILE, StandardCharsets.UTF_8)) {
                int tab = line.lastIndexOf('\t');
                if (tab > 0) out.put(line.substring(0, tab), Double.parseDouble(line.substring(tab + 1)));
            }
        } catch (IOException | NumberFormatException e) {
            out.clear(); // a damaged cache is evaluated afresh
        }
        return out;
    }

    private static String digest(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
