package com.llmserve.app.openai.chat;

import static com.llmserve.engine.grammar.Expr.alt;
import static com.llmserve.engine.grammar.Expr.literal;
import static com.llmserve.engine.grammar.Expr.optional;
import static com.llmserve.engine.grammar.Expr.ref;
import static com.llmserve.engine.grammar.Expr.repeat;
import static com.llmserve.engine.grammar.Expr.seq;

import com.llmserve.app.models.ServedTextModel;
import com.llmserve.app.openai.AnswerGrammars;
import com.llmserve.engine.chat.tools.ToolCallFormat;
import com.llmserve.engine.grammar.Expr;
import com.llmserve.engine.grammar.Grammar;
import com.llmserve.engine.grammar.JsonSchemaGrammar;
import com.llmserve.engine.grammar.TokenAutomaton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Forced tool calls ({@code tool_choice} {@code required} or a named function) as a grammar: the
 * calls written the way the model's format writes them, each naming one of the callable tools
 * and carrying arguments valid against that tool's parameter schema, so even a model that would
 * not call a tool returns a well-formed call. Hermes ({@code <tool_call>} is text in Qwen's and
 * Hermes' vocabularies) and Llama 3 (bare JSON) are forced in their own format. Mistral's
 * {@code [TOOL_CALLS]} and gpt-oss's channel markers are control tokens, which a grammar over
 * text cannot produce: those get bare JSON call objects, read back with
 * {@link ToolCallFormat#LLAMA3}'s reader ({@link #reading}).
 */
final class ToolGrammars {

    /** Forced parallel calls stop here, so a model that never ends cannot call forever. */
    static final int MAX_FORCED_CALLS = 8;

    private ToolGrammars() {}

    static TokenAutomaton forcedCalls(
            AnswerGrammars grammars, ServedTextModel model, ToolUse tools, ToolCallFormat format) {
        String shape = "tools:" + format + ":" + tools.parallel() + ":"
                + grammars.keyOf(tools.callable().stream()
                        .map(t -> List.of(t.name(), t.parameters()))
                        .toList());
        return grammars.cached(model, shape, () -> grammar(tools, format));
    }

    /** The format forced calls come back in: the model's own, or bare JSON objects when it cannot be forced. */
    static ToolCallFormat reading(ToolCallFormat format) {
        return format == ToolCallFormat.HERMES ? format : ToolCallFormat.LLAMA3;
    }

    private static Grammar grammar(ToolUse tools, ToolCallFormat format) {
        Map<String, Expr> rules = new LinkedHashMap<>();
        Expr ws = optional(literal(" "));
        ToolCallFormat written = reading(format);
        List<Expr> functions = new ArrayList<>();
        List<ToolUse.Tool> callable = tools.callable();
        for (int i = 0; i < callable.size(); i++) {
            ToolUse.Tool tool = callable.get(i);
            String prefix = "t" + i + "_";
            JsonSchemaGrammar.Rules args = AnswerGrammars.compile(
                    () -> JsonSchemaGrammar.rules(tool.parameters(), prefix), tool.path() + ".parameters");
            rules.putAll(args.rules());
            functions.add(seq(
                    literal("\"" + tool.name() + "\""), // names are letters, digits and _.:- (ToolUse checks)
                    ws,
                    literal(","),
                    ws,
                    literal("\"" + (written == format ? written.argumentsKey() : "arguments") + "\""),
                    ws,
                    literal(":"),
                    ws,
                    ref(args.root())));
        }
        Expr object =
                seq(literal("{"), ws, literal("\"name\""), ws, literal(":"), ws, alt(functions), ws, literal("}"));
        rules.put("call", seq(literal(written.callPrefix()), object, literal(written.callSuffix())));
        String separator = written == ToolCallFormat.HERMES ? "\n" : "; ";
        rules.put(
                "root",
                tools.parallel()
                        ? seq(ref("call"), repeat(seq(literal(separator), ref("call")), 0, MAX_FORCED_CALLS - 1))
                        : ref("call"));
        return Grammar.of(rules, "root");
    }
}
