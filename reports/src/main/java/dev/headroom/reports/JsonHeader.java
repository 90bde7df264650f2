package dev.headroom.reports;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The opening every result file shares: its {@code schema} and the {@code tool} that wrote it. */
final class JsonHeader {
    private JsonHeader() {}

    /** A new root object holding {@code schema} and {@code tool{name, version}}, in that order. */
    static ObjectNode root(String schema, String toolVersion) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("schema", schema);
        ObjectNode tool = root.putObject("tool");
        tool.put("name", "headroom");
        tool.put("version", toolVersion);
        return root;
    }
}
