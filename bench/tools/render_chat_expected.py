"""Expected texts of chat templates, rendered by the reference: Python's jinja2 set up as Hugging
Face transformers' apply_chat_template sets it up (ImmutableSandboxedEnvironment with trim_blocks
and lstrip_blocks, loop controls, {% generation %}, raise_exception, strftime_now, a tojson that
is json.dumps with ensure_ascii=False, bos_token/eos_token, add_generation_prompt and keyword
variables). ChatTemplateRenderingTests compares the engine's rendering with these files, so they
must not come from the engine itself.

A case is a file expected/TEMPLATE/CONVERSATION.(gen|nogen)[.VARIANT].txt; CONVERSATIONS, VARIANTS
and model() mirror the constants of ChatTemplateRenderingTests and must be kept equal to them.

  render_chat_expected.py          writes the cases of CASES (the module's own templates)
  render_chat_expected.py --check  renders every case already under expected/ (hand-written ones
                                   included) and reports those the reference renders differently

Needs jinja2 3.x (pip install jinja2); run from anywhere.
"""
import json, sys
from datetime import datetime
from pathlib import Path

import jinja2
import jinja2.ext
from jinja2.sandbox import ImmutableSandboxedEnvironment

ROOT = Path(__file__).resolve().parents[2]
CHAT = ROOT / "engine/src/test/resources/com/llmserve/engine/chat"
EXPECTED = CHAT / "expected"
OWN_TEMPLATES = CHAT / "templates"
SHARED_TEMPLATES = ROOT.parent / "shared/tokenizers/chat-templates"

# ChatTemplateRenderingTests.MARCH_4_2025
NOW = datetime(2025, 3, 4, 10, 0, 0)

SYSTEM = {"role": "system", "content": "You are a helpful assistant."}
HELLO = {"role": "user", "content": "Hello!"}
ANSWER = {"role": "assistant", "content": "Hi! How can I help?"}
QUESTION = {"role": "user", "content": "What is 2+2?"}
THINKING_ANSWER = {"role": "assistant", "content": "<think>\nThe user greets me.\n</think>\n\nHi! How can I help?"}
REASONED_ANSWER = {"role": "assistant", "content": "Hi! How can I help?", "reasoning_content": "The user greets me."}
PADDED_SYSTEM = {"role": "system", "content": "You are a helpful assistant.\n"}
PADDED_HELLO = {"role": "user", "content": "\n  Hello!  \n"}

WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The current weather in a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
WEATHER_QUESTION = {"role": "user", "content": "What is the weather in Paris?"}
WEATHER_CALL = {
    "role": "assistant",
    "content": "<think>\nI should call the tool.\n</think>\n\n",
    "tool_calls": [{"id": "call_1", "type": "function",
                    "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}],
}
WEATHER_RESULT = {"role": "tool", "content": '{"temperature": 21}', "tool_call_id": "call_1"}

# name -> (messages, variables)
CONVERSATIONS = {
    "system-user-assistant-user": ([SYSTEM, HELLO, ANSWER, QUESTION], {}),
    "user-assistant-user": ([HELLO, ANSWER, QUESTION], {}),
    "user": ([HELLO], {}),
    "thinking-history": ([HELLO, THINKING_ANSWER, QUESTION], {}),
    "user-thinking-answer": ([HELLO, THINKING_ANSWER], {}),
    "user-reasoned-answer": ([HELLO, REASONED_ANSWER], {}),
    "padded-system-user": ([PADDED_SYSTEM, PADDED_HELLO], {}),
    "tool-call-result": ([SYSTEM, WEATHER_QUESTION, WEATHER_CALL, WEATHER_RESULT], {"tools": [WEATHER_TOOL]}),
}

# more keyword variables of apply_chat_template, by the name a case file carries after gen/nogen
VARIANTS = {"nothink": {"enable_thinking": False}}

# the cases this script writes: the module's own templates (in templates/)
CASES = {
    "Qwen-Qwen3-0.6B": [
        "system-user-assistant-user.gen", "system-user-assistant-user.nogen", "user.gen", "user.gen.nothink",
        "thinking-history.gen", "user-thinking-answer.nogen", "user-reasoned-answer.nogen",
        "tool-call-result.gen", "tool-call-result.gen.nothink",
    ],
    "google-gemma-3-it": [
        "system-user-assistant-user.gen", "system-user-assistant-user.nogen", "user-assistant-user.gen",
        "user-assistant-user.nogen", "user.gen", "padded-system-user.gen",
    ],
}


def model(template):
    """ChatTemplateRenderingTests.model: the BOS and EOS texts and extra variables of each template's model."""
    if template.startswith(("meta-llama", "meetkai")):
        return "<|begin_of_text|>", "<|eot_id|>", {}
    if template.startswith("fireworks"):
        return "<|begin_of_text|>", "<|eot_id|>", {"functions": "[]", "datetime": "2025-03-04"}
    if template.startswith("NousResearch"):
        return "<|begin_of_text|>", "<|im_end|>", {}
    if template.startswith("Qwen"):
        return "", "<|im_end|>", {}
    if template.startswith("mistralai"):
        return "<s>", "</s>", {}
    if template.startswith("google-gemma"):
        return "<bos>", "<eos>", {}
    if template.startswith("microsoft-Phi"):
        return "<s>", "<|endoftext|>", {}
    if "deepseek" in template or "DeepSeek" in template:
        return "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>", {}
    if template.startswith("CohereForAI"):
        return "<BOS_TOKEN>", "<|END_OF_TURN_TOKEN|>", {}
    raise ValueError(f"no model for {template}")


class Generation(jinja2.ext.Extension):
    """{% generation %}: transformers' AssistantTracker, which outside training only renders the body."""
    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_render", []), [], [], body).set_lineno(lineno)

    def _render(self, caller):
        return caller()


def environment():
    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        # transformers' own: json.dumps, without the HTML escaping of Jinja's tojson
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[Generation, jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = lambda fmt: NOW.strftime(fmt)
    return env


def template_source(name):
    for folder in (OWN_TEMPLATES, SHARED_TEMPLATES):
        path = folder / f"{name}.jinja"
        if path.exists():
            return path.read_text(encoding="utf-8")
    raise FileNotFoundError(f"no template {name}.jinja in {OWN_TEMPLATES} or {SHARED_TEMPLATES}")


def render(env, name, case):
    parts = case.split(".")
    conversation, prompt, variant = parts[0], parts[1], parts[2] if len(parts) > 2 else None
    if prompt not in ("gen", "nogen"):
        raise ValueError(f"{case}: expected gen or nogen after the conversation")
    messages, variables = CONVERSATIONS[conversation]
    bos, eos, model_variables = model(name)
    kwargs = {**model_variables, **variables, **(VARIANTS[variant] if variant else {})}
    return env.from_string(template_source(name)).render(
        messages=messages, add_generation_prompt=prompt == "gen", bos_token=bos, eos_token=eos, **kwargs)


def main(args):
    env = environment()
    if args == ["--check"]:
        differ = 0
        for folder in sorted(p for p in EXPECTED.iterdir() if p.is_dir()):
            if folder.name == "fallback-chatml":
                continue  # the engine's own template, not a file
            for file in sorted(folder.glob("*.txt")):
                ok = render(env, folder.name, file.name[:-len(".txt")]) == file.read_text(encoding="utf-8")
                differ += not ok
                print(("same   " if ok else "DIFFER ") + f"{folder.name}/{file.name}")
        return 1 if differ else 0
    if args:
        print(__doc__)
        return 2
    for name, cases in CASES.items():
        folder = EXPECTED / name
        folder.mkdir(parents=True, exist_ok=True)
        for case in cases:
            # newline="" keeps "\n" as written on every platform
            with open(folder / f"{case}.txt", "w", encoding="utf-8", newline="") as out:
                out.write(render(env, name, case))
            print(f"wrote {name}/{case}.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
