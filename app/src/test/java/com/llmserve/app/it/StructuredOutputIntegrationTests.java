package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.app.TestModels;
import com.llmserve.app.models.ModelRegistry;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Structured output and tool calls through the chat API, on the real (story-trained, tool-naive)
 * model: whatever it would say, the answer parses and fits the schema, and a forced call is a
 * valid call.
 */
@ServiceTest
class StructuredOutputIntegrationTests {

    private static final String PERSON_SCHEMA = """
            {"type": "object",
             "properties": {
               "name": {"type": "string", "maxLength": 20},
               "age": {"type": "integer"},
               "mood": {"enum": ["happy", "sad", "sleepy"]},
               "friends": {"type": "array", "items": {"type": "string", "maxLength": 10}, "maxItems": 3}
             },
             "required": ["name", "age", "mood", "friends"],
             "additionalProperties": false}""";

    private static final String WEATHER_TOOL = """
            {"type": "function", "function": {"name": "get_weather", "description": "The weather in a city",
             "parameters": {"type": "object", "properties": {"city": {"type": "string", "maxLength": 24},
               "unit": {"enum": ["celsius", "fahrenheit"]}}, "required": ["city", "unit"]}}}""";

    private static final String TIME_TOOL = """
            {"type": "function", "function": {"name": "get_time",
             "parameters": {"type": "object", "properties": {"zone": {"type": "string", "maxLength": 12}},
               "required": ["zone"]}}}""";

    @LocalServerPort
    int port;

    @Autowired
    ModelRegistry registry;

    final JsonMapper json = JsonMapper.builder().build();
    Http http;

    @BeforeEach
    void ready() throws InterruptedException {
        ModelsReady.await(registry);
        http = new Http(port);
    }

    private JsonNode chat(String body) {
        HttpResponse<String> r = http.post("/v1/chat/completions", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return json.readTree(r.body());
    }

    private static String body(String extra) {
        return "{\"model\": \"" + TestModels.TEXT
                + "\", \"messages\": [{\"role\": \"user\", \"content\": \"Tell me about Lily\"}],"
                + " \"max_tokens\": 120, " + extra + "}";
    }

    @Test
    void jsonSchemaAnswersParseAndFitTheSchemaAtTemperatureOne() {
        JsonNode answer =
                chat(body("\"temperature\": 1, \"seed\": 11, \"n\": 8, \"response_format\": {\"type\": \"json_schema\","
                        + " \"json_schema\": {\"name\": \"person\", \"strict\": true, \"schema\": " + PERSON_SCHEMA
                        + "}}"));
        assertThat(answer.get("choices")).hasSize(8);
        for (JsonNode choice : answer.get("choices")) {
            String content = choice.get("message").get("content").asString();
            JsonNode person = json.readTree(content);
            assertThat(person.propertyNames()).containsExactly("name", "age", "mood", "friends");
            assertThat(person.get("name").isString()).isTrue();
            assertThat(person.get("name").asString().length()).isLessThanOrEqualTo(20);
            assertThat(person.get("age").isIntegralNumber()).as(content).isTrue();
            assertThat(person.get("mood").asString()).isIn("happy", "sad", "sleepy");
            assertThat(person.get("friends").size()).isLessThanOrEqualTo(3);
            assertThat(choice.get("finish_reason").asString()).isIn("stop", "length");
        }
    }

    @Test
    void jsonObjectAnswersAreObjects() {
        JsonNode answer = chat(body("\"temperature\": 0, \"response_format\": {\"type\": \"json_object\"}"));
        JsonNode parsed = json.readTree(
                answer.get("choices").get(0).get("message").get("content").asString());
        assertThat(parsed.isObject()).isTrue();
    }

    @Test
    void requiredToolChoiceReturnsAValidCall() {
        JsonNode answer = chat(body("\"temperature\": 1, \"seed\": 5, \"tools\": [" + WEATHER_TOOL + ", " + TIME_TOOL
                + "], \"tool_choice\": \"required\", \"parallel_tool_calls\": false"));
        JsonNode choice = answer.get("choices").get(0);
        assertThat(choice.get("finish_reason").asString()).isEqualTo("tool_calls");
        JsonNode calls = choice.get("message").get("tool_calls");
        assertThat(calls).hasSize(1);
        JsonNode call = calls.get(0);
        assertThat(call.get("id").asString()).startsWith("call_");
        assertThat(call.get("type").asString()).isEqualTo("function");
        String name = call.get("function").get("name").asString();
        assertThat(name).isIn("get_weather", "get_time");
        JsonNode args = json.readTree(call.get("function").get("arguments").asString());
        if (name.equals("get_weather")) {
            assertThat(args.get("city").isString()).isTrue();
            assertThat(args.get("unit").asString()).isIn("celsius", "fahrenheit");
        } else {
            assertThat(args.get("zone").isString()).isTrue();
        }
    }

    @Test
    void aNamedFunctionIsTheOneCalled() {
        JsonNode answer = chat(body("\"temperature\": 1, \"tools\": [" + WEATHER_TOOL + ", " + TIME_TOOL
                + "], \"tool_choice\": {\"type\": \"function\", \"function\": {\"name\": \"get_time\"}}"));
        for (JsonNode call : answer.get("choices").get(0).get("message").get("tool_calls")) {
            assertThat(call.get("function").get("name").asString()).isEqualTo("get_time");
        }
    }

    @Test
    void aToolResultRoundTripIsAnswered() {
        String body = "{\"model\": \"" + TestModels.TEXT + "\", \"max_tokens\": 20, \"tools\": [" + WEATHER_TOOL + "],"
                + " \"messages\": [{\"role\": \"user\", \"content\": \"Weather in Paris?\"},"
                + " {\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\": \"call_1\", \"type\": \"function\","
                + " \"function\": {\"name\": \"get_weather\", \"arguments\": \"{\\\"city\\\": \\\"Paris\\\", \\\"unit\\\": \\\"celsius\\\"}\"}}]},"
                + " {\"role\": \"tool\", \"tool_call_id\": \"call_1\", \"content\": \"21 degrees\"}]}";
        JsonNode answer = chat(body);
        assertThat(answer.get("choices").get(0).get("finish_reason").asString()).isIn("stop", "length", "tool_calls");
    }

    @Test
    void streamedCallsArriveAsToolCallDeltas() {
        HttpResponse<String> r = http.post(
                "/v1/chat/completions",
                body("\"stream\": true, \"temperature\": 1, \"seed\": 9, \"tools\": [" + WEATHER_TOOL
                        + "], \"tool_choice\": \"required\", \"parallel_tool_calls\": false"));
        assertThat(r.statusCode()).isEqualTo(200);
        Map<Integer, StringBuilder> arguments = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        String finish = null;
        for (String event : Http.events(r.body())) {
            if (event.equals("[DONE]")) {
                continue;
            }
            JsonNode choice = json.readTree(event).get("choices").get(0);
            JsonNode calls = choice.get("delta").get("tool_calls");
            if (calls != null) {
                for (JsonNode c : calls) {
                    int index = c.get("index").asInt();
                    if (c.has("id")) {
                        names.add(c.get("function").get("name").asString());
                    }
                    arguments
                            .computeIfAbsent(index, i -> new StringBuilder())
                            .append(c.get("function").get("arguments").asString());
                }
            }
            if (!choice.get("finish_reason").isNull()) {
                finish = choice.get("finish_reason").asString();
            }
        }
        assertThat(names).containsExactly("get_weather");
        assertThat(json.readTree(arguments.get(0).toString()).get("unit").asString())
                .isIn("celsius", "fahrenheit");
        assertThat(finish).isEqualTo("tool_calls");
    }

    @Test
    void anUnsupportedSchemaKeywordIsA400NamingIt() {
        HttpResponse<String> r = http.post(
                "/v1/chat/completions",
                body("\"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"name\": \"x\", \"schema\":"
                        + " {\"type\": \"object\", \"properties\": {\"a\": {\"not\": {\"type\": \"string\"}}}}}}"));
        assertThat(r.statusCode()).isEqualTo(400);
        JsonNode error = json.readTree(r.body()).get("error");
        assertThat(error.get("message").asString()).contains("'not'").contains("#/properties/a");
        assertThat(error.get("param").asString()).isEqualTo("response_format.json_schema.schema");
    }

    @Test
    void requiredToolChoiceWithoutToolsIsA400() {
        HttpResponse<String> r = http.post("/v1/chat/completions", body("\"tool_choice\": \"required\""));
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(json.readTree(r.body()).get("error").get("param").asString()).isEqualTo("tool_choice");
    }
}
