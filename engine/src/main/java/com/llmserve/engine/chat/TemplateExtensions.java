package com.llmserve.engine.chat;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.exptest.ExpTest;
import com.hubspot.jinjava.lib.filter.Filter;
import com.hubspot.jinjava.lib.tag.Tag;
import com.hubspot.jinjava.objects.SafeString;
import com.hubspot.jinjava.tree.Node;
import com.hubspot.jinjava.tree.TagNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Filters, tests and tags of Jinja2 and Hugging Face that Jinjava lacks or defines differently. */
final class TemplateExtensions {

    private TemplateExtensions() {}

    /**
     * {@code tojson} as Hugging Face defines it ({@code json.dumps} with {@code ensure_ascii=False}
     * and optional {@code indent}/{@code sort_keys}); Jinjava's own writes compact JSON.
     */
    static final class ToJson implements Filter {
        @Override
        public String getName() {
            return "tojson";
        }

        @Override
        public Object filter(Object var, JinjavaInterpreter interpreter, Object[] args, Map<String, Object> kwargs) {
            Object indent = kwargs.containsKey("indent") ? kwargs.get("indent") : args.length > 0 ? args[0] : null;
            boolean sortKeys = Boolean.TRUE.equals(kwargs.get("sort_keys"));
            return PythonJson.dumps(var, indent == null ? null : ((Number) indent).intValue(), sortKeys);
        }

        @Override
        public Object filter(Object var, JinjavaInterpreter interpreter, String... args) {
            return PythonJson.dumps(var, args.length > 0 && args[0] != null ? Integer.valueOf(args[0]) : null, false);
        }
    }

    /** {@code dict | items}: the key/value pairs, as Jinja2 3.1 provides. */
    static final class Items implements Filter {
        @Override
        public String getName() {
            return "items";
        }

        @Override
        public Object filter(Object var, JinjavaInterpreter interpreter, String... args) {
            if (var instanceof Map<?, ?> map) {
                return new ArrayList<>(map.entrySet());
            }
            return var == null ? List.of() : var;
        }
    }

    /**
     * {@code x is iterable} as in Jinja2, where text is iterable too (Llama 3.1 relies on it to
     * JSON-quote tool results); Jinjava's says no for strings.
     */
    static final class Iterable implements ExpTest {
        @Override
        public String getName() {
            return "iterable";
        }

        @Override
        public boolean evaluate(Object var, JinjavaInterpreter interpreter, Object... args) {
            return var instanceof java.lang.Iterable<?>
                    || var instanceof Map<?, ?>
                    || var instanceof CharSequence
                    || var instanceof SafeString
                    || (var != null && var.getClass().isArray());
        }
    }

    /** {@code {% filter name(args) %}...{% endfilter %}}: applies a filter to the rendered block. */
    static final class FilterBlock implements Tag {
        private static final String BODY = "__filter_block_body";

        @Override
        public String getName() {
            return "filter";
        }

        @Override
        public String getEndTagName() {
            return "endfilter";
        }

        @Override
        public String interpret(TagNode tagNode, JinjavaInterpreter interpreter) {
            StringBuilder body = new StringBuilder();
            for (Node child : tagNode.getChildren()) {
                body.append(child.render(interpreter).getValue());
            }
            interpreter.enterScope();
            try {
                interpreter.getContext().put(BODY, body.toString());
                Object filtered = interpreter.resolveELExpression(
                        BODY + "|" + tagNode.getHelpers().strip(), tagNode.getLineNumber());
                return filtered == null ? "" : filtered.toString();
            } finally {
                interpreter.leaveScope();
            }
        }
    }

    /**
     * {@code {% generation %}...{% endgeneration %}}: Hugging Face marks assistant text with it for
     * training masks; for inference it only renders its body.
     */
    static final class Generation implements Tag {
        @Override
        public String getName() {
            return "generation";
        }

        @Override
        public String getEndTagName() {
            return "endgeneration";
        }

        @Override
        public String interpret(TagNode tagNode, JinjavaInterpreter interpreter) {
            StringBuilder body = new StringBuilder();
            for (Node child : tagNode.getChildren()) {
                body.append(child.render(interpreter).getValue());
            }
            return body.toString();
        }
    }
}
