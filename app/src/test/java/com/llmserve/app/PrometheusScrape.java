package com.llmserve.app;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The samples of a Prometheus text exposition, for assertions on a scrape. */
public final class PrometheusScrape {

    /** One line: a name, its labels and its value. */
    public record Sample(String name, Map<String, String> labels, double value) {}

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)(\\s+\\d+)?$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final List<Sample> samples;
    private final Map<String, String> help = new HashMap<>();

    private PrometheusScrape(List<Sample> samples) {
        this.samples = samples;
    }

    public static PrometheusScrape parse(String text) {
        List<Sample> samples = new ArrayList<>();
        PrometheusScrape scrape = new PrometheusScrape(samples);
        for (String line : text.split("\n")) {
            if (line.startsWith("# HELP ")) {
                String[] parts = line.substring("# HELP ".length()).split(" ", 2);
                scrape.help.put(parts[0], parts.length > 1 ? parts[1] : "");
                continue;
            }
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                throw new IllegalArgumentException("not a sample line: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
        }
        return scrape;
    }

    /** The samples named {@code name} whose labels include {@code labels} (name, value pairs). */
    public List<Sample> find(String name, String... labels) {
        return samples.stream()
                .filter(s -> s.name().equals(name) && has(s, labels))
                .toList();
    }

    /**
     * The value of the one sample named {@code name} with these labels.
     *
     * @throws AssertionError when there is none or more than one
     */
    public double value(String name, String... labels) {
        List<Sample> found = find(name, labels);
        if (found.size() != 1) {
            throw new AssertionError(
                    found.size() + " samples of " + name + " with " + String.join(",", labels) + ": " + found);
        }
        return found.getFirst().value();
    }

    /** The {@code # HELP} text of a metric family (its meter's description), or null. */
    public String help(String family) {
        return help.get(family);
    }

    public List<Sample> samples() {
        return samples;
    }

    private static boolean has(Sample s, String... labels) {
        for (int i = 0; i < labels.length; i += 2) {
            if (!labels[i + 1].equals(s.labels().get(labels[i]))) {
                return false;
            }
        }
        return true;
    }
}
