package com.llmserve.engine.chat;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.LegacyOverrides;
import com.hubspot.jinjava.el.ExtendedSyntaxBuilder;
import com.hubspot.jinjava.el.JinjavaInterpreterResolver;
import com.hubspot.jinjava.el.JinjavaNodePreProcessor;
import com.hubspot.jinjava.el.TruthyTypeConverter;
import com.hubspot.jinjava.el.ext.AdditionOperator;
import com.hubspot.jinjava.el.ext.ExtendedParser;
import com.hubspot.jinjava.el.ext.NamedParameterOperator;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.fn.ELFunctionDefinition;
import jinjava.de.odysseus.el.ExpressionFactoryImpl;
import jinjava.de.odysseus.el.misc.NumberOperations;
import jinjava.de.odysseus.el.misc.TypeConverter;
import jinjava.de.odysseus.el.tree.TreeStore;
import jinjava.de.odysseus.el.tree.impl.Builder;
import jinjava.de.odysseus.el.tree.impl.Cache;
import jinjava.de.odysseus.el.tree.impl.Parser;
import jinjava.de.odysseus.el.tree.impl.Scanner;
import jinjava.de.odysseus.el.tree.impl.ast.AstBinary;
import jinjava.de.odysseus.el.tree.impl.ast.AstBracket;
import jinjava.de.odysseus.el.tree.impl.ast.AstDot;
import jinjava.de.odysseus.el.tree.impl.ast.AstNode;
import jinjava.de.odysseus.el.tree.impl.ast.AstUnary;
import jinjava.javax.el.CompositeELResolver;
import jinjava.javax.el.ExpressionFactory;

/**
 * Jinjava set up to read Hugging Face chat templates as Jinja2 does: configuration (whitespace
 * control, Python operator precedence, no output trimming), the functions, filters, tags and
 * methods templates use, and two changes to the expression parser. First, Jinjava inherits EL's
 * tightly binding {@code not}, so {@code not x is defined} would mean {@code (not x) is defined};
 * Jinja2 gives {@code not} a lower precedence than comparisons and tests, and templates rely on it
 * ({@code {% if not add_generation_prompt is defined %}}). Second, {@code +} of text and a
 * missing value fails as in Jinja2 instead of printing "null" into the prompt, and {@code *}
 * repeats text.
 */
final class Jinja2Engine extends Jinjava {

    /**
     * The most characters a rendered prompt, or any text made while rendering, may have: far more
     * than any context window holds (a million tokens are some 4 million characters), and small
     * enough that a template cannot fill the heap ({@code 'x' * 2000000000}).
     */
    static final int MAX_TEXT_CHARS = 16 * 1024 * 1024;

    private final ExpressionFactory expressions = new ExpressionFactoryImpl(
            new TreeStore(new Jinja2SyntaxBuilder(), new Cache(1000)), new TruthyTypeConverter());

    private Jinja2Engine(JinjavaConfig config) {
        super(config);
    }

    @Override
    public ExpressionFactory getExpressionFactory() {
        return expressions;
    }

    static Jinja2Engine create() {
        CompositeELResolver resolver = new CompositeELResolver();
        resolver.add(new PythonMethods());
        resolver.add(JinjavaInterpreterResolver.DEFAULT_RESOLVER_READ_ONLY);
        JinjavaConfig config = JinjavaConfig.newBuilder()
                .withTrimBlocks(true) // Hugging Face renders with trim_blocks and lstrip_blocks
                .withLstripBlocks(true)
                .withEnableRecursiveMacroCalls(true)
                .withMaxMacroRecursionDepth(64)
                .withMaxOutputSize(MAX_TEXT_CHARS)
                .withMaxStringLength(MAX_TEXT_CHARS)
                .withNodePreProcessor(new JinjavaNodePreProcessor()) // stops at an interrupt (RenderDeadline)
                .withElResolver(resolver)
                .withLegacyOverrides(LegacyOverrides.newBuilder()
                        .withUseTrimmingForNotesAndExpressions(true) // {{- x -}} trims as in Jinja2
                        .withParseWhitespaceControlStrictly(true)
                        .withUseNaturalOperatorPrecedence(true) // 'a' + b | trim is 'a' + (b | trim)
                        .withEvaluateMapKeys(true) // {"type": t}: keys are expressions
                        .withIterateOverMapKeys(true) // for k in dict iterates its keys
                        .withUsePyishObjectMapper(true)
                        .withKeepNullableLoopValues(true)
                        .withHandleBackslashInQuotesOnly(true)
                        .build())
                // Jinjava's "no trailing newline" cuts it from the output, which would eat the
                // "\n" of a generation prompt; Jinja2 drops it from the source, and
                // ChatTemplate does that itself.
                .withKeepTrailingNewline(true)
                .build();
        Jinja2Engine engine = new Jinja2Engine(config);
        var global = engine.getGlobalContext();
        global.registerFunction(new ELFunctionDefinition(
                "", "raise_exception", TemplateFunctions.class, "raiseException", Object.class));
        global.registerFunction(
                new ELFunctionDefinition("", "strftime_now", TemplateFunctions.class, "strftimeNow", String.class));
        global.registerFilter(new TemplateExtensions.ToJson());
        global.registerFilter(new TemplateExtensions.Items());
        global.registerExpTest(new TemplateExtensions.Iterable());
        global.registerTag(new TemplateExtensions.FilterBlock());
        global.registerTag(new TemplateExtensions.Generation());
        return engine;
    }

    /** Jinjava's syntax with Jinja2's precedence for {@code not}. */
    private static final class Jinja2SyntaxBuilder extends ExtendedSyntaxBuilder {
        private static final long serialVersionUID = 1L;

        Jinja2SyntaxBuilder() {
            // What Jinjava's default factory enables (EL's JEE6 profile).
            super(Builder.Feature.METHOD_INVOCATIONS, Builder.Feature.VARARGS);
        }

        @Override
        protected Parser createParser(String expression) {
            return new Jinja2Parser(this, expression);
        }
    }

    private static final class StrictAddition extends AdditionOperator {
        static final StrictAddition OP = new StrictAddition();

        @Override
        protected Object apply(TypeConverter converter, Object o1, Object o2) {
            if ((o1 instanceof CharSequence && o2 == null) || (o1 == null && o2 instanceof CharSequence)) {
                throw new IllegalArgumentException("cannot add text and an undefined or none value"
                        + " (a variable the template expects is missing)");
            }
            return super.apply(converter, o1, o2);
        }
    }

    private static final class Repetition extends AstBinary.SimpleOperator {
        static final Repetition OP = new Repetition();

        @Override
        protected Object apply(TypeConverter converter, Object o1, Object o2) {
            if (o1 instanceof CharSequence s && o2 instanceof Number n) {
                return repeat(s, n);
            }
            if (o1 instanceof Number n && o2 instanceof CharSequence s) {
                return repeat(s, n);
            }
            return NumberOperations.mul(converter, o1, o2);
        }

        private static String repeat(CharSequence s, Number times) {
            long n = Math.max(0, times.longValue());
            if (n > 0 && s.length() > MAX_TEXT_CHARS / n) {
                throw new IllegalArgumentException(
                        "text repeated " + n + " times would exceed " + MAX_TEXT_CHARS + " characters");
            }
            return s.toString().repeat((int) n);
        }

        @Override
        public String toString() {
            return "*";
        }
    }

    private static final class Jinja2Parser extends ExtendedParser {
        Jinja2Parser(Builder context, String input) {
            super(context, input);
        }

        /**
         * {@code +} refuses to add text and none/undefined, as Jinja2 does (Jinjava would print
         * "null" into the prompt); {@code *} also repeats text ({@code "    " * depth}).
         */
        @Override
        protected AstBinary createAstBinary(AstNode left, AstNode right, AstBinary.Operator operator) {
            AstBinary.Operator op = operator;
            if (operator == AstBinary.ADD || operator == AdditionOperator.OP) {
                op = StrictAddition.OP;
            } else if (operator == AstBinary.MUL) {
                op = Repetition.OP;
            }
            return super.createAstBinary(left, right, op);
        }

        /**
         * A value and what follows it ({@code .name}, {@code .method(...)}, {@code [index]},
         * {@code [start:stop]}), as Jinjava reads it, plus Python's slice with a step
         * ({@code [start:stop:step]}, {@link PythonSlice}). Only with natural operator precedence,
         * which this engine always configures (filters are then read a level up); otherwise
         * Jinjava's own.
         */
        @Override
        protected AstNode value() throws Scanner.ScanException, ParseException {
            if (!naturalOperatorPrecedence()) {
                return super.value();
            }
            boolean lvalue = true;
            AstNode v = nonliteral();
            if (v == null) {
                v = literal();
                if (v == null) {
                    return null;
                }
                lvalue = false;
            }
            while (true) {
                switch (getToken().getSymbol()) {
                    case DOT -> {
                        consumeToken();
                        AstDot dot = createAstDot(
                                v, consumeToken(Scanner.Symbol.IDENTIFIER).getImage(), lvalue);
                        v = getToken().getSymbol() == Scanner.Symbol.LPAREN
                                        && context.isEnabled(Builder.Feature.METHOD_INVOCATIONS)
                                ? createAstMethod(dot, params())
                                : dot;
                    }
                    case LBRACK -> v = bracket(v, lvalue);
                    default -> {
                        return v;
                    }
                }
            }
        }

        private AstNode bracket(AstNode v, boolean lvalue) throws Scanner.ScanException, ParseException {
            consumeToken(); // [
            AstNode start = expr(false);
            boolean strict = !context.isEnabled(Builder.Feature.NULL_PROPERTIES);
            Scanner.Token next = consumeToken();
            if (next.getSymbol() == Scanner.Symbol.RBRACK) {
                AstBracket bracket = createAstBracket(v, start, lvalue, strict);
                return getToken().getSymbol() == Scanner.Symbol.LPAREN
                                && context.isEnabled(Builder.Feature.METHOD_INVOCATIONS)
                        ? createAstMethod(bracket, params())
                        : bracket;
            }
            if (next.getSymbol() != Scanner.Symbol.COLON) {
                fail(Scanner.Symbol.RBRACK);
            }
            AstNode stop = expr(false);
            if (getToken().getSymbol() == Scanner.Symbol.COLON) {
                consumeToken();
                AstNode step = expr(false);
                consumeToken(Scanner.Symbol.RBRACK);
                return new PythonSlice(v, start, stop, step);
            }
            consumeToken(Scanner.Symbol.RBRACK);
            return createAstRangeBracket(v, start, stop, lvalue, strict);
        }

        /** What ExtendedParser asks before it leaves filters to {@code mul}'s level. */
        private static boolean naturalOperatorPrecedence() {
            return JinjavaInterpreter.getCurrentMaybe()
                    .map(i -> i.getConfig().getLegacyOverrides().isUseNaturalOperatorPrecedence())
                    .orElse(false);
        }

        /**
         * {@code name=value} as a keyword argument takes a whole expression as its value, as in
         * Jinja2. Jinjava reads {@code =} as an operator of {@code +}'s level, so in
         * {@code namespace(last=messages|length - 1)} (Qwen3) the {@code - 1} was applied to the
         * argument itself instead of its value.
         */
        @Override
        protected AstNode add(boolean required) throws Scanner.ScanException, ParseException {
            if (getToken().getSymbol() == Scanner.Symbol.IDENTIFIER && lookahead(0) == NamedParameterOperator.TOKEN) {
                AstNode name = identifier(consumeToken().getImage());
                consumeToken(); // =
                return NamedParameterOperator.HANDLER.createAstNode(name, expr(true));
            }
            return super.add(required);
        }

        /**
         * A leading {@code not} negates the whole comparison (with its filters and tests) that
         * follows, one level above EL's unary operators.
         */
        @Override
        protected AstNode eq(boolean required) throws Scanner.ScanException, ParseException {
            if (getToken().getSymbol() == Scanner.Symbol.NOT) {
                consumeToken();
                return createAstUnary(eq(true), AstUnary.NOT);
            }
            return super.eq(required);
        }
    }
}
