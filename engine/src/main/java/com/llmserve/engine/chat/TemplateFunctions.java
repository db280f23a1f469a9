package com.llmserve.engine.chat;

import com.hubspot.jinjava.objects.date.StrftimeFormatter;
import java.time.Clock;
import java.time.ZonedDateTime;
import java.util.Locale;

/**
 * The global functions Hugging Face puts in a chat template's environment. Jinjava binds functions
 * to static methods, so the render's clock reaches {@code strftime_now} through a scoped value
 * bound around each render instead of through a static field.
 */
final class TemplateFunctions {

    static final ScopedValue<Clock> CLOCK = ScopedValue.newInstance();

    /** The value of a function's name as a variable, so that {@code is defined} holds for it. */
    static final Object DEFINED = new Object() {
        @Override
        public String toString() {
            return "<function>";
        }
    };

    private TemplateFunctions() {}

    /** Thrown by {@code raise_exception}; {@link ChatTemplate} turns it into a {@link ChatTemplateException}. */
    static final class Raised extends RuntimeException {
        Raised(String message) {
            super(message, null, false, false);
        }
    }

    /** {@code raise_exception(message)}: the template refuses the conversation. */
    public static String raiseException(Object message) {
        throw new Raised(String.valueOf(message));
    }

    /** {@code strftime_now(format)}: the current local time in Python's strftime format. */
    public static String strftimeNow(String format) {
        Clock clock = CLOCK.orElse(Clock.systemDefaultZone());
        return StrftimeFormatter.format(ZonedDateTime.now(clock), format, Locale.ENGLISH);
    }
}
