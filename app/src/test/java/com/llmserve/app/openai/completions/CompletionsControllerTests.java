package com.llmserve.app.openai.completions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.llmserve.app.OpenApiContract;
import com.llmserve.app.ScriptedModel.Fail;
import com.llmserve.app.ScriptedModel.Finish;
import com.llmserve.app.ScriptedModel.Pause;
import com.llmserve.app.ScriptedModel.Text;
import com.llmserve.app.models.ModelNotReadyException;
import com.llmserve.app.openai.AnswerGrammars;
import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.ScriptedEndpointTests;
import com.llmserve.engine.sched.AdmissionException;
import com.llmserve.engine.sched.FinishReason;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * The completions endpoint over a scripted model: SSE framing byte for byte, stop strings,
 * keep-alives, mid-stream errors, and how engine refusals reach the client.
 */
@Import(AnswerGrammars.class)
@WebMvcTest(value = CompletionsController.class, properties = "llmserve.api.keep-alive-interval=100ms")
@EnableConfigurationProperties(ApiProperties.class)
class CompletionsControllerTests extends ScriptedEndpointTests {

    private static final String PATH = "/v1/completions";

    private MockHttpServletResponse stream(String body) throws Exception {
        return stream(PATH, body);
    }

    /** The response is one the OpenAPI document describes, {@code Retry-After} included. */
    private static void assertDocumented(MockHttpServletResponse r, int status, String retryAfter) throws Exception {
        OpenApiContract.load()
                .assertResponse(
                        "POST",
                        PATH,
                        status,
                        r.getContentType(),
                        r.getContentAsString(),
                        Map.of("Retry-After", List.of(retryAfter)));
    }

    @Test
    void streamIsFramedExactlyAsOpenAiFramesIt() throws Exception {
        fake.play(new Text(0, " there was"), new Finish(0, FinishReason.LENGTH));

        MockHttpServletResponse r = stream("""
                {"model":"fake","prompt":"Once","max_tokens":2,"stream":true,"stream_options":{"include_usage":true}}""");

        assertThat(r.getContentType()).startsWith("text/event-stream");
        assertThat(r.getHeader("Cache-Control")).isEqualTo("no-cache");
        String body = r.getContentAsString();
        assertThat(body).matches("(?s)(data: \\{[^\\n]*\\}\\n\\n)+data: \\[DONE\\]\\n\\n");
        List<String> events = List.of(body.split("\n\n"));
        assertThat(events.getFirst())
                .matches("data: \\{\"id\":\"cmpl-[0-9a-f]{32}\",\"object\":\"text_completion\",\"created\":\\d+,"
                        + "\"model\":\"fake\",\"choices\":\\[\\{\"index\":0,\"text\":\" there\",\"logprobs\":null,\"finish_reason\":null}],"
                        + "\"usage\":null}");
        assertThat(events.get(events.size() - 3))
                .contains("\"text\":\"\",\"logprobs\":null,\"finish_reason\":\"length\"");
        assertThat(events.get(events.size() - 2))
                .contains("\"choices\":[],\"usage\":{\"prompt_tokens\":")
                .contains("\"completion_tokens\":2");
        OpenApiContract contract = OpenApiContract.load();
        events.subList(0, events.size() - 1)
                .forEach(e -> contract.assertSchema("CreateCompletionStreamChunk", e.substring(6)));
    }

    @Test
    void withoutIncludeUsageChunksHaveNoUsageField() throws Exception {
        fake.play(new Text(0, " there"), new Finish(0, FinishReason.STOP));

        String body = stream("""
                {"model":"fake","prompt":"Once","stream":true}""").getContentAsString();

        assertThat(body)
                .doesNotContain("usage")
                .contains("\"finish_reason\":\"stop\"")
                .endsWith("data: [DONE]\n\n");
    }

    @Test
    void aStopStringSplitAcrossTokensIsNeverSentAndStopsTheChoice() throws Exception {
        fake.play(
                new Text(0, " she said the end of it"),
                new Pause(Duration.ofMillis(50)),
                new Finish(0, FinishReason.LENGTH));

        String body = stream("""
                {"model":"fake","prompt":"Once","stream":true,"stop":["d the e"]}""").getContentAsString();

        StringBuilder text = new StringBuilder();
        for (String e : body.split("\n\n")) {
            int at = e.indexOf("\"text\":\"");
            if (at >= 0) {
                text.append(e, at + 8, e.indexOf('"', at + 8));
            }
        }
        assertThat(text.toString()).isEqualTo(" she sai");
        assertThat(body).contains("\"finish_reason\":\"stop\"").doesNotContain("\"finish_reason\":\"length\"");
        assertThat(fake.stopped()).containsExactly(0);
    }

    @Test
    void theEnginesOwnEndOfAChoiceAlreadyStoppedByItsStopStringIsIgnored() throws Exception {
        fake.play(new Text(0, " she said the end"), new Finish(0, FinishReason.TIMEOUT));

        post(PATH, """
                {"model":"fake","prompt":"Once","stop":"said"}""")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.choices[0].text").value(" she "))
                .andExpect(jsonPath("$.choices[0].finish_reason").value("stop"));
    }

    @Test
    void aTimeoutIs503() throws Exception {
        fake.play(new Text(0, " she"), new Finish(0, FinishReason.TIMEOUT));

        post(PATH, """
                {"model":"fake","prompt":"Once"}""")
                .andExpect(status().isServiceUnavailable())
                .andExpect(jsonPath("$.error.code").value("request_timeout"));
    }

    @Test
    void aSilentModelGetsKeepAliveCommentsUntilItSpeaks() throws Exception {
        fake.play(new Pause(Duration.ofMillis(450)), new Text(0, " there"), new Finish(0, FinishReason.LENGTH));

        String body = stream("""
                {"model":"fake","prompt":"Once","stream":true}""").getContentAsString();

        assertThat(body).startsWith(": keep-alive\n\n");
        assertThat(body.indexOf(": keep-alive")).isLessThan(body.indexOf("data: "));
    }

    @Test
    void aFailureMidStreamSendsAnErrorChunkThenDone() throws Exception {
        fake.play(
                new Text(0, " there"),
                new Fail(new IllegalStateException("device lost")),
                new Finish(0, FinishReason.ERROR));

        String body = stream("""
                {"model":"fake","prompt":"Once","stream":true}""").getContentAsString();

        List<String> events = List.of(body.split("\n\n"));
        String error = events.get(events.size() - 2).substring("data: ".length());
        assertThat(error)
                .isEqualTo("{\"error\":{\"message\":\"The model failed while generating\",\"type\":\"server_error\","
                        + "\"param\":null,\"code\":\"engine_error\"}}");
        OpenApiContract.load().assertSchema("ErrorResponse", error);
        assertThat(events.getLast()).isEqualTo("data: [DONE]");
        assertThat(body).doesNotContain("device lost");
    }

    @Test
    void nonStreamingCollectsEveryChoiceInOrder() throws Exception {
        fake.play(
                new Text(1, " b"),
                new Text(0, " a"),
                new Finish(1, FinishReason.LENGTH),
                new Finish(0, FinishReason.STOP));

        post(PATH, """
                {"model":"fake","prompt":"Once","n":2,"seed":5}""")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.object").value("text_completion"))
                .andExpect(jsonPath("$.choices[0].text").value(" a"))
                .andExpect(jsonPath("$.choices[0].finish_reason").value("stop"))
                .andExpect(jsonPath("$.choices[1].text").value(" b"))
                .andExpect(jsonPath("$.choices[1].finish_reason").value("length"))
                .andExpect(jsonPath("$.usage.completion_tokens").value(2));
        assertThat(fake.requests().getFirst().n()).isEqualTo(2);
        assertThat(fake.requests().getFirst().sampling().seed()).hasValue(5);
        assertThat(fake.requests().getFirst().maxTokens()).isEqualTo(16);
        assertThat(fake.requests().getFirst().stopTokens()).containsExactly(2);
    }

    @Test
    void ignoreEosSubmitsNoStopTokens() throws Exception {
        fake.play(new Text(0, " a"), new Finish(0, FinishReason.LENGTH));

        post(PATH, """
                {"model":"fake","prompt":"Once","ignore_eos":true,"max_tokens":1}""").andExpect(status().isOk());

        assertThat(fake.requests().getFirst().stopTokens()).isEmpty();
    }

    @Test
    void aFullQueueIs429WithRetryAfter() throws Exception {
        when(fake.model().submit(any(), any()))
                .thenThrow(new AdmissionException(
                        AdmissionException.Reason.QUEUE_FULL,
                        "256 requests are already waiting for fake",
                        Duration.ofSeconds(2)));

        MockHttpServletResponse r = post(PATH, """
                {"model":"fake","prompt":"Once"}""")
                .andExpect(status().isTooManyRequests())
                .andExpect(header().string("Retry-After", "2"))
                .andExpect(jsonPath("$.error.type").value("rate_limit_error"))
                .andExpect(jsonPath("$.error.code").value("queue_full"))
                .andReturn()
                .getResponse();
        assertDocumented(r, 429, "2");
    }

    @Test
    void aLoadingModelIs503WithRetryAfter() throws Exception {
        when(registry.textModel("fake"))
                .thenThrow(new ModelNotReadyException("The model 'fake' is loading; try again shortly", true));

        MockHttpServletResponse r = post(PATH, """
                {"model":"fake","prompt":"Once"}""")
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "5"))
                .andExpect(jsonPath("$.error.code").value("model_loading"))
                .andExpect(jsonPath("$.error.param").value("model"))
                .andReturn()
                .getResponse();
        assertDocumented(r, 503, "5");
    }

    @Test
    void anUnexpectedFailureIs500WithoutItsDetails() throws Exception {
        when(registry.textModel("fake")).thenThrow(new IllegalStateException("secret internals"));

        post(PATH, """
                {"model":"fake","prompt":"Once"}""")
                .andExpect(status().isInternalServerError())
                .andExpect(jsonPath("$.error.type").value("server_error"))
                .andExpect(jsonPath("$.error.message").value("The server had an error while processing your request."));
    }
}
