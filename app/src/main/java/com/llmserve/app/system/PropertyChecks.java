package com.llmserve.app.system;

import java.time.Duration;
import org.springframework.util.unit.DataSize;

/**
 * Range checks for the constructors of {@code @ConfigurationProperties} records: each failure names
 * the property, so a wrong setting stops startup saying which one and why.
 */
public final class PropertyChecks {

    private PropertyChecks() {}

    public static void atLeast(String property, long min, long value) {
        if (value < min) {
            throw new IllegalArgumentException(property + " must be at least " + min + ": " + value);
        }
    }

    public static void atLeast(String property, DataSize min, DataSize value) {
        if (value.compareTo(min) < 0) {
            throw new IllegalArgumentException(property + " must be at least " + min + ": " + value);
        }
    }

    public static void notNegative(String property, Duration value) {
        if (value.isNegative()) {
            throw new IllegalArgumentException(property + " must not be negative: " + value);
        }
    }

    public static void between(String property, double min, double max, double value) {
        if (!(value >= min && value <= max)) {
            throw new IllegalArgumentException(property + " must be in [" + min + ", " + max + "]: " + value);
        }
    }
}
