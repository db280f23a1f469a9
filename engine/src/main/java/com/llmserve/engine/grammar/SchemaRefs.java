package com.llmserve.engine.grammar;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Resolves {@code $ref}s within the schema being compiled: {@code #} and JSON pointers such as
 * {@code #/$defs/node} or {@code #/definitions/node}. Other references (other documents, {@code
 * $id}s, anchors) are refused: the engine fetches nothing.
 */
final class SchemaRefs {

    /** The schema a reference points to, and its pointer (which names its rule and its errors). */
    record Target(String pointer, Object schema) {}

    private final Object root;

    SchemaRefs(Object root) {
        this.root = root;
    }

    Target resolve(Object ref, String path) {
        if (!(ref instanceof String s)) {
            throw SchemaKeywords.mustBe("$ref", path, "a string", ref);
        }
        if (!s.equals("#") && !s.startsWith("#/")) {
            throw new UnsupportedSchemaException(
                    "$ref", path, "only references within the schema (#/...) are supported, not '" + s + "'");
        }
        String pointer = URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        Object node = root;
        if (pointer.length() > 1) {
            for (String step : pointer.substring(2).split("/", -1)) {
                node = step(node, step.replace("~1", "/").replace("~0", "~"), s, path);
            }
        }
        if (!SchemaKeywords.isSchema(node)) {
            throw new GrammarException("$ref '" + s + "' at " + path + " does not point to a schema");
        }
        return new Target(pointer, node);
    }

    private static Object step(Object node, String key, String ref, String path) {
        Object next = null;
        if (node instanceof Map<?, ?> m) {
            next = m.get(key);
        } else if (node instanceof List<?> l && key.matches("0|[1-9][0-9]{0,8}") && Integer.parseInt(key) < l.size()) {
            next = l.get(Integer.parseInt(key));
        }
        if (next == null) {
            throw new GrammarException("$ref '" + ref + "' at " + path + " does not resolve");
        }
        return next;
    }
}
