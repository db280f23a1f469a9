package com.llmserve.app.openai;

import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.asyncDispatch;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.llmserve.app.ScriptedModel;
import com.llmserve.app.models.ModelRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

/**
 * What the slice tests of a generation endpoint share: a {@link ScriptedModel} served as
 * {@code fake} by a mocked registry, and JSON requests answered whole or streamed. A subclass is
 * the {@code @WebMvcTest} of one controller.
 */
public abstract class ScriptedEndpointTests {

    @Autowired
    protected MockMvc mvc;

    @MockitoBean
    protected ModelRegistry registry;

    protected final ScriptedModel fake = new ScriptedModel("fake");

    @BeforeEach
    protected void serveTheFake() {
        when(registry.textModel("fake")).thenReturn(fake.model());
    }

    /** Posts {@code json} to {@code path}. */
    protected ResultActions post(String path, String json) throws Exception {
        return mvc.perform(MockMvcRequestBuilders.post(path)
                .contentType(MediaType.APPLICATION_JSON)
                .content(json));
    }

    /** Posts a streaming request; its 200 response once the stream has ended. */
    protected MockHttpServletResponse stream(String path, String json) throws Exception {
        MvcResult started = post(path, json).andExpect(request().asyncStarted()).andReturn();
        started.getAsyncResult(10_000);
        return mvc.perform(asyncDispatch(started))
                .andExpect(status().isOk())
                .andReturn()
                .getResponse();
    }
}
