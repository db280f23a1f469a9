package com.llmserve.app.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApiKeysTests {

    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock();

    @Test
    void withoutKeysOrAFileKeysAreOff() {
        assertThat(new ApiKeys(List.of(), null, clock).enabled()).isFalse();
    }

    @Test
    void onlyAConfiguredKeyMatchesWhateverItsLengthOrPrefix() {
        ApiKeys keys = new ApiKeys(List.of("sk-alpha-0123456789", "sk-beta"), null, clock);

        assertThat(keys.enabled()).isTrue();
        assertThat(keys.matches("sk-alpha-0123456789")).isTrue();
        assertThat(keys.matches("sk-beta")).isTrue();
        assertThat(keys.matches("sk-alpha-012345678")).isFalse();
        assertThat(keys.matches("sk-alpha-0123456789x")).isFalse();
        assertThat(keys.matches("")).isFalse();
    }

    @Test
    void keysFromAFileSkipCommentsAndBlankLinesAndFollowItsChanges() throws IOException {
        Path file = dir.resolve("keys");
        Files.writeString(file, "# team a\nsk-one\n\n  sk-two  \n");
        ApiKeys keys = new ApiKeys(List.of("sk-configured"), file, clock);
        assertThat(keys.matches("sk-one")).isTrue();
        assertThat(keys.matches("sk-two")).isTrue();
        assertThat(keys.matches("# team a")).isFalse();

        Files.writeString(file, "sk-three\n"); // sk-one revoked, sk-three issued
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(60)));
        assertThat(keys.matches("sk-one"))
                .as("not looked at again within " + ApiKeys.RECHECK)
                .isTrue();

        clock.advance(ApiKeys.RECHECK.plusSeconds(1));
        assertThat(keys.matches("sk-one")).isFalse();
        assertThat(keys.matches("sk-three")).isTrue();
        assertThat(keys.matches("sk-configured")).as("configured keys stay").isTrue();
    }

    @Test
    void aFileThatGoesAwayKeepsItsLastKeys() throws IOException {
        Path file = dir.resolve("keys");
        Files.writeString(file, "sk-one\n");
        ApiKeys keys = new ApiKeys(List.of(), file, clock);

        Files.delete(file);
        clock.advance(Duration.ofMinutes(1));

        assertThat(keys.matches("sk-one")).isTrue();
    }

    @Test
    void aKeyFileThatCannotBeReadStopsStartupAndAnEmptyOneLetsNobodyIn() throws IOException {
        assertThatThrownBy(() -> new ApiKeys(List.of(), dir.resolve("missing"), clock))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("api-keys-file");

        Path empty = Files.writeString(dir.resolve("empty"), "# no keys yet\n");
        ApiKeys keys = new ApiKeys(List.of(), empty, clock);
        assertThat(keys.enabled()).isTrue();
        assertThat(keys.matches("# no keys yet")).isFalse();
        assertThat(keys.matches("")).isFalse();
    }

    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
