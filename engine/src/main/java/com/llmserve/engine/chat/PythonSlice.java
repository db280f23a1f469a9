package com.llmserve.engine.chat;

import com.hubspot.jinjava.objects.SafeString;
import com.hubspot.jinjava.objects.collections.PyList;
import java.util.ArrayList;
import java.util.List;
import jinjava.de.odysseus.el.tree.Bindings;
import jinjava.de.odysseus.el.tree.impl.ast.AstNode;
import jinjava.de.odysseus.el.tree.impl.ast.AstRightValue;
import jinjava.javax.el.ELContext;
import jinjava.javax.el.ELException;

/**
 * {@code seq[start:stop:step]}, a slice with a step, as Python takes it from a list or a string
 * ({@code messages[::-1]}, which Qwen3's template walks backwards). Jinjava reads only
 * {@code [start:stop]}; {@link Jinja2Engine}'s parser builds this node when a second colon follows.
 * Missing or none bounds take Python's defaults, negative ones count from the end, and bounds out
 * of range are clipped, as {@code slice.indices} does.
 */
final class PythonSlice extends AstRightValue {

    private final AstNode base;
    private final AstNode start;
    private final AstNode stop;
    private final AstNode step;

    /** @param start, stop, step null where the source leaves them out */
    PythonSlice(AstNode base, AstNode start, AstNode stop, AstNode step) {
        this.base = base;
        this.start = start;
        this.stop = stop;
        this.step = step;
    }

    @Override
    public Object eval(Bindings bindings, ELContext context) {
        Object value = base.eval(bindings, context);
        Integer from = bound(start, bindings, context);
        Integer to = bound(stop, bindings, context);
        Integer by = bound(step, bindings, context);
        return switch (value) {
            case String s -> sliceText(s, from, to, by);
            case SafeString s -> sliceText(s.toString(), from, to, by);
            case Iterable<?> items -> {
                List<Object> list = new ArrayList<>();
                items.forEach(list::add);
                yield new PyList(slice(list, from, to, by));
            }
            case null -> throw new ELException("cannot slice none (a variable the template expects is missing)");
            default ->
                throw new ELException("cannot slice a " + value.getClass().getSimpleName());
        };
    }

    private static Integer bound(AstNode node, Bindings bindings, ELContext context) {
        Object value = node == null ? null : node.eval(bindings, context);
        if (value == null) {
            return null;
        }
        if (!(value instanceof Number n)) {
            throw new ELException("slice indices must be integers or none, not " + value);
        }
        return n.intValue();
    }

    /** By code point, as Python indexes text. */
    private static String sliceText(String s, Integer from, Integer to, Integer by) {
        List<Integer> codePoints = new ArrayList<>(s.codePoints().boxed().toList());
        StringBuilder out = new StringBuilder();
        slice(codePoints, from, to, by).forEach(out::appendCodePoint);
        return out.toString();
    }

    /** Python's {@code seq[from:to:by]} of a list, with slice.indices' clipping. */
    static <T> List<T> slice(List<T> items, Integer from, Integer to, Integer by) {
        int step = by == null ? 1 : by;
        if (step == 0) {
            throw new ELException("slice step cannot be zero");
        }
        int length = items.size();
        int lower = step > 0 ? 0 : -1;
        int upper = step > 0 ? length : length - 1;
        int first = from == null ? (step > 0 ? lower : upper) : clip(from, length, lower, upper);
        int end = to == null ? (step > 0 ? upper : lower) : clip(to, length, lower, upper);
        List<T> out = new ArrayList<>();
        for (int i = first; step > 0 ? i < end : i > end; i += step) {
            out.add(items.get(i));
        }
        return out;
    }

    private static int clip(int index, int length, int lower, int upper) {
        int i = index < 0 ? index + length : index;
        return i < lower ? lower : Math.min(i, upper);
    }

    @Override
    public void appendStructure(StringBuilder builder, Bindings bindings) {
        base.appendStructure(builder, bindings);
        builder.append('[');
        appendBound(builder, bindings, start);
        builder.append(':');
        appendBound(builder, bindings, stop);
        builder.append(':');
        appendBound(builder, bindings, step);
        builder.append(']');
    }

    private static void appendBound(StringBuilder builder, Bindings bindings, AstNode bound) {
        if (bound != null) {
            bound.appendStructure(builder, bindings);
        }
    }

    @Override
    public int getCardinality() {
        return 1 + (start == null ? 0 : 1) + (stop == null ? 0 : 1) + (step == null ? 0 : 1);
    }

    @Override
    public AstNode getChild(int i) {
        List<AstNode> children = new ArrayList<>(4);
        children.add(base);
        for (AstNode bound : new AstNode[] {start, stop, step}) {
            if (bound != null) {
                children.add(bound);
            }
        }
        return i >= 0 && i < children.size() ? children.get(i) : null;
    }

    @Override
    public String toString() {
        return "[::]";
    }
}
