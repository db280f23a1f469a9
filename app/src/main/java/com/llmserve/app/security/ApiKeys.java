package com.llmserve.app.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The accepted API keys, held as SHA-256 digests and compared in constant time: a presented key
 * is hashed and its digest compared with every stored one by {@link MessageDigest#isEqual}, with
 * no early exit, so neither a key's length nor its first differing byte nor which key matched
 * shows in the time an answer takes. Keys from a file are read again when the file changes
 * (looked at no more than every {@link #RECHECK}); a file that cannot be read keeps the last keys.
 */
final class ApiKeys {

    private static final Logger LOG = LoggerFactory.getLogger(ApiKeys.class);
    /** How often the key file's modification time is looked at, at most. */
    static final Duration RECHECK = Duration.ofSeconds(5);

    private final List<byte[]> configured;
    private final Path file;
    private final Clock clock;
    private volatile List<byte[]> fromFile = List.of();
    private volatile FileTime fileTime;
    private volatile Instant checked = Instant.MIN;

    /**
     * @throws IllegalStateException when {@code file} is set and cannot be read (a wrong path must stop startup)
     */
    ApiKeys(List<String> keys, Path file, Clock clock) {
        this.configured = keys.stream().map(ApiKeys::digest).toList();
        this.file = file;
        this.clock = clock;
        if (file != null) {
            try {
                load();
            } catch (IOException e) {
                throw new IllegalStateException(
                        "llmserve.security.api-keys-file " + file + " cannot be read: " + e.getMessage(), e);
            }
            if (fromFile.isEmpty() && configured.isEmpty()) {
                LOG.warn(
                        "The API key file {} holds no key: every protected endpoint answers 401 until one is added",
                        file);
            }
        }
    }

    /** Whether keys are on: some configured, or a key file named. */
    boolean enabled() {
        return !configured.isEmpty() || file != null;
    }

    /** Whether {@code presented} is one of the keys. */
    boolean matches(String presented) {
        refresh();
        byte[] candidate = digest(presented);
        boolean match = false;
        for (byte[] key : configured) {
            match |= MessageDigest.isEqual(key, candidate);
        }
        for (byte[] key : fromFile) {
            match |= MessageDigest.isEqual(key, candidate);
        }
        return match;
    }

    private void refresh() {
        if (file == null) {
            return;
        }
        Instant now = clock.instant();
        if (Duration.between(checked, now).compareTo(RECHECK) < 0) {
            return;
        }
        checked = now;
        try {
            if (!Files.getLastModifiedTime(file).equals(fileTime)) {
                synchronized (this) {
                    load();
                }
                LOG.info("API keys reloaded from {}: {} key(s)", file, fromFile.size());
            }
        } catch (IOException e) {
            LOG.warn(
                    "API key file {} cannot be read, keeping its last {} key(s): {}",
                    file,
                    fromFile.size(),
                    e.toString());
        }
    }

    private void load() throws IOException {
        FileTime time = Files.getLastModifiedTime(file);
        List<byte[]> keys = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String key = line.strip();
            if (!key.isEmpty() && !key.startsWith("#")) {
                keys.add(digest(key));
            }
        }
        fromFile = List.copyOf(keys);
        fileTime = time;
    }

    private static byte[] digest(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
