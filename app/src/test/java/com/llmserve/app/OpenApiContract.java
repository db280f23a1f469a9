package com.llmserve.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.MessageResolver;
import com.atlassian.oai.validator.report.ValidationReport;
import com.atlassian.oai.validator.schema.SchemaValidator;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The repository's {@code openapi.yaml}, checked with the Atlassian OpenAPI validator: whole
 * responses against their operation (status, content type, headers, body schema) and single
 * JSON documents (stream chunks) against a named schema.
 */
public final class OpenApiContract {

    private static OpenApiContract instance;

    private final OpenApiInteractionValidator validator;
    private final SchemaValidator schemas;
    private final OpenAPI api;
    private final List<String> parseMessages;

    private OpenApiContract(Path spec) {
        String url = spec.toUri().toString();
        this.validator =
                OpenApiInteractionValidator.createForSpecificationUrl(url).build();
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        var parsed = new OpenAPIV3Parser().readLocation(url, null, options);
        this.api = parsed.getOpenAPI();
        this.parseMessages = parsed.getMessages() == null ? List.of() : List.copyOf(parsed.getMessages());
        this.schemas = new SchemaValidator(api, new MessageResolver());
    }

    /** The contract at the repository root (surefire passes its path). */
    public static synchronized OpenApiContract load() {
        if (instance == null) {
            String configured = System.getProperty("llmserve.openapi");
            Path spec = configured != null ? Path.of(configured) : Path.of("..", "openapi.yaml");
            assertThat(Files.isRegularFile(spec))
                    .as("openapi.yaml at " + spec.toAbsolutePath())
                    .isTrue();
            instance = new OpenApiContract(spec);
        }
        return instance;
    }

    /** What the OpenAPI parser found wrong with the document itself (unresolved refs, bad structure). */
    public List<String> parseMessages() {
        return parseMessages;
    }

    /** Asserts that a response is one the contract allows for {@code method path}. */
    public void assertResponse(
            String method,
            String path,
            int status,
            String contentType,
            String body,
            Map<String, List<String>> headers) {
        SimpleResponse.Builder response = SimpleResponse.Builder.status(status).withBody(body);
        if (contentType != null) {
            response.withContentType(contentType);
        }
        headers.forEach((name, values) -> {
            if (!name.equalsIgnoreCase("content-type")) {
                response.withHeader(name, values);
            }
        });
        ValidationReport report = validator.validateResponse(path, Request.Method.valueOf(method), response.build());
        assertThat(report.getMessages())
                .as("%s %s → %d %s violates openapi.yaml", method, path, status, body)
                .isEmpty();
    }

    /** Asserts that a JSON document matches {@code #/components/schemas/<name>}. */
    public void assertSchema(String name, String json) {
        assertThat(api.getComponents().getSchemas()).as("schema " + name).containsKey(name);
        Schema<?> ref = new Schema<>().$ref("#/components/schemas/" + name);
        ValidationReport report = schemas.validate(json, ref, "response.body");
        assertThat(report.getMessages()).as("%s violates schema %s", json, name).isEmpty();
    }
}
