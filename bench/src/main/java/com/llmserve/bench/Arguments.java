package com.llmserve.bench;

import java.util.Arrays;
import java.util.Optional;
import java.util.function.Function;

/**
 * A benchmark's command line, read option by option. Every problem is an
 * {@link IllegalArgumentException} that names the option, so a typo ends the command with a
 * message and the usage before anything is loaded, rather than with a stack trace after.
 */
final class Arguments {

    private final String[] args;
    private int next;

    Arguments(String[] args) {
        this.args = args.clone();
    }

    /** Whether the command line asks for the usage ({@code --help} or {@code -h} anywhere in it). */
    static boolean wantsHelp(String[] args) {
        return Arrays.stream(args).anyMatch(a -> a.equals("--help") || a.equals("-h"));
    }

    /**
     * A benchmark's options, or empty after printing the usage that {@code --help} asked for. A
     * command line {@code parser} refuses ends the process with the message, the usage and status 2.
     */
    static <T> Optional<T> parseOrExit(String[] args, String usage, Function<String[], T> parser) {
        if (wantsHelp(args)) {
            System.out.print(usage);
            return Optional.empty();
        }
        try {
            return Optional.of(parser.apply(args));
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.print(usage);
            System.exit(2);
            return Optional.empty();
        }
    }

    boolean hasNext() {
        return next < args.length;
    }

    /** The next option. */
    String next() {
        return args[next++];
    }

    /** The value that follows {@code option}. */
    String value(String option) {
        if (next >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[next++];
    }

    int positive(String option) {
        return positive(option, value(option));
    }

    /** A share: a number from 0 to 1. */
    double share(String option) {
        String s = value(option);
        double d;
        try {
            d = Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": '" + s + "' is not a number");
        }
        if (!(d >= 0 && d <= 1)) {
            throw new IllegalArgumentException(option + " must be from 0 to 1, not " + s);
        }
        return d;
    }

    /** A comma-separated list of positive numbers, such as {@code 1,4,16,64}; an empty item is an error. */
    int[] positives(String option) {
        return Arrays.stream(value(option).split(",", -1))
                .map(String::trim)
                .mapToInt(s -> positive(option, s))
                .toArray();
    }

    private static int positive(String option, String s) {
        int n;
        try {
            n = Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": '" + s + "' is not a number");
        }
        if (n <= 0) {
            throw new IllegalArgumentException(option + " must be positive, not " + n);
        }
        return n;
    }
}
