package com.llmserve.engine.model;

/** A forward pass submitted ({@link LanguageModel#submit}): its logits once the backend has them. */
@FunctionalInterface
public interface PendingLogits {

    /** Waits for the pass (a no-op once done) and returns its logits; throws what the pass threw. */
    Logits await();
}
