package com.llmserve.app.openai;

import java.util.UUID;

/** Response ids in OpenAI's style: a prefix and 32 random hex digits. */
public final class Ids {

    private Ids() {}

    public static String next(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "");
    }

    /** Seconds since the epoch, as {@code created} fields count. */
    public static long now() {
        return System.currentTimeMillis() / 1000;
    }
}
