package com.llmserve.gpu.spi;

import static com.llmserve.gpu.spi.CTypes.C_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.invoke.MethodHandle;

/**
 * A function returning a status, bound from a library by its exported name, which the status
 * checks report. The caller invokes the handle inside an {@link Invocation} so that each call site
 * states the exact argument types the handle was bound with ({@code invokeExact} needs them).
 */
record BoundCall(String name, MethodHandle handle) {

    @FunctionalInterface
    interface Invocation {
        int on(MethodHandle handle) throws Throwable;
    }

    static BoundCall bind(NativeLibrary library, String name, MemoryLayout... arguments) {
        return new BoundCall(name, library.downcall(name, FunctionDescriptor.of(C_INT, arguments)));
    }

    /** Calls, and throws unless the status is success. */
    void call(StatusCheck check, Invocation invocation) {
        check.check(status(invocation), name);
    }

    /** Calls: false when the status is {@code no} (not ready, not found), true on success; else throws. */
    boolean answer(StatusCheck check, int no, Invocation invocation) {
        int rc = status(invocation);
        if (rc == no) return false;
        check.check(rc, name);
        return true;
    }

    private int status(Invocation invocation) {
        try {
            return invocation.on(handle);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }
}
