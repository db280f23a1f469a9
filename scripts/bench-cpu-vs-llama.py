#!/usr/bin/env python3
"""The engine's CPU backend beside llama.cpp's CPU build, side by side on the same GGUF files:
for each file, ROUNDS rounds of one engine run (scripts/generate.sh: a 128-token prompt, then 64
generated tokens, in one JVM that runs it REPEAT times, 2 by default, and reports the last, warm
run; a mixture's short steps want more: its decode loop is still partly interpreted in the second
run of 64 tokens, so --gen 256 --repeat 3 for those) and llama-bench
(pp128 from an empty context; tg64 after 128 tokens of context, -d 128, as the engine's decode
follows its prompt; one repetition each), alternating so that drifts of a shared machine hit
both; then each type's decode and prefill rates (best, median and range) and the ratios engine /
llama.cpp: of the best rates (on a shared machine the best round of each is the one least
disturbed by others' work) and of each round's pair (median and range).

  scripts/bench-cpu-vs-llama.py --llama-bench /path/to/llama-bench \
      --model /work/bench-models/llama-1b-q4_0.gguf --model ... [--rounds 3] [--threads 2] \
      [--kernels auto|java|native] [--gen 64] [--repeat 2]

Without --llama-bench only the engine runs (its columns alone: e.g. one architecture's decode
against another's, per parameter).

The engine jar is built first if missing (scripts/generate.sh). Synthetic 1B files:
shared/tools/synth_gguf.py (q4_0, q8_0) and scripts/synth-kquants.py (q4_k_m, q6_k).
Never a test: timings belong to the machine and the minute they were taken.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINE_RE = re.compile(r"^run (\d+): prefill (\d+) tokens in [\d.]+ ms = ([\d.]+) tok/s; decode (\d+) tokens in [\d.]+ ms = ([\d.]+) tok/s")


def engine(model, a):
    env = dict(os.environ)
    env["JAVA_OPTS"] = f"-Xmx512m -Dllmserve.engine.cpu-kernels={a.kernels}"
    cmd = ["bash", os.path.join(ROOT, "scripts/generate.sh"), "--model", model, "--prompt-length", str(a.prompt),
           "-n", str(a.gen), "--ignore-eos", "--threads", str(a.threads), "--repeat", str(a.repeat)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    runs = [m for m in map(ENGINE_RE.match, out.splitlines()) if m]
    last = runs[-1]
    return float(last.group(3)), float(last.group(5))


def llama_run(model, a, args):
    cmd = [a.llama_bench, "-m", model, "-t", str(a.threads), "-r", "1", "-o", "json"] + args
    return json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)[0]["avg_ts"]


def llama(model, a):
    # prefill from an empty context; decode after `depth` tokens, where the engine's decode runs
    # after its prompt (the same attention work)
    pp = llama_run(model, a, ["-p", str(a.prompt), "-n", "0"])
    tg = llama_run(model, a, ["-p", "0", "-n", str(a.gen), "-d", str(a.depth)])
    return pp, tg


def fmt(values):
    return f"{max(values):.1f} (median {statistics.median(values):.1f}, {min(values):.1f}-{max(values):.1f})"


def fmt_ratio(engine, llama):
    rounds = [e / l for e, l in zip(engine, llama)]
    return (f"{max(engine) / max(llama):.2f}x (rounds: median {statistics.median(rounds):.2f}x, "
            f"{min(rounds):.2f}-{max(rounds):.2f})")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--llama-bench", help="llama.cpp's llama-bench (without it: the engine alone)")
    ap.add_argument("--model", action="append", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--prompt", type=int, default=128)
    ap.add_argument("--gen", type=int, default=64)
    ap.add_argument("--kernels", default="auto", choices=["auto", "java", "native"])
    ap.add_argument("--repeat", type=int, default=2, help="engine runs per JVM; the last is reported")
    ap.add_argument("--llama-depth", dest="depth", type=int, default=None,
                    help="context before llama.cpp's decode (default: --prompt, as the engine's)")
    a = ap.parse_args()
    if a.depth is None:
        a.depth = a.prompt
    results = {}
    for rnd in range(a.rounds):
        for model in a.model:
            e_pp, e_tg = engine(model, a)
            r = results.setdefault(model, {"e_pp": [], "e_tg": [], "l_pp": [], "l_tg": []})
            r["e_pp"].append(e_pp), r["e_tg"].append(e_tg)
            line = f"round {rnd + 1} {os.path.basename(model)}: engine pp {e_pp:.1f} tg {e_tg:.1f}"
            if a.llama_bench:
                l_pp, l_tg = llama(model, a)
                r["l_pp"].append(l_pp), r["l_tg"].append(l_tg)
                line += f"; llama.cpp pp {l_pp:.1f} tg {l_tg:.1f}"
            print(line, file=sys.stderr, flush=True)
    print(f"{a.threads} threads, {a.rounds} alternating rounds, prompt {a.prompt}, {a.gen} generated, "
          f"the last of {a.repeat} runs per JVM (llama.cpp: pp{a.prompt}, tg{a.gen} at depth {a.depth}); "
          f"engine kernels: {a.kernels}; best (median, range); ratio of the bests (per-round ratios)")
    print()
    if not a.llama_bench:
        print("| file | engine decode tok/s | engine prefill tok/s |")
        print("|---|---|---|")
        for model, r in results.items():
            print(f"| {os.path.basename(model)} | {fmt(r['e_tg'])} | {fmt(r['e_pp'])} |")
        return
    print("| file | engine decode tok/s | llama.cpp decode | decode ratio | engine prefill tok/s | llama.cpp prefill | prefill ratio |")
    print("|---|---|---|---|---|---|---|")
    for model, r in results.items():
        print(f"| {os.path.basename(model)} | {fmt(r['e_tg'])} | {fmt(r['l_tg'])} | {fmt_ratio(r['e_tg'], r['l_tg'])} "
              f"| {fmt(r['e_pp'])} | {fmt(r['l_pp'])} | {fmt_ratio(r['e_pp'], r['l_pp'])} |")


if __name__ == "__main__":
    main()
