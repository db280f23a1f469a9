package com.llmserve.app.openai.completions;

import com.llmserve.app.generation.Delta;
import com.llmserve.app.generation.Generation;
import com.llmserve.app.openai.GenerationShape;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A text completion as OpenAI shapes it: one choice per chunk, each choice's text after its
 * echoed prompt, and with {@code echo} and {@code logprobs} the prompt's tokens first in the
 * log-probabilities as they are in the text.
 */
final class CompletionShape implements GenerationShape<CompletionResponses.Choice> {

    private final CompletionRequest request;
    private final String id;
    private final long created;
    private final Tokenizer tokenizer;
    private final List<int[]> prompts;
    private final List<String> promptTexts;
    private final Generation generation;

    /**
     * @param promptTexts per prompt, what {@code echo} returns before its choices' text ("" without echo)
     * @param generation  the generation answered, whose prompt log-probabilities are echoed
     */
    CompletionShape(
            CompletionRequest request,
            String id,
            long created,
            Tokenizer tokenizer,
            List<int[]> prompts,
            List<String> promptTexts,
            Generation generation) {
        this.request = request;
        this.id = id;
        this.created = created;
        this.tokenizer = tokenizer;
        this.prompts = prompts;
        this.promptTexts = promptTexts;
        this.generation = generation;
    }

    @Override
    public List<CompletionResponses.Choice> opening() {
        List<CompletionResponses.Choice> echoed = new ArrayList<>();
        if (request.echo()) {
            for (int i = 0; i < promptTexts.size() * request.n(); i++) {
                echoed.add(new CompletionResponses.Choice(i, promptText(i), null, null));
            }
        }
        return echoed;
    }

    @Override
    public List<CompletionResponses.Choice> chunks(Delta d) {
        CompletionResponses.Logprobs lp = request.logprobs().isPresent()
                ? CompletionResponses.Logprobs.of(
                        d.tokens(), promptText(d.index()).length())
                : null;
        return List.of(new CompletionResponses.Choice(d.index(), d.text(), lp, d.finishReason()));
    }

    @Override
    public CompletionResponses.Completion chunk(List<CompletionResponses.Choice> choices, JsonNode usage) {
        return new CompletionResponses.Completion(
                id, CompletionResponses.OBJECT, created, request.model(), choices, usage);
    }

    @Override
    public CompletionResponses.Completion answer(List<Collected> choices, JsonNode usage) {
        List<CompletionResponses.Choice> answered = new ArrayList<>(choices.size());
        for (int i = 0; i < choices.size(); i++) {
            Collected c = choices.get(i);
            String prompt = promptText(i);
            CompletionResponses.Logprobs lp = null;
            if (request.logprobs().isPresent()) {
                lp = CompletionResponses.Logprobs.of(c.tokens(), prompt.length());
                if (request.echo()) {
                    int p = i / request.n();
                    lp = CompletionResponses.Logprobs.ofPrompt(tokenizer, prompts.get(p), generation.promptLogprobs(p))
                            .plus(lp);
                }
            }
            answered.add(new CompletionResponses.Choice(i, prompt + c.text(), lp, c.finishReason()));
        }
        return chunk(answered, usage); // a completion and its chunks share one shape
    }

    /** The echoed prompt of choice {@code index}. */
    private String promptText(int index) {
        return promptTexts.get(index / request.n());
    }
}
