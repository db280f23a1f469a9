/**
 * Chat templates: {@link com.llmserve.engine.chat.ChatTemplate} renders a conversation of
 * {@link com.llmserve.engine.chat.ChatMessage}s with a model's Jinja2 {@code tokenizer.chat_template}
 * (or the ChatML fallback) on Jinjava configured to behave like Hugging Face's
 * {@code apply_chat_template}; failures are {@link com.llmserve.engine.chat.ChatTemplateException}s.
 */
package com.llmserve.engine.chat;
