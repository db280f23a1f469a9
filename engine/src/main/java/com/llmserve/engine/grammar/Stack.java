package com.llmserve.engine.grammar;

/**
 * One parse stack of the matcher, as an immutable linked list of positions in
 * {@link Grammar#elements}: the top is where the next character is matched, the rest are the
 * places to return to. Stacks share their tails; equality is structural, so states can be
 * compared and cached. {@code null} is the empty stack: the root rule is complete.
 */
final class Stack {

    final int pos;
    final Stack next;
    private final int hash;

    Stack(int pos, Stack next) {
        this.pos = pos;
        this.next = next;
        this.hash = pos * 0x9E3779B1 + (next == null ? 17 : next.hash * 31);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Stack other)) {
            return false;
        }
        Stack a = this;
        Stack b = other;
        while (a != null && b != null) {
            if (a == b) {
                return true;
            }
            if (a.pos != b.pos || a.hash != b.hash) {
                return false;
            }
            a = a.next;
            b = b.next;
        }
        return a == b;
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
