package dev.headroom.sim.profile;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.headroom.model.BadInputException;
import dev.headroom.model.Nearest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The hardware and model profiles: those shipped in {@code configs/} (bundled in the jar), or a YAML file
 * given by path.
 */
public final class Profiles {
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .build())
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    private Profiles() {}

    /**
     * A profile as the YAML mapping {@code configs/} holds (keys in snake case, absent optional fields left out): a
     * calibration embeds its profiles so that it is used on any machine, with or without the files it came from.
     */
    public static ObjectNode tree(Record profile) {
        var snake = new PropertyNamingStrategies.SnakeCaseStrategy();
        ObjectNode out = YAML.createObjectNode();
        for (var c : profile.getClass().getRecordComponents()) {
            Object v;
            try {
                v = c.getAccessor().invoke(profile);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read " + c.getName() + " of a profile", e);
            }
            if (v != null) out.set(snake.translate(c.getName()), YAML.valueToTree(v));
        }
        return out;
    }

    /** A profile from a mapping embedded in another file ({@code what} names where, for the messages). */
    public static <T> T fromTree(JsonNode tree, Class<T> type, String what) {
        if (tree == null || !tree.isObject()) {
            throw new BadInputException("profile " + what + ": expected a YAML mapping of keys to values");
        }
        checkKeys(tree, type, what);
        try {
            return YAML.treeToValue(tree, type);
        } catch (JacksonException e) {
            throw new BadInputException("profile " + what + ": " + e.getOriginalMessage());
        }
    }

    /** A bundled hardware profile by name (e.g. {@code h100-sxm}), or a path to a YAML file. */
    public static HardwareProfile hardware(String nameOrPath) {
        return load("hardware", nameOrPath, HardwareProfile.class).validate();
    }

    /** A bundled model profile by name (e.g. {@code llama-3.1-8b}), or a path to a YAML file. */
    public static ModelProfile model(String nameOrPath) {
        return load("models", nameOrPath, ModelProfile.class).validate();
    }

    /** A bundled engine profile by name (e.g. {@code vllm}), or a path to a YAML file. */
    public static EngineProfile engine(String nameOrPath) {
        return load("engines", nameOrPath, EngineProfile.class).validate();
    }

    /** Names of the bundled engine profiles. */
    public static List<String> engineNames() {
        return names("engines");
    }

    /** Names of the bundled hardware profiles. */
    public static List<String> hardwareNames() {
        return names("hardware");
    }

    /** On-demand list price per GPU-hour of every bundled hardware profile, by name (a plan catalog's default). */
    public static Map<String, Double> listPrices() {
        Map<String, Double> prices = new LinkedHashMap<>();
        for (String name : hardwareNames())
            prices.put(name, hardware(name).price().onDemandPerGpuHour());
        return prices;
    }

    /** Names of the bundled model profiles. */
    public static List<String> modelNames() {
        return names("models");
    }

    /** Parses one profile file. */
    public static <T> T parse(Path file, Class<T> type) {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, type, file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static <T> T load(String kind, String nameOrPath, Class<T> type) {
        Path asPath = Path.of(nameOrPath);
        if (nameOrPath.endsWith(".yaml") || nameOrPath.endsWith(".yml")) {
            if (!Files.isRegularFile(asPath)) {
                throw new BadInputException("profile file not found: " + nameOrPath);
            }
            return parse(asPath, type);
        }
        String key = nameOrPath.toLowerCase(Locale.ROOT);
        try (InputStream in = Profiles.class.getResourceAsStream("/configs/" + kind + "/" + key + ".yaml")) {
            if (in == null) {
                String what = switch (kind) {
                    case "models" -> "model";
                    case "engines" -> "engine";
                    default -> "hardware";
                };
                throw new BadInputException("unknown " + what
                        + " profile '" + nameOrPath + "': valid names are " + String.join(", ", names(kind))
                        + " (or a path to a .yaml file)");
            }
            return read(in, type, key);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <T> T read(InputStream in, Class<T> type, String what) throws IOException {
        try {
            JsonNode tree = YAML.readTree(in);
            if (tree == null || !tree.isObject()) {
                throw new BadInputException("profile " + what + ": expected a YAML mapping of keys to values");
            }
            checkKeys(tree, type, what);
            return YAML.treeToValue(tree, type);
        } catch (JacksonException e) {
            throw new BadInputException("profile " + what + ": " + e.getOriginalMessage());
        }
    }

    /** Names an unknown key (a typo) or a missing one before Jackson reports something less helpful. */
    private static void checkKeys(JsonNode tree, Class<?> type, String what) {
        var snake = new PropertyNamingStrategies.SnakeCaseStrategy();
        var known = new LinkedHashMap<String, Class<?>>();
        for (var c : type.getRecordComponents()) known.put(snake.translate(c.getName()), c.getType());
        for (var it = tree.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!known.containsKey(key)) {
                String near = Nearest.didYouMean(key, known.keySet(), "'");
                throw new BadInputException("profile " + what + ": unknown key '" + key + "'"
                        + (near.isEmpty() ? "; valid keys are " + String.join(", ", known.keySet()) : near));
            }
        }
        for (var e : known.entrySet()) {
            if (e.getValue().isPrimitive() && !tree.has(e.getKey())) {
                throw new BadInputException("profile " + what + ": missing key '" + e.getKey() + "'");
            }
        }
    }

    private static List<String> names(String kind) {
        try {
            URI dir = Profiles.class.getResource("/configs/" + kind).toURI();
            if (dir.getScheme().equals("jar")) {
                FileSystem fs;
                try {
                    fs = FileSystems.getFileSystem(dir);
                } catch (FileSystemNotFoundException e) {
                    fs = FileSystems.newFileSystem(dir, Map.of());
                }
                return list(fs.provider().getPath(dir));
            }
            return list(Path.of(dir));
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException("cannot list bundled " + kind + " profiles", e);
        }
    }

    private static List<String> list(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".yaml"))
                    .map(n -> n.substring(0, n.length() - 5))
                    .sorted()
                    .toList();
        }
    }

    static void requirePositive(String profile, String field, double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new BadInputException("profile '" + profile + "': " + field + " must be > 0, got " + v);
        }
    }

    static void requireNonNegative(String profile, String field, double v) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new BadInputException("profile '" + profile + "': " + field + " must be >= 0, got " + v);
        }
    }

    static void requireFraction(String profile, String field, double v) {
        if (!(v > 0 && v <= 1)) {
            throw new BadInputException("profile '" + profile + "': " + field + " must be in (0, 1], got " + v);
        }
    }

    /** A profile's {@code priors}: each key one of {@code terms}, each value in that term's range. */
    static void checkPriors(String profile, java.util.Map<String, Double> priors, java.util.List<StepTerm> terms) {
        if (priors == null) return;
        for (var e : priors.entrySet()) {
            StepTerm t = terms.stream()
                    .filter(x -> x.key().equals(e.getKey()))
                    .findFirst()
                    .orElseThrow(() -> new BadInputException("profile '" + profile + "': priors." + e.getKey()
                            + " is not one of its terms "
                            + terms.stream().map(StepTerm::key).toList()));
            t.check(profile, e.getValue() == null ? Double.NaN : e.getValue());
        }
    }
}
