package com.llmserve.app.openai.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.llmserve.app.OpenApiContract;
import com.llmserve.app.ScriptedModel.Finish;
import com.llmserve.app.ScriptedModel.Text;
import com.llmserve.app.openai.AnswerGrammars;
import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.ScriptedEndpointTests;
import com.llmserve.engine.chat.ChatTemplate;
import com.llmserve.engine.sched.FinishReason;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;

/** The chat endpoint over a scripted model: chunk sequence per choice, template refusals, defaults. */
@Import(AnswerGrammars.class)
@WebMvcTest(ChatController.class)
@EnableConfigurationProperties(ApiProperties.class)
class ChatControllerTests extends ScriptedEndpointTests {

    private static final String PATH = "/v1/chat/completions";

    @Test
    void eachChoiceStreamsItsRoleThenContentThenAnEmptyDeltaWithTheFinishReason() throws Exception {
        fake.play(
                new Text(0, " there"),
                new Text(1, " was"),
                new Finish(1, FinishReason.STOP),
                new Finish(0, FinishReason.LENGTH));

        String body = stream(PATH, """
                {"model":"fake","messages":[{"role":"user","content":"Hi"}],"n":2,"stream":true}""").getContentAsString();

        List<String> events = List.of(body.split("\n\n"));
        assertThat(events.get(0)).contains("\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}");
        assertThat(events.get(1)).contains("\"index\":1,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}");
        assertThat(body)
                .contains("\"index\":0,\"delta\":{\"content\":\" there\"},\"logprobs\":null,\"finish_reason\":null")
                .contains("\"index\":1,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"stop\"")
                .contains("\"index\":0,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"length\"");
        assertThat(events.getLast()).isEqualTo("data: [DONE]");
        OpenApiContract contract = OpenApiContract.load();
        events.subList(0, events.size() - 1).forEach(e -> contract.assertSchema("ChatCompletionChunk", e.substring(6)));
    }

    @Test
    void withoutMaxTokensTheAnswerMayFillTheRestOfTheContext() throws Exception {
        fake.play(new Text(0, " Hello"), new Finish(0, FinishReason.STOP));

        post(PATH, """
                {"model":"fake","messages":[{"role":"user","content":"Hi"}]}""")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.object").value("chat.completion"))
                .andExpect(jsonPath("$.choices[0].message.role").value("assistant"))
                .andExpect(jsonPath("$.choices[0].message.content").value(" Hello"))
                .andExpect(jsonPath("$.choices[0].finish_reason").value("stop"));

        assertThat(fake.requests().getFirst().maxTokens())
                .isEqualTo(2048 - fake.requests().getFirst().prompt().length);
    }

    @Test
    void aConversationTheTemplateRefusesIs400OnMessages() throws Exception {
        when(fake.model().chatTemplate())
                .thenReturn(ChatTemplate.of(
                        "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}",
                        "<s>",
                        "</s>"));

        post(PATH, """
                {"model":"fake","messages":[{"role":"user","content":"a"},{"role":"user","content":"b"}]}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error.param").value("messages"))
                .andExpect(jsonPath("$.error.code").value("invalid_conversation"))
                .andExpect(jsonPath("$.error.message").value(containsString("roles must alternate")));
        assertThat(fake.requests()).isEmpty();
    }

    @Test
    void logprobsCarryTokenBytesAndAlternatives() throws Exception {
        fake.play(new Text(0, " Hello"), new Finish(0, FinishReason.LENGTH));

        post(PATH, """
                {"model":"fake","messages":[{"role":"user","content":"Hi"}],"logprobs":true,"top_logprobs":1}""")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.choices[0].logprobs.content[0].logprob").value(-0.5))
                .andExpect(jsonPath("$.choices[0].logprobs.content[0].bytes[0]").value(32))
                .andExpect(jsonPath("$.choices[0].logprobs.content[0].top_logprobs[0].logprob")
                        .value(-0.5))
                .andExpect(jsonPath("$.choices[0].logprobs.refusal").doesNotExist());
        assertThat(fake.requests().getFirst().topLogprobs()).isEqualTo(1);
    }
}
