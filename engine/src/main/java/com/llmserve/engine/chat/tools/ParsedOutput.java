package com.llmserve.engine.chat.tools;

import java.util.List;

/**
 * A model's output told apart: what the user reads, what the model reasoned, and the calls.
 *
 * @param content   the text outside the calls, as written, except that when there are calls the
 *                  whitespace at its end is dropped (it only led up to the calls) and it is null
 *                  if nothing is left, as OpenAI's API has it
 * @param reasoning the reasoning, for formats that set it apart (gpt-oss's {@code analysis}
 *                  channel); null when there is none
 * @param calls     the calls, in the order written
 */
public record ParsedOutput(String content, String reasoning, List<ToolCall> calls) {

    public ParsedOutput {
        calls = List.copyOf(calls);
    }
}
