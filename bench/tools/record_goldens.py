"""Greedy goldens of a tiny model from a running llama-server, in ../shared/golden's JSON format.

Teacher-forced, one request per step instead of the README's generation plus recomputation: step k sends prompt_tokens + tokens[:k] with n_predict 1, temperature 0 and n_probs 8; tokens
whose piece alone is incomplete UTF-8 are banned by logit_bias so the server always reports the
step (the top-8 list comes from the raw logits either way), and the step's token is top-1. Run
against tiny-qwen3-Q8_0.gguf, it reproduced ../shared/golden/architectures/tiny-qwen3-Q8_0.json
exactly (same tokens, every top-8 log-probability equal).

  llama-server -m MODEL.gguf --port 8099 -c 512 -np 1 -t 2 -tb 2 -b 512 -ub 512 --cache-ram 0
  record_goldens.py 8099 MODEL.gguf COMMIT MODEL.json ../shared/golden/inputs.json
"""
import json, math, sys, urllib.request

N_VOCAB = 512  # stories260K's tokenizer, which the tiny models use

def post(port, path, body):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(req))

def main(port, model, commit, out, prompts, steps=24):
    n_vocab = N_VOCAB
    bans = []
    # pieces whose bytes alone are incomplete UTF-8 (byte tokens <0x80>..<0xFF>) detokenize to U+FFFD
    for i in range(n_vocab):
        d = post(port, "/detokenize", {"tokens": [i]})["content"]
        if "\ufffd" in d:
            bans.append([i, False])
    cases = []
    for p in prompts:
        toks = post(port, "/tokenize", {"content": p, "add_special": True})["tokens"]
        gen, recs = [], []
        for k in range(steps):
            r = post(port, "/completion", {"prompt": toks + gen, "n_predict": 1, "temperature": 0, "n_probs": 8,
                                           "cache_prompt": False, "samplers": ["temperature"], "return_tokens": True,
                                           "logit_bias": bans})
            top = r["completion_probabilities"][0]["top_logprobs"]
            ids = [t["id"] for t in top]
            lps = [t["logprob"] for t in top]
            recs.append({"token": ids[0], "top": [[i, float(f"{math.exp(l):.9g}")] for i, l in zip(ids, lps)],
                         "top_logprob": [float(f"{l:.9g}") for l in lps],
                         "margin": math.exp(lps[0]) - math.exp(lps[1]), "logit_margin": lps[0] - lps[1]})
            gen.append(ids[0])
        cases.append({"prompt": p, "prompt_tokens": toks, "steps": recs})
    json.dump({"model": model, "llama_cpp_commit": commit,
               "request": "one /completion per step: prompt_tokens + tokens so far, n_predict 1, temperature 0, n_probs 8, samplers [temperature], cache_prompt false, incomplete-UTF-8 byte tokens banned by logit_bias",
               "cases": cases}, open(out, "w"), indent=1)

if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.exit("usage: record_goldens.py PORT MODEL_FILE_NAME LLAMA_CPP_COMMIT OUT.json shared/golden/inputs.json")
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], json.load(open(sys.argv[5]))["generation"]["tiny"])
