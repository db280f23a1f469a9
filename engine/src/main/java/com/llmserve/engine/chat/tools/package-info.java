/**
 * Tool calls in a model's output: {@link com.llmserve.engine.chat.tools.ToolCallFormat} tells from
 * the chat template how the model writes them, {@link com.llmserve.engine.chat.tools.ToolCallParser}
 * turns a finished output into content, reasoning and
 * {@link com.llmserve.engine.chat.tools.ToolCall}s, and
 * {@link com.llmserve.engine.chat.tools.StreamingToolCallParser} does the same as the output is
 * generated, giving {@link com.llmserve.engine.chat.tools.StreamEvent}s in the shape of OpenAI's
 * streamed deltas.
 */
package com.llmserve.engine.chat.tools;
