package dev.headroom.reports.plan;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.headroom.model.BadInputException;
import dev.headroom.model.IoReason;
import dev.headroom.model.Nearest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads a plan input file and validates its values; every error names the file, the key and the bad value. */
final class Yaml {
    /** A key given twice is an error, not "the last one wins". */
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build());

    private final Path file;

    private Yaml(Path file) {
        this.file = file;
    }

    /** The file's root node, a mapping; errors name the file. */
    static Node read(Path file) {
        Node root = readAny(file);
        if (!root.json.isObject()) throw new BadInputException(file + ": expected a YAML mapping at the top");
        return root;
    }

    /** The file's root node, a mapping or a list; errors name the file. */
    static Node readAny(Path file) {
        if (!Files.isRegularFile(file)) throw new BadInputException(file + ": no such file");
        try {
            JsonNode root = YAML.readTree(file.toFile());
            if (root == null || !(root.isObject() || root.isArray())) {
                throw new BadInputException(file + ": expected a YAML mapping or list at the top");
            }
            return new Yaml(file).new Node(root, "");
        } catch (IOException e) {
            throw new BadInputException(file + ": " + IoReason.parsing(e, "YAML"));
        }
    }

    /** A node and its path in the file, for error messages. */
    final class Node {
        final JsonNode json;
        final String path;

        Node(JsonNode json, String path) {
            this.json = json;
            this.path = path;
        }

        Path file() {
            return file;
        }

        /**
         * Whether the key is given. A key written with no value ({@code utilization_target:} or {@code ~}) is refused,
         * not read as left out: its default would stand in for a value the user meant to give.
         */
        boolean has(String key) {
            if (!json.has(key)) return false;
            if (json.get(key).isNull()) throw bad(key, "has no value; give one, or leave the key out for its default");
            return true;
        }

        Node get(String key) {
            if (!has(key)) throw bad(key, "is missing");
            return new Node(json.get(key), where(key));
        }

        List<Node> list(String key) {
            return get(key).items();
        }

        /** This node's items; it must be a list. */
        List<Node> items() {
            if (!json.isArray()) throw error("must be a list");
            List<Node> out = new ArrayList<>();
            for (int i = 0; i < json.size(); i++) out.add(new Node(json.get(i), path + "[" + i + "]"));
            return out;
        }

        String text(String key) {
            Node n = get(key);
            if (!n.json.isValueNode()) throw n.error("must be a value, got " + n.json);
            return n.json.asText();
        }

        String text(String key, String dflt) {
            return has(key) ? text(key) : dflt;
        }

        /** A value, or a list of values joined with ", " (e.g. SLOs written either way). */
        String texts(String key, String dflt) {
            if (!has(key)) return dflt;
            Node n = get(key);
            if (!n.json.isArray()) return text(key);
            List<String> parts = new ArrayList<>();
            for (JsonNode item : n.json) {
                if (!item.isValueNode()) throw n.error("must be a value or a list of values, got " + n.json);
                parts.add(item.asText());
            }
            return String.join(", ", parts);
        }

        double number(String key) {
            Node n = get(key);
            if (!n.json.isNumber()) throw n.error("must be a number, got " + n.json);
            return n.json.asDouble();
        }

        double number(String key, double dflt) {
            return has(key) ? number(key) : dflt;
        }

        int integer(String key, int dflt) {
            if (!has(key)) return dflt;
            Node n = get(key);
            if (!n.json.canConvertToInt() || !n.json.isIntegralNumber())
                throw n.error("must be a whole number, got " + n.json);
            return n.json.asInt();
        }

        double[] numbers(String key) {
            Node n = get(key);
            if (!n.json.isArray()) throw n.error("must be a list of numbers");
            double[] v = new double[n.json.size()];
            for (int i = 0; i < v.length; i++) {
                if (!n.json.get(i).isNumber()) throw n.error("item " + i + " must be a number, got " + n.json.get(i));
                v[i] = n.json.get(i).asDouble();
            }
            return v;
        }

        /**
         * Refuses any key of this mapping not among {@code valid}, naming the nearest valid one: a misspelt key
         * ({@code utilisation_target}) would otherwise be ignored and its default used without a word.
         */
        void keys(String... valid) {
            List<String> known = List.of(valid);
            for (var it = json.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (known.contains(k)) continue;
                throw bad(
                        k,
                        "is not a key here"
                                + Nearest.didYouMean(k, known, "'")
                                + " (valid: " + String.join(", ", known) + ")");
            }
        }

        BadInputException error(String what) {
            return new Located(file + ": " + (path.isEmpty() ? "" : path + " ") + what);
        }

        BadInputException bad(String key, String what) {
            return new Located(file + ": " + where(key) + " " + what);
        }

        /** Wraps a validation error from a domain type with where it came from. */
        BadInputException wrap(BadInputException e) {
            if (e instanceof Located) return e; // a read of this file's nodes already says where
            return new Located(file + ": " + (path.isEmpty() ? "" : path + ": ") + e.getMessage());
        }

        private String where(String key) {
            return path.isEmpty() ? key : path + "." + key;
        }
    }

    /** An error that already names its file and key. */
    private static final class Located extends BadInputException {
        Located(String message) {
            super(message);
        }
    }
}
