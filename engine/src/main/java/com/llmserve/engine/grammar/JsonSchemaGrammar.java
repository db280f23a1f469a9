package com.llmserve.engine.grammar;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Grammars for JSON that validates against a JSON Schema, for {@code response_format} and tool
 * calls, the way llama.cpp's json-schema-to-grammar builds them. Schemas arrive as plain Java
 * values (maps in key order, lists, strings, numbers, booleans, null): the engine has no JSON
 * library.
 *
 * <p>Supported: {@code type} (one or a list), {@code properties} (generated in declared order),
 * {@code required}, {@code additionalProperties} (absent or false: no further keys are generated;
 * true or a schema: further keys after the declared ones), {@code enum}, {@code const}, {@code
 * anyOf}, {@code oneOf} (as {@code anyOf}), {@code allOf} (merged where the parts combine), local
 * {@code $ref}s (recursive ones included), {@code items}, {@code prefixItems}, {@code
 * additionalItems}, {@code minItems}, {@code maxItems}, {@code minLength}, {@code maxLength},
 * {@code format} (date, time, date-time, uuid), {@code pattern} (a regex subset), and {@code
 * minimum}/{@code maximum}/{@code exclusiveMinimum}/{@code exclusiveMaximum}. Annotations and
 * unknown keywords are ignored; keywords that constrain values otherwise ({@code not}, {@code
 * if}, {@code patternProperties}, {@code multipleOf}, {@code uniqueItems: true}, ...) are refused
 * with an {@link UnsupportedSchemaException} naming the keyword and where it is. {@link
 * SchemaCompiler} says which subset of the valid values each keyword generates.
 */
public final class JsonSchemaGrammar {

    /**
     * A schema's grammar as rules to embed in a larger grammar: {@code root} names the rule of one
     * value (trailing whitespace included); every rule name starts with the prefix given.
     */
    public record Rules(Map<String, Expr> rules, String root) {
        public Rules {
            rules = Collections.unmodifiableMap(new LinkedHashMap<>(rules));
        }
    }

    private JsonSchemaGrammar() {}

    /**
     * The grammar of the JSON texts that validate against {@code schema}.
     *
     * @throws UnsupportedSchemaException for a keyword (or keyword value) the compiler cannot express
     * @throws GrammarException for an invalid schema, an unresolvable {@code $ref}, or one no value satisfies
     */
    public static Grammar compile(Object schema) {
        Rules r = rules(schema, "");
        return Grammar.of(r.rules(), r.root());
    }

    /**
     * The schema's rules, every name starting with {@code prefix}, for embedding, e.g. in {@code
     * <tool_call>{"name": "f", "arguments": <schema>}</tool_call>}. Left recursion is found when
     * the embedding grammar is built.
     */
    public static Rules rules(Object schema, String prefix) {
        return SchemaCompiler.compile(schema, prefix);
    }

    /** Any JSON object: {@code response_format} {@code json_object}. */
    public static Grammar anyJsonObject() {
        return compile(Map.of("type", "object"));
    }
}
