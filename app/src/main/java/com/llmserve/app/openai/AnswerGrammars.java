package com.llmserve.app.openai;

import com.llmserve.app.models.ServedTextModel;
import com.llmserve.engine.grammar.GbnfParser;
import com.llmserve.engine.grammar.Grammar;
import com.llmserve.engine.grammar.GrammarException;
import com.llmserve.engine.grammar.JsonSchemaGrammar;
import com.llmserve.engine.grammar.TokenAutomaton;
import com.llmserve.engine.grammar.TokenTrie;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The grammars answers must follow ({@code response_format}, {@code grammar}, forced tool calls),
 * compiled once per model vocabulary and request shape and kept, least recently used first out:
 * clients send the same schemas and tools again and again, and a kept automaton has also kept
 * the token masks of the states it has seen, which is what makes constrained steps cheap.
 */
@Component
public class AnswerGrammars {

    private static final int CACHE_SIZE = 256;

    private record Key(Tokenizer tokenizer, String shape) {}

    private final Map<Key, TokenAutomaton> cache = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, TokenAutomaton> eldest) {
            return size() > CACHE_SIZE;
        }
    });
    private final JsonMapper json = JsonMapper.builder().build();

    /**
     * The automaton for an output format, or null for free text.
     *
     * @throws InvalidRequestException naming the parameter whose schema or grammar cannot be compiled
     */
    public TokenAutomaton of(ServedTextModel model, OutputFormat format) {
        return switch (format) {
            case OutputFormat.Text t -> null;
            case OutputFormat.JsonObject j -> cached(model, "json_object", JsonSchemaGrammar::anyJsonObject);
            case OutputFormat.JsonSchema s ->
                cached(
                        model,
                        "schema:" + json.writeValueAsString(s.schema()),
                        () -> compile(() -> JsonSchemaGrammar.compile(s.schema()), s.param()));
            case OutputFormat.Gbnf g ->
                cached(model, "gbnf:" + g.grammar(), () -> compile(() -> GbnfParser.parse(g.grammar()), "grammar"));
        };
    }

    /** The automaton of a grammar for a model, built by {@code grammar} unless this shape was seen before. */
    public TokenAutomaton cached(ServedTextModel model, String shape, Supplier<Grammar> grammar) {
        Key key = new Key(model.tokenizer(), shape);
        TokenAutomaton known = cache.get(key);
        if (known != null) {
            return known;
        }
        // compiled outside the lock: two racing requests may both compile; the first one kept wins
        TokenAutomaton made = TokenAutomaton.of(grammar.get(), TokenTrie.of(model.tokenizer()));
        TokenAutomaton raced = cache.putIfAbsent(key, made);
        return raced != null ? raced : made;
    }

    /** Runs a compiler; what it cannot compile becomes a 400 naming {@code param}. */
    public static <T> T compile(Supplier<T> compiler, String param) {
        try {
            return compiler.get();
        } catch (GrammarException e) {
            throw new InvalidRequestException(param, "Invalid '" + param + "': " + e.getMessage(), "invalid_value");
        }
    }

    /** The text of a request value as JSON, for cache keys. */
    public String keyOf(Object plain) {
        return json.writeValueAsString(plain);
    }
}
