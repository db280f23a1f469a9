package com.llmserve.engine.grammar;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class JsonSchemaGrammarTests {

    /** A schema, texts its grammar must accept, and texts it must refuse. */
    record Case(String name, String schema, List<String> valid, List<String> invalid) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case(
                        "nested objects",
                        """
                        {"type": "object",
                         "properties": {"user": {"type": "object",
                                                 "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
                                                 "required": ["name", "age"]},
                                        "active": {"type": "boolean"}},
                         "required": ["user", "active"]}
                        """,
                        List.of(
                                "{\"user\":{\"name\":\"Ann\",\"age\":31},\"active\":true}",
                                "{ \"user\" : { \"name\" : \"A\\\"nn\" , \"age\" : -3 } ,\n  \"active\" : false }\n"),
                        List.of(
                                "{\"user\":{\"name\":\"Ann\",\"age\":31}}",
                                "{\"active\":true,\"user\":{\"name\":\"Ann\",\"age\":31}}",
                                "{\"user\":{\"name\":\"Ann\",\"age\":3.5},\"active\":true}",
                                "{\"user\":{\"name\":\"Ann\",\"age\":31},\"active\":true,\"x\":1}",
                                "{\"user\":{\"name\":\"Ann\",\"age\":31,},\"active\":true}",
                                " {\"user\":{\"name\":\"Ann\",\"age\":31},\"active\":true}")),
                new Case(
                        "array with min and max items",
                        """
                        {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 4}
                        """,
                        List.of("[1,2]", "[1,2,3,4]", "[ 1 , 2 ]"),
                        List.of("[]", "[1]", "[1,2,3,4,5]", "[1,2,]", "[\"a\",1]")),
                new Case(
                        "tuple then items",
                        """
                        {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}],
                         "items": {"type": "boolean"}, "maxItems": 4}
                        """,
                        List.of("[]", "[\"a\"]", "[\"a\",1]", "[\"a\",1,true,false]"),
                        List.of("[1]", "[\"a\",\"b\"]", "[\"a\",1,true,false,true]", "[\"a\",1,2]")),
                new Case(
                        "tuple without items ends after its prefix",
                        """
                        {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "minItems": 1}
                        """,
                        List.of("[\"a\"]", "[\"a\",1]"),
                        List.of("[]", "[\"a\",1,true]")),
                new Case(
                        "enum of mixed types",
                        """
                        {"enum": ["red", 1, 2.5, true, null, {"a": [1, 2]}, ["x"], "say \\"hi\\"\\n"]}
                        """,
                        List.of(
                                "\"red\"",
                                "1",
                                "2.5",
                                "true",
                                "null",
                                "{\"a\":[1,2]}",
                                "[\"x\"]",
                                "\"say \\\"hi\\\"\\n\"",
                                "\"red\" "),
                        List.of("\"blue\"", "3", "false", "{\"a\":[1]}", "\"Red\"", "[\"x\",\"y\"]")),
                new Case(
                        "const object",
                        """
                        {"const": {"k": "v", "n": [1, null]}}
                        """,
                        List.of("{\"k\":\"v\",\"n\":[1,null]}"),
                        List.of("{\"k\":\"v\"}", "{\"n\":[1,null],\"k\":\"v\"}")),
                new Case("enum narrowed by type", """
                        {"type": "string", "enum": ["a", 1, "b"]}
                        """, List.of("\"a\"", "\"b\""), List.of("1")),
                new Case("anyOf", """
                        {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "integer", "minimum": 10}]}
                        """, List.of("\"abc\"", "10", "999"), List.of("\"abcd\"", "9", "true")),
                new Case("oneOf as anyOf", """
                        {"oneOf": [{"type": "integer"}, {"type": "string"}]}
                        """, List.of("1", "\"1\""), List.of("null")),
                new Case("type array", """
                        {"type": ["string", "null"], "maxLength": 2}
                        """, List.of("\"x\"", "null"), List.of("1", "\"xyz\"")),
                new Case(
                        "recursive tree through $defs",
                        """
                        {"$ref": "#/$defs/node",
                         "$defs": {"node": {"type": "object",
                                            "properties": {"value": {"type": "integer"},
                                                           "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
                                            "required": ["value"]}}}
                        """,
                        List.of(
                                "{\"value\":1}",
                                "{\"value\":1,\"children\":[]}",
                                "{\"value\":1,\"children\":[{\"value\":2,\"children\":[{\"value\":3}]},{\"value\":4}]}"),
                        List.of("{\"value\":1,\"children\":[{\"children\":[]}]}", "{\"children\":[]}")),
                new Case(
                        "recursion to the root and draft 7 definitions",
                        """
                        {"type": "object",
                         "properties": {"next": {"$ref": "#"}, "v": {"$ref": "#/definitions/v"}},
                         "definitions": {"v": {"type": "boolean"}}}
                        """,
                        List.of("{}", "{\"next\":{\"next\":{}}}", "{\"next\":{\"v\":true},\"v\":false}"),
                        List.of("{\"v\":1}", "{\"next\":1}")),
                new Case(
                        "string lengths count decoded characters",
                        """
                        {"type": "string", "minLength": 2, "maxLength": 3}
                        """,
                        List.of("\"ab\"", "\"a\\nb\"", "\"😀😀\"", "\"\\u00e9x\"", "\"\\/\\\\\""),
                        List.of("\"a\"", "\"abcd\"", "\"\\ud83d\\ude00x\"", "\"a\nb\"", "\"a\\xb\"", "\"a\u0001\"")),
                new Case(
                        "whitespace is bounded",
                        """
                        {"type": "array", "items": {"type": "integer"}}
                        """,
                        List.of("[1,\n" + " ".repeat(20) + "2]", "[1, 2]", "[1,\n\t2]\n"),
                        List.of("[1,\n" + " ".repeat(21) + "2]", "[1,  2]", "[1,\n\n2]", "[1,\t2]")),
                new Case(
                        "additionalProperties schema after the declared properties",
                        """
                        {"type": "object", "properties": {"a": {"type": "integer"}},
                         "additionalProperties": {"type": "string"}}
                        """,
                        List.of(
                                "{}",
                                "{\"a\":1}",
                                "{\"a\":1,\"b\":\"x\"}",
                                "{\"b\":\"x\",\"c\":\"y\"}",
                                "{\"ab\":\"x\"}"),
                        List.of("{\"a\":1,\"a\":\"x\"}", "{\"a\":\"x\"}", "{\"b\":1}", "{\"b\":\"x\",\"a\":1}")),
                new Case(
                        "additionalProperties true",
                        """
                        {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": true}
                        """,
                        List.of("{\"x\":[1,{\"y\":null}]}", "{\"a\":1,\"b\":{}}"),
                        List.of("{\"a\":\"1\"}")),
                new Case(
                        "no additionalProperties: no further keys",
                        """
                        {"properties": {"a": {"type": "integer"}}}
                        """,
                        List.of("{}", "{\"a\":1}"),
                        List.of("{\"b\":1}", "1")),
                new Case(
                        "type object alone: any object",
                        """
                        {"type": "object"}
                        """,
                        List.of("{}", "{\"a\":[1,\"b\",{\"c\":null}],\"d\":-1.5e3}"),
                        List.of("[]", "\"{}\"")),
                new Case(
                        "required but not declared",
                        """
                        {"type": "object", "required": ["id"]}
                        """,
                        List.of("{\"id\":1}", "{\"id\":{\"x\":[]}}"),
                        List.of("{}", "{\"other\":1}")),
                new Case(
                        "allOf merges objects",
                        """
                        {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                                   {"properties": {"b": {"type": "integer"}}, "required": ["b"]}]}
                        """,
                        List.of("{\"a\":\"x\",\"b\":1}"),
                        List.of("{\"a\":\"x\"}", "{\"b\":1}")),
                new Case(
                        "allOf keeps a closed object closed",
                        """
                        {"allOf": [{"properties": {"a": {"type": "string"}}, "additionalProperties": false},
                                   {"properties": {"b": {"type": "integer"}}}]}
                        """,
                        List.of("{}", "{\"a\":\"x\"}"),
                        List.of("{\"a\":\"x\",\"b\":1}")),
                new Case("allOf of one $ref", """
                        {"allOf": [{"$ref": "#/$defs/x"}], "$defs": {"x": {"type": "integer", "maximum": 5}}}
                        """, List.of("5", "-12"), List.of("6")),
                new Case(
                        "$ref with constraining siblings", """
                        {"$ref": "#/$defs/s", "maxLength": 2, "$defs": {"s": {"type": "string", "minLength": 1}}}
                        """, List.of("\"a\"", "\"ab\""), List.of("\"\"", "\"abc\"")),
                new Case(
                        "anyOf with siblings that apply to every alternative",
                        """
                        {"type": "object", "properties": {"kind": {"type": "string"}}, "required": ["kind"],
                         "anyOf": [{"properties": {"x": {"type": "integer"}}, "required": ["x"]},
                                   {"properties": {"y": {"type": "boolean"}}, "required": ["y"]}]}
                        """,
                        List.of("{\"kind\":\"a\",\"x\":1}", "{\"kind\":\"a\",\"y\":true}"),
                        List.of("{\"kind\":\"a\"}", "{\"x\":1}")),
                new Case("keywords imply the type", """
                        {"minLength": 2, "title": "t", "description": "d", "default": "xx", "examples": ["ab"]}
                        """, List.of("\"ab\""), List.of("\"a\"", "12")),
                new Case(
                        "annotations and unknown keywords are ignored", """
                        {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "urn:x", "$comment": "c",
                         "type": "boolean", "deprecated": true, "readOnly": true, "writeOnly": false,
                         "nullable": true, "strict": true, "x-vendor": {"not": 1}}
                        """, List.of("true", "false"), List.of("null")),
                new Case(
                        "empty schema: any value",
                        "{}",
                        List.of("1", "\"a\"", "[{}]", "null", "{\"a\":[true]}"),
                        List.of("", "nul", "01", "[1,]")),
                new Case("true: any value", "true", List.of("-0.5E+12", "[]"), List.of("{", "'a'")));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void acceptsTheValidAndRefusesTheInvalid(Case c) {
        Grammar g = JsonSchemaGrammar.compile(Schemas.json(c.schema()));
        for (String text : c.valid()) {
            assertThat(g.matches(text)).as("should accept %s", text).isTrue();
        }
        for (String text : c.invalid()) {
            assertThat(g.matches(text)).as("should refuse %s", text).isFalse();
        }
    }

    @Test
    void optionalPropertiesInEverySubsetKeepDeclaredOrderAndCommas() {
        // b, c and e optional; a and d required; in declared order, any subset of the optional ones
        Grammar g = JsonSchemaGrammar.compile(Schemas.json("""
                {"type": "object",
                 "properties": {"b": {"type": "integer"}, "a": {"type": "integer"}, "c": {"type": "integer"},
                                "d": {"type": "integer"}, "e": {"type": "integer"}},
                 "required": ["a", "d"]}
                """));
        List<String> names = List.of("b", "a", "c", "d", "e");
        for (int subset = 0; subset < 32; subset++) {
            Map<String, Integer> members = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) {
                if ((subset & (1 << i)) != 0) {
                    members.put(names.get(i), i);
                }
            }
            String text = object(members);
            boolean hasRequired = members.containsKey("a") && members.containsKey("d");
            assertThat(g.matches(text)).as(text).isEqualTo(hasRequired);
        }
        assertThat(g.matches("{\"a\":1,\"b\":0,\"d\":3}")).isFalse();
        assertThat(g.matches("{,\"a\":1,\"d\":3}")).isFalse();
        assertThat(g.matches("{\"a\":1,,\"d\":3}")).isFalse();
        assertThat(g.matches("{\"a\":1,\"d\":3,}")).isFalse();
    }

    @Test
    void allOptionalPropertiesAllowTheEmptyObjectAndEverySubset() {
        Grammar g = JsonSchemaGrammar.compile(Schemas.json("""
                {"type": "object", "properties": {"x": {"type": "null"}, "y": {"type": "null"}, "z": {"type": "null"}},
                 "additionalProperties": false}
                """));
        List<String> names = List.of("x", "y", "z");
        for (int subset = 0; subset < 8; subset++) {
            List<String> members = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) {
                if ((subset & (1 << i)) != 0) {
                    members.add("\"" + names.get(i) + "\":null");
                }
            }
            assertThat(g.matches("{" + String.join(",", members) + "}")).isTrue();
        }
    }

    @Test
    void rulesEmbedInAToolCallGrammar() {
        JsonSchemaGrammar.Rules args = JsonSchemaGrammar.rules(Schemas.json("""
                        {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
                        """), "weather-");
        assertThat(args.root()).isEqualTo("weather-root");
        assertThat(args.rules().keySet()).allMatch(name -> name.startsWith("weather-"));
        Map<String, Expr> rules = new LinkedHashMap<>(args.rules());
        rules.put(
                "root",
                Expr.seq(
                        Expr.literal("<tool_call>{\"name\": \"weather\", \"arguments\": "),
                        Expr.ref(args.root()),
                        Expr.literal("}</tool_call>")));
        Grammar g = Grammar.of(rules, "root");
        assertThat(g.matches("<tool_call>{\"name\": \"weather\", \"arguments\": {\"city\": \"Oslo\"}}</tool_call>"))
                .isTrue();
        assertThat(g.matches("<tool_call>{\"name\": \"weather\", \"arguments\": {}}</tool_call>"))
                .isFalse();
    }

    @Test
    void twoSchemasWithDifferentPrefixesShareAGrammar() {
        JsonSchemaGrammar.Rules a = JsonSchemaGrammar.rules(Schemas.json("{\"type\": \"integer\"}"), "a-");
        JsonSchemaGrammar.Rules b = JsonSchemaGrammar.rules(Schemas.json("{\"type\": \"string\"}"), "b-");
        Map<String, Expr> rules = new LinkedHashMap<>(a.rules());
        rules.putAll(b.rules());
        rules.put("root", Expr.alt(Expr.ref(a.root()), Expr.ref(b.root())));
        Grammar g = Grammar.of(rules, "root");
        assertThat(g.matches("12")).isTrue();
        assertThat(g.matches("\"12\"")).isTrue();
        assertThat(g.matches("true")).isFalse();
    }

    @Test
    void anyJsonObjectIsAnObjectOfAnyDepth() {
        Grammar g = JsonSchemaGrammar.anyJsonObject();
        assertThat(g.matches("{\"a\":{\"b\":[1,2,{\"c\":\"d\"}]},\"e\":null}")).isTrue();
        assertThat(g.matches("[1]")).isFalse();
        assertThat(g.matches("{\"a\":}")).isFalse();
    }

    @Test
    void largeLengthBoundsStayCheap() {
        Grammar g = JsonSchemaGrammar.compile(Schemas.json("{\"type\": \"string\", \"maxLength\": 20000}"));
        assertThat(g.matches("\"" + "x".repeat(20000) + "\"")).isTrue();
        assertThat(g.matches("\"" + "x".repeat(20001) + "\"")).isFalse();
    }

    private static String object(Map<String, Integer> members) {
        List<String> parts = new ArrayList<>();
        members.forEach((k, v) -> parts.add("\"" + k + "\":" + v));
        return "{" + String.join(",", parts) + "}";
    }
}
