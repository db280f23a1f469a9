package com.llmserve.app.openai.responses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.llmserve.app.OpenApiContract;
import com.llmserve.app.ScriptedModel;
import com.llmserve.app.ScriptedModel.Fail;
import com.llmserve.app.ScriptedModel.Finish;
import com.llmserve.app.ScriptedModel.Text;
import com.llmserve.app.openai.AnswerGrammars;
import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.ScriptedEndpointTests;
import com.llmserve.engine.sched.FinishReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The Responses endpoint over a scripted model: whole and streamed responses, the input items, the refusals. */
@Import(AnswerGrammars.class)
@WebMvcTest(ResponsesController.class)
@EnableConfigurationProperties(ApiProperties.class)
class ResponsesControllerTests extends ScriptedEndpointTests {

    private static final String PATH = "/v1/responses";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final OpenApiContract contract = OpenApiContract.load();

    /** One SSE event: its {@code event:} name and its data. */
    private record Sse(String name, JsonNode data) {}

    private static List<Sse> events(String body) {
        List<Sse> events = new ArrayList<>();
        for (String block : body.split("\n\n")) {
            String name = null;
            String data = null;
            for (String line : block.split("\n")) {
                if (line.startsWith("event: ")) {
                    name = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data = line.substring(6);
                }
            }
            if (data != null) {
                events.add(new Sse(name, JSON.readTree(data)));
            }
        }
        return events;
    }

    private String prompt() {
        return ScriptedModel.TOKENIZER.decode(fake.requests().getFirst().prompt());
    }

    @Test
    void textInputIsAnsweredWithOneMessageAndTheRequestsSettingsEchoed() throws Exception {
        fake.play(new Text(0, " Hello"), new Finish(0, FinishReason.STOP));

        MvcResult result = post(PATH, """
                {"model":"fake","input":"Hi","instructions":"Be brief.","max_output_tokens":20,"temperature":0.5,
                 "metadata":{"k":"v"},"store":false}""")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.object").value("response"))
                .andExpect(jsonPath("$.id").value(startsWith("resp_")))
                .andExpect(jsonPath("$.status").value("completed"))
                .andExpect(jsonPath("$.output.length()").value(1))
                .andExpect(jsonPath("$.output[0].type").value("message"))
                .andExpect(jsonPath("$.output[0].role").value("assistant"))
                .andExpect(jsonPath("$.output[0].status").value("completed"))
                .andExpect(jsonPath("$.output[0].content[0].type").value("output_text"))
                .andExpect(jsonPath("$.output[0].content[0].text").value(" Hello"))
                .andExpect(jsonPath("$.instructions").value("Be brief."))
                .andExpect(jsonPath("$.max_output_tokens").value(20))
                .andExpect(jsonPath("$.temperature").value(0.5))
                .andExpect(jsonPath("$.metadata.k").value("v"))
                .andExpect(jsonPath("$.store").value(false))
                .andExpect(jsonPath("$.text.format.type").value("text"))
                .andExpect(jsonPath("$.tool_choice").value("auto"))
                .andExpect(jsonPath("$.usage.output_tokens")
                        .value(ScriptedModel.TOKENIZER.encode("Hello", false, false).length))
                .andReturn();

        MockHttpServletResponse r = result.getResponse();
        contract.assertResponse("POST", PATH, 200, r.getContentType(), r.getContentAsString(), Map.of());
        assertThat(prompt()).contains("system\nBe brief.").contains("user\nHi");
        assertThat(fake.requests().getFirst().maxTokens()).isEqualTo(20);
    }

    @Test
    void aStreamIsCreatedThenTheMessageIsAddedFilledAndDoneThenTheResponseCompletes() throws Exception {
        fake.play(new Text(0, " Once"), new Text(0, " upon"), new Finish(0, FinishReason.STOP));

        List<Sse> events = events(stream(PATH, """
                {"model":"fake","input":[{"role":"user","content":"Tell"}],"stream":true}""").getContentAsString());

        assertThat(events.stream().map(Sse::name).toList())
                .containsExactly(
                        "response.created",
                        "response.in_progress",
                        "response.output_item.added",
                        "response.content_part.added",
                        "response.output_text.delta",
                        "response.output_text.delta",
                        "response.output_text.done",
                        "response.content_part.done",
                        "response.output_item.done",
                        "response.completed");
        for (int i = 0; i < events.size(); i++) {
            Sse e = events.get(i);
            assertThat(e.data().get("type").asString()).isEqualTo(e.name());
            assertThat(e.data().get("sequence_number").asInt()).isEqualTo(i);
            contract.assertSchema("ResponseStreamEvent", e.data().toString());
        }
        JsonNode completed = events.getLast().data().get("response");
        assertThat(completed.get("status").asString()).isEqualTo("completed");
        assertThat(completed.at("/output/0/content/0/text").asString()).isEqualTo(" Once upon");
        assertThat(completed.at("/usage/output_tokens").asInt()).isEqualTo(2);
        assertThat(events.getFirst().data().at("/response/status").asString()).isEqualTo("in_progress");
        assertThat(events.getFirst().data().at("/response/id").asString())
                .isEqualTo(completed.get("id").asString());
    }

    @Test
    void anAnswerCutOffByMaxOutputTokensIsIncomplete() throws Exception {
        fake.play(new Text(0, " Once"), new Finish(0, FinishReason.LENGTH));

        post(PATH, """
                {"model":"fake","input":"Tell","max_output_tokens":1}""")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("incomplete"))
                .andExpect(jsonPath("$.incomplete_details.reason").value("max_output_tokens"))
                .andExpect(jsonPath("$.output[0].status").value("incomplete"));

        fake.play(new Text(0, " Once"), new Finish(0, FinishReason.LENGTH));
        List<Sse> events = events(stream(PATH, """
                {"model":"fake","input":"Tell","max_output_tokens":1,"stream":true}""").getContentAsString());
        assertThat(events.getLast().name()).isEqualTo("response.incomplete");
        contract.assertSchema("ResponseStreamEvent", events.getLast().data().toString());
    }

    @Test
    void aFailureMidStreamEndsItWithResponseFailed() throws Exception {
        fake.play(new Text(0, " Once"), new Fail(new IllegalStateException("device lost")));

        List<Sse> events = events(stream(PATH, """
                {"model":"fake","input":"Tell","stream":true}""").getContentAsString());

        Sse last = events.getLast();
        assertThat(last.name()).isEqualTo("response.failed");
        assertThat(last.data().at("/response/status").asString()).isEqualTo("failed");
        assertThat(last.data().at("/response/error/code").asString()).isEqualTo("server_error");
        contract.assertSchema("ResponseStreamEvent", last.data().toString());
    }

    @Test
    void outputItemsSentBackBecomeTheConversationTheTemplateRenders() throws Exception {
        fake.play(new Text(0, " Sunny"), new Finish(0, FinishReason.STOP));

        post(PATH, """
                {"model":"fake","tools":[{"type":"function","name":"get_weather","parameters":{"type":"object",
                  "properties":{"city":{"type":"string"}}}}],
                 "input":[
                  {"role":"user","content":[{"type":"input_text","text":"Weather in Paris?"}]},
                  {"type":"reasoning","id":"rs_1","summary":[],"content":[{"type":"reasoning_text","text":"Call it."}]},
                  {"type":"message","id":"msg_1","role":"assistant","status":"completed",
                   "content":[{"type":"output_text","text":"Checking.","annotations":[],"logprobs":[]}]},
                  {"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather",
                   "arguments":"{\\"city\\": \\"Paris\\"}","status":"completed"},
                  {"type":"function_call_output","call_id":"call_1","output":"18 degrees"}]}""")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.tools[0].name").value("get_weather"));

        String prompt = prompt();
        assertThat(prompt)
                .contains("get_weather")
                .contains("assistant\nChecking.\n<tool_call>")
                .contains("\"city\": \"Paris\"")
                .contains("<tool_response>\n18 degrees\n</tool_response>");
        assertThat(prompt.indexOf("Weather in Paris?")).isLessThan(prompt.indexOf("Checking."));
    }

    @Test
    void statefulFeaturesAreRefusedSayingNothingIsStored() throws Exception {
        post(PATH, """
                {"model":"fake","input":"Hi","store":true}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error.param").value("store"))
                .andExpect(jsonPath("$.error.message").value(containsString("does not store")));
        post(PATH, """
                {"model":"fake","input":"Hi","previous_response_id":"resp_1"}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error.param").value("previous_response_id"));
        post(PATH, """
                {"model":"fake","input":[{"type":"item_reference","id":"msg_1"}]}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error.param").value("input[0].type"));
        post(PATH, """
                {"model":"fake","input":"Hi","background":true}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error.param").value("background"));
        mvc.perform(get(PATH + "/resp_123"))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.error.code").value("response_not_found"));
        assertThat(fake.requests()).isEmpty();
    }

    @Test
    void whatCannotBeHonouredIsA400NamingIt() throws Exception {
        post(PATH, """
                {"model":"fake"}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error.param").value("input"));
        post(PATH, """
                {"model":"fake","input":[{"role":"user","content":[{"type":"input_image","image_url":"x"}]}]}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error.param").value("input[0].content[0].type"));
        post(PATH, """
                {"model":"fake","input":"Hi","tools":[{"type":"web_search"}]}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error.param").value("tools[0].type"));
        post(PATH, """
                {"model":"fake","input":"Hi","truncation":"auto"}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error.param").value("truncation"));
        post(PATH, """
                {"model":"fake","input":"Hi","text":{"format":{"type":"json_schema","name":"x",
                 "schema":{"type":"object","not":{}}}}}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error.param").value(startsWith("text.format.schema")));
        post(PATH, """
                {"model":"fake","input":"Hi","include":["nope"]}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error.param").value("include[0]"));
        assertThat(fake.requests()).isEmpty();
    }

    @Test
    void logprobsComeWithTheMessageTextWhenIncluded() throws Exception {
        fake.play(new Text(0, " Hello"), new Finish(0, FinishReason.STOP));

        post(PATH, """
                {"model":"fake","input":"Hi","include":["message.output_text.logprobs"],"top_logprobs":1}""")
                .andExpect(status().isOk())
                .andExpect(
                        jsonPath("$.output[0].content[0].logprobs[0].logprob").value(-0.5))
                .andExpect(jsonPath("$.output[0].content[0].logprobs[0].top_logprobs[0].logprob")
                        .value(-0.5));
        assertThat(fake.requests().getFirst().topLogprobs()).isEqualTo(1);
    }
}
