package com.llmserve.app.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The unknown-field policy: reject, warn or ignore what no parser read; known fields checked alike under each. */
class RequestFieldsTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(RequestFields.class);

    @BeforeEach
    void captureLog() {
        log.start();
        logger.addAppender(log);
    }

    @AfterEach
    void releaseLog() {
        logger.detachAppender(log);
    }

    private static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    /** Reads {@code model} and {@code messages[i].role}, then applies the policy, as the parsers do. */
    private static void parse(JsonNode body) {
        RequestFields f = RequestFields.of(body);
        f.requiredString("model");
        JsonNode messages = f.raw("messages");
        if (messages != null) {
            for (int i = 0; i < messages.size(); i++) {
                RequestFields m = RequestFields.nested(messages.get(i), "messages[" + i + "]");
                m.requiredString("role");
                m.rejectUnknown();
            }
        }
        f.rejectUnknown();
    }

    private static void parse(UnknownFieldPolicy policy, String endpoint, JsonNode body) {
        RequestFields.withPolicy(policy, endpoint, () -> {
            parse(body);
            return null;
        });
    }

    private List<String> warnings() {
        return log.list.stream()
                .filter(e -> e.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    @Test
    void withoutABoundPolicyUnknownFieldsAreRejected() {
        assertThatThrownBy(() -> parse(json("{\"model\":\"m\",\"modle\":\"m\"}")))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> {
                    assertThat(e.param()).isEqualTo("modle");
                    assertThat(e.code()).isEqualTo("unknown_parameter");
                    assertThat(e.getMessage()).isEqualTo("Unrecognized request argument supplied: modle");
                });
    }

    @Test
    void rejectRefusesTheFirstUnknownFieldByItsPathNestedOnesToo() {
        assertThatThrownBy(() -> parse(
                        UnknownFieldPolicy.REJECT,
                        "POST /v1/chat/completions",
                        json("{\"model\":\"m\",\"messages\":[{\"role\":\"user\"},{\"role\":\"user\",\"x\":1}]}")))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.param())
                        .isEqualTo("messages[1].x"));
        assertThat(warnings()).isEmpty();
    }

    @Test
    void warnIgnoresUnknownFieldsAndLogsEachNameOncePerEndpoint() {
        String name = "field_" + UUID.randomUUID().toString().replace("-", "");
        String body = "{\"model\":\"m\",\"" + name + "\":true,\"messages\":[{\"role\":\"user\",\"" + name
                + "\":1},{\"role\":\"user\",\"" + name + "\":2}]}";

        parse(UnknownFieldPolicy.WARN, "POST /v1/chat/completions", json(body));
        parse(UnknownFieldPolicy.WARN, "POST /v1/chat/completions", json(body));
        parse(UnknownFieldPolicy.WARN, "POST /tokenize", json(body));

        assertThat(warnings().stream().filter(w -> w.contains(name)))
                .containsExactlyInAnyOrder(
                        "POST /v1/chat/completions: ignored the unknown request field '" + name
                                + "' (llmserve.api.unknown-fields=warn; logged once per field)",
                        "POST /v1/chat/completions: ignored the unknown request field 'messages[0]." + name
                                + "' (llmserve.api.unknown-fields=warn; logged once per field)",
                        "POST /tokenize: ignored the unknown request field '" + name
                                + "' (llmserve.api.unknown-fields=warn; logged once per field)",
                        "POST /tokenize: ignored the unknown request field 'messages[0]." + name
                                + "' (llmserve.api.unknown-fields=warn; logged once per field)");
    }

    @Test
    void aFieldNameIsLoggedWithoutItsControlCharactersAndCut() {
        String name = "x\\nINFO forged " + "y".repeat(200);

        parse(UnknownFieldPolicy.WARN, "POST /v1/embeddings", json("{\"model\":\"m\",\"" + name + "\":1}"));

        assertThat(warnings()).anySatisfy(w -> assertThat(w)
                .contains("'x\\u000aINFO forged yyy")
                .contains("y...'")
                .doesNotContain("\n"));
    }

    @Test
    void ignoreIgnoresUnknownFieldsSilently() {
        parse(UnknownFieldPolicy.IGNORE, "POST /v1/completions", json("{\"model\":\"m\",\"whatever\":[1,2]}"));

        assertThat(warnings()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(UnknownFieldPolicy.class)
    void knownFieldsAreCheckedAsStrictlyUnderEveryPolicy(UnknownFieldPolicy policy) {
        assertThatThrownBy(() -> parse(policy, "POST /v1/chat/completions", json("{\"model\":5,\"x\":1}")))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> {
                    assertThat(e.param()).isEqualTo("model");
                    assertThat(e.code()).isEqualTo("invalid_type");
                });
        assertThatThrownBy(() -> RequestFields.withPolicy(policy, "POST /v1/chat/completions", () -> {
                    RequestFields f = RequestFields.of(json("{\"temperature\":3,\"x\":1}"));
                    SamplingOptions.read(f);
                    return null;
                }))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.param())
                        .isEqualTo("temperature"));
        assertThatThrownBy(() -> RequestFields.withPolicy(policy, "POST /v1/chat/completions", () -> {
                    RequestFields f = RequestFields.of(json("{\"verbosity\":\"low\"}"));
                    GenerationFields.platformFields(f);
                    return null;
                }))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> {
                    assertThat(e.param()).isEqualTo("verbosity");
                    assertThat(e.code()).isEqualTo("unsupported_parameter");
                });
    }

    @Test
    void platformFieldsAreAcceptedWithTheirTypesChecked() {
        JsonNode body = json("""
                {"store":true,"metadata":{"team":"a"},"service_tier":"auto","safety_identifier":"h",
                 "prompt_cache_key":"k","prompt_cache_retention":"24h","prompt_cache_options":{"ttl":"1h"},
                 "reasoning_effort":"high","prediction":{"type":"content","content":"x"},"verbosity":"medium"}""");
        RequestFields f = RequestFields.of(body);

        GenerationFields.platformFields(f);

        assertThatCode(f::rejectUnknown).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"store\":\"yes\"}|store",
                "{\"metadata\":{\"team\":1}}|metadata.team",
                "{\"metadata\":[]}|metadata",
                "{\"reasoning_effort\":1}|reasoning_effort",
                "{\"prediction\":\"x\"}|prediction",
                "{\"prompt_cache_options\":true}|prompt_cache_options",
                "{\"verbosity\":\"high\"}|verbosity",
                "{\"web_search_options\":{}}|web_search_options",
                "{\"audio\":{\"voice\":\"alloy\",\"format\":\"mp3\"}}|audio",
                "{\"moderation\":{}}|moderation"
            })
    void aPlatformFieldOfTheWrongTypeOrThatCannotBeHonouredIsRefused(String bodyAndParam) {
        String[] parts = bodyAndParam.split("\\|");
        RequestFields f = RequestFields.of(json(parts[0]));

        assertThatThrownBy(() -> GenerationFields.platformFields(f))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.param())
                        .isEqualTo(parts[1]));
    }

    @Test
    void streamOptionsTakeIncludeObfuscation() {
        RequestFields f = RequestFields.of(
                json("{\"stream\":true,\"stream_options\":{\"include_usage\":true,\"include_obfuscation\":false}}"));

        GenerationFields.Streaming streaming = GenerationFields.streaming(f);

        assertThat(streaming).isEqualTo(new GenerationFields.Streaming(true, true));
        assertThatThrownBy(() -> GenerationFields.streaming(RequestFields.of(
                        json("{\"stream\":true,\"stream_options\":{\"include_obfuscation\":\"no\"}}"))))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.param())
                        .isEqualTo("stream_options.include_obfuscation"));
    }
}
