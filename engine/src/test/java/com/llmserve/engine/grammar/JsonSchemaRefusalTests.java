package com.llmserve.engine.grammar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Schemas the compiler cannot honour are refused, with the keyword and where it is. */
class JsonSchemaRefusalTests {

    static Stream<Arguments> unsupported() {
        return Stream.of(
                Arguments.of("{\"properties\": {\"a\": {\"not\": {\"type\": \"string\"}}}}", "not", "#/properties/a"),
                Arguments.of("{\"if\": {\"type\": \"string\"}, \"then\": {\"minLength\": 1}}", "if", "#"),
                Arguments.of(
                        "{\"type\": \"array\", \"items\": {\"patternProperties\": {\"^x\": {}}}}",
                        "patternProperties",
                        "#/items"),
                Arguments.of("{\"dependentRequired\": {\"a\": [\"b\"]}}", "dependentRequired", "#"),
                Arguments.of("{\"dependentSchemas\": {\"a\": {}}}", "dependentSchemas", "#"),
                Arguments.of("{\"propertyNames\": {\"maxLength\": 3}}", "propertyNames", "#"),
                Arguments.of("{\"type\": \"object\", \"unevaluatedProperties\": false}", "unevaluatedProperties", "#"),
                Arguments.of("{\"type\": \"array\", \"contains\": {\"type\": \"integer\"}}", "contains", "#"),
                Arguments.of("{\"type\": \"array\", \"uniqueItems\": true}", "uniqueItems", "#"),
                Arguments.of("{\"type\": \"integer\", \"multipleOf\": 5}", "multipleOf", "#"),
                Arguments.of("{\"type\": \"object\", \"minProperties\": 1}", "minProperties", "#"),
                Arguments.of("{\"type\": \"object\", \"maxProperties\": 3}", "maxProperties", "#"),
                Arguments.of(
                        "{\"properties\": {\"e\": {\"type\": \"string\", \"format\": \"email\"}}}",
                        "format",
                        "#/properties/e"),
                Arguments.of("{\"properties\": {\"a/b\": {\"not\": {}}}}", "not", "#/properties/a~1b"),
                Arguments.of("{\"anyOf\": [{\"type\": \"null\"}, {\"not\": {}}]}", "not", "#/anyOf/1"),
                Arguments.of(
                        "{\"$ref\": \"#/$defs/p\", \"$defs\": {\"p\": {\"type\": \"string\", \"pattern\": \"(?=a)\"}}}",
                        "pattern",
                        "#/$defs/p"),
                Arguments.of(
                        "{\"properties\": {\"r\": {\"$ref\": \"https://example.com/s.json\"}}}",
                        "$ref",
                        "#/properties/r"),
                Arguments.of("{\"$ref\": \"#anchor\"}", "$ref", "#"),
                Arguments.of("{\"anyOf\": [{}], \"oneOf\": [{}]}", "oneOf", "#"),
                Arguments.of("{\"enum\": [\"a\", \"bb\"], \"minLength\": 2}", "minLength", "#"),
                Arguments.of("{\"type\": \"string\", \"pattern\": \"^a+$\", \"maxLength\": 3}", "maxLength", "#"),
                Arguments.of("{\"type\": \"string\", \"format\": \"date\", \"minLength\": 3}", "minLength", "#"),
                Arguments.of("{\"allOf\": [{\"pattern\": \"a\"}, {\"pattern\": \"b\"}]}", "allOf", "#"),
                Arguments.of("{\"allOf\": [{\"anyOf\": [{}]}, {\"anyOf\": [{}]}]}", "allOf", "#"),
                Arguments.of("{\"allOf\": [{\"type\": \"string\"}, {\"not\": {}}]}", "not", "#/allOf/1"),
                Arguments.of("{\"type\": \"number\", \"minimum\": 0.1, \"maximum\": 0.9}", "minimum", "#"),
                Arguments.of("{\"$dynamicRef\": \"#node\"}", "$dynamicRef", "#"),
                Arguments.of("""
                        {"allOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}],
                         "$defs": {"a": {"properties": {"c": {"$ref": "#/$defs/a"}}},
                                   "b": {"properties": {"c": {"$ref": "#/$defs/b"}}}}}
                        """, "allOf", "#"));
    }

    @ParameterizedTest
    @MethodSource("unsupported")
    void unsupportedKeywordsAreNamedWithTheirPath(String schema, String keyword, String path) {
        assertThatThrownBy(() -> JsonSchemaGrammar.compile(Schemas.json(schema)))
                .isInstanceOf(UnsupportedSchemaException.class)
                .hasMessageStartingWith("unsupported JSON Schema keyword '" + keyword + "' at " + path)
                .satisfies(e -> {
                    UnsupportedSchemaException u = (UnsupportedSchemaException) e;
                    assertThat(u.keyword()).isEqualTo(keyword);
                    assertThat(u.path()).isEqualTo(path);
                });
    }

    @Test
    void theMessageReadsPlainly() {
        assertThatThrownBy(() -> JsonSchemaGrammar.compile(Schemas.json("{\"properties\": {\"a\": {\"not\": {}}}}")))
                .hasMessage("unsupported JSON Schema keyword 'not' at #/properties/a");
    }

    static Stream<String> unsupportedPatterns() {
        return Stream.of(
                "(?=a)", "(?!a)", "(?<=a)b", "(a)\\1", "\\bword", "\\p{L}", "(a*)*", "[z-a]", "a{3,1}", "(", "a)",
                "a^b", "a$b", "[]");
    }

    @ParameterizedTest
    @MethodSource("unsupportedPatterns")
    void patternsOutsideTheSubsetAreRefused(String pattern) {
        assertThatThrownBy(() -> JsonSchemaGrammar.compile(Map.of("type", "string", "pattern", pattern)))
                .isInstanceOf(UnsupportedSchemaException.class)
                .hasMessageContaining("'pattern' at #")
                .hasMessageContaining(pattern);
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("{\"type\": \"strin\"}", "'type' at # names no JSON type: \"strin\""),
                Arguments.of("{\"$ref\": \"#/$defs/missing\"}", "$ref '#/$defs/missing' at # does not resolve"),
                Arguments.of("{\"properties\": []}", "'properties' at # must be an object"),
                Arguments.of(
                        "{\"type\": \"string\", \"minLength\": -1}", "'minLength' at # must be a non-negative integer"),
                Arguments.of("{\"type\": \"object\", \"required\": \"a\"}", "'required' at # must be an array"),
                Arguments.of("false", "the schema at # is false"),
                Arguments.of(
                        "{\"properties\": {\"a\": 3}}", "the schema at #/properties/a must be an object or a boolean"),
                Arguments.of("{\"enum\": []}", "'enum' at # must be a non-empty array"),
                Arguments.of(
                        "{\"type\": \"integer\", \"minimum\": 5, \"maximum\": 4}",
                        "no integer lies within the bounds at #"),
                Arguments.of("{\"type\": \"array\", \"minItems\": 3, \"maxItems\": 2}", "no array satisfies"),
                Arguments.of(
                        "{\"enum\": [1, 2], \"type\": \"string\"}", "no value of 'enum' at # satisfies the schema"),
                Arguments.of(
                        "{\"type\": \"object\", \"required\": [\"a\"], \"additionalProperties\": false}",
                        "property 'a' at # is required but not declared"),
                Arguments.of("{\"allOf\": [{\"type\": \"string\"}, {\"type\": \"integer\"}]}", "allow no common type"),
                Arguments.of(
                        "{\"$defs\": {\"a\": {\"$ref\": \"#/$defs/a\"}}, \"$ref\": \"#/$defs/a\"}", "left-recursive"),
                Arguments.of("{\"anyOf\": [false]}", "no alternative of the anyOf at # can be satisfied"),
                Arguments.of(
                        "{\"$defs\": {\"a\": {\"allOf\": [{\"$ref\": \"#/$defs/a\"}]}}, \"$ref\": \"#/$defs/a\"}",
                        "refers to itself without consuming input"),
                Arguments.of("""
                        {"$defs": {"n": {"anyOf": [{"$ref": "#/$defs/n", "maxLength": 3}, {"type": "null"}]}},
                         "$ref": "#/$defs/n"}
                        """, "levels deep"),
                Arguments.of("{\"items\": ".repeat(300) + "{}" + "}".repeat(300), "nests more than 256 levels deep"));
    }

    @ParameterizedTest
    @MethodSource("invalid")
    void invalidSchemasSayWhatIsWrong(String schema, String message) {
        assertThatThrownBy(() -> JsonSchemaGrammar.compile(Schemas.json(schema)))
                .isInstanceOf(GrammarException.class)
                .isNotInstanceOf(UnsupportedSchemaException.class)
                .hasMessageContaining(message);
    }
}
