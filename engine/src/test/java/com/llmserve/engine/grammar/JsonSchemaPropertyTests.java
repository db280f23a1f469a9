package com.llmserve.engine.grammar;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random texts generated through a schema's grammar, the way a model would be constrained, must
 * all parse as JSON and validate against the schema.
 */
class JsonSchemaPropertyTests {

    private static final int SAMPLES = 250;

    /** An extraction schema: nested object, array of objects, enums, a pattern, a date. */
    private static final String INVOICE = """
            {"type": "object",
             "properties": {
               "invoice_id": {"type": "string", "pattern": "^INV-[0-9]{4,6}$"},
               "date": {"type": "string", "format": "date"},
               "vendor": {"type": "object",
                          "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 40},
                                         "country": {"enum": ["US", "DE", "FR", null]}},
                          "required": ["name"]},
               "lines": {"type": "array", "minItems": 1, "maxItems": 5,
                         "items": {"type": "object",
                                   "properties": {"sku": {"type": "string"},
                                                  "qty": {"type": "integer", "minimum": 1, "maximum": 999},
                                                  "price": {"type": "number", "minimum": 0}},
                                   "required": ["sku", "qty"],
                                   "additionalProperties": false}},
               "status": {"enum": ["paid", "open", "void"]},
               "total": {"type": "number"},
               "notes": {"type": ["string", "null"]}},
             "required": ["invoice_id", "vendor", "lines", "status"],
             "additionalProperties": false}
            """;

    /** A recursive tree through $defs. */
    private static final String TREE = """
            {"$ref": "#/$defs/node",
             "$defs": {"node": {"type": "object",
                                "properties": {"label": {"type": "string", "maxLength": 8},
                                               "weight": {"type": "integer", "minimum": -50, "maximum": 50},
                                               "children": {"type": "array", "items": {"$ref": "#/$defs/node"},
                                                            "maxItems": 3}},
                                "required": ["label"]}}}
            """;

    /** Optional fields everywhere, further keys allowed, formats, const, anyOf. */
    private static final String EVENT = """
            {"type": "object",
             "properties": {
               "id": {"type": "string", "format": "uuid"},
               "kind": {"const": "event"},
               "at": {"type": "string", "format": "date-time"},
               "tags": {"type": "array", "items": {"type": "string", "maxLength": 10}, "uniqueItems": false},
               "score": {"anyOf": [{"type": "integer", "exclusiveMinimum": 0}, {"type": "null"}]},
               "meta": {"type": "object", "additionalProperties": {"type": ["integer", "boolean"]}}},
             "required": ["kind"],
             "additionalProperties": {"type": "string", "maxLength": 5}}
            """;

    /** Tool arguments: a tuple, a time, oneOf between closed objects, a free value. */
    private static final String TOOL = """
            {"type": "object",
             "properties": {
               "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}],
                         "items": false, "minItems": 2},
               "when": {"type": "string", "format": "time"},
               "shape": {"oneOf": [
                   {"type": "object", "properties": {"circle": {"type": "number", "minimum": 0, "maximum": 100}},
                    "required": ["circle"], "additionalProperties": false},
                   {"type": "object", "properties": {"square": {"type": "integer"}},
                    "required": ["square"], "additionalProperties": false}]},
               "any": {}},
             "required": ["point", "shape"]}
            """;

    static List<String> schemas() {
        return List.of(INVOICE, TREE, EVENT, TOOL);
    }

    @ParameterizedTest
    @MethodSource("schemas")
    void generatedTextsAreJsonThatValidates(String schemaText) {
        Object schema = Schemas.json(schemaText);
        Grammar grammar = JsonSchemaGrammar.compile(schema);
        SchemaValidator validator = new SchemaValidator(schema);
        GrammarWalker walker = new GrammarWalker(grammar, schemaText.hashCode(), 300);
        Set<String> distinct = new HashSet<>();
        for (int i = 0; i < SAMPLES; i++) {
            String text = walker.next();
            distinct.add(text);
            assertThat(grammar.matches(text)).as(text).isTrue();
            Object instance = Schemas.json(text);
            assertThat(validator.errors(instance)).as(text).isEmpty();
        }
        assertThat(distinct).hasSizeGreaterThan(SAMPLES * 9 / 10);
    }

    /** The schemas whose top object has no further keys, which a random walk would mostly take. */
    static List<String> closedSchemas() {
        return List.of(INVOICE, TOOL);
    }

    @ParameterizedTest
    @MethodSource("closedSchemas")
    @SuppressWarnings("unchecked")
    void everyPropertyIsGeneratedAndRequiredOnesAlways(String schemaText) {
        Map<String, Object> schema = (Map<String, Object>) Schemas.json(schemaText);
        Set<String> seen = new HashSet<>();
        Set<String> missed = new HashSet<>();
        GrammarWalker walker = new GrammarWalker(JsonSchemaGrammar.compile(schema), 7, 300);
        for (int i = 0; i < 100; i++) {
            Map<?, ?> instance = (Map<?, ?>) Schemas.json(walker.next());
            for (String p : ((Map<String, ?>) schema.get("properties")).keySet()) {
                (instance.containsKey(p) ? seen : missed).add(p);
            }
        }
        List<?> required = (List<?>) schema.get("required");
        assertThat(seen).containsAll(((Map<String, ?>) schema.get("properties")).keySet());
        assertThat(missed)
                .doesNotContainAnyElementsOf(
                        required.stream().map(String::valueOf).toList());
    }
}
