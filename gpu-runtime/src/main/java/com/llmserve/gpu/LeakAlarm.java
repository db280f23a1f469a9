package com.llmserve.gpu;

import java.lang.ref.Cleaner;

/**
 * Logs when an owner of native resources becomes unreachable without being closed. It never
 * releases anything itself: release is the owner's {@code close()} (or the device's, at the
 * latest), because a GC-timed free of device memory could race queued kernels.
 */
final class LeakAlarm {

    private static final System.Logger LOG = System.getLogger(LeakAlarm.class.getName());
    private static final Cleaner CLEANER = Cleaner.create();

    private final State state;
    private final Cleaner.Cleanable cleanable;

    LeakAlarm(Object owner, String what) {
        this.state = new State(what);
        this.cleanable = CLEANER.register(owner, state);
    }

    /** Called by the owner's close: the resource was released properly. */
    void disarm() {
        state.released = true;
        cleanable.clean();
    }

    private static final class State implements Runnable {
        private final String what;
        private volatile boolean released;

        State(String what) {
            this.what = what;
        }

        @Override
        public void run() {
            if (!released) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "{0} was never closed; it stays held until its device closes",
                        what);
            }
        }
    }
}
