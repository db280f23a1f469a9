"""The CPU soak (SoakIntegrationTests) over HTTP against the service on a GPU host (run-service.sh
runs it with SCRIPT=soak): 10,000 mixed requests, 32 at a time, of the same kinds and shares:
completions, streamed chats, n of 3, embeddings, clients that leave mid-stream and clients that
give up waiting, in four rounds. After each round nothing may be left behind, read from the
Prometheus scrape: no KV block held, no request running or waiting, device memory (the allocator's
bytes in use and the driver's reading) back to the idle value taken after a warm-up round of 1,000,
and the JVM's threads, direct memory and open files near where they were. Standard library only.
"""
import argparse
import http.client
import json
import socket
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from scrape import get as get_from
from scrape import samples

p = argparse.ArgumentParser()
p.add_argument("--port", type=int, required=True)
p.add_argument("--out", required=True)
p.add_argument("--model", required=True)
p.add_argument("--embedding-model", required=True)
p.add_argument("--requests", type=int, default=10_000)
p.add_argument("--concurrency", type=int, default=32)
a = p.parse_args()
base = f"http://127.0.0.1:{a.port}"


def get(path):
    return get_from(base, path)


def total(ss, prefix, **labels):
    """The sum of every series whose name starts with prefix (units are appended) and has labels."""
    return sum(v for n, l, v in ss if n.startswith(prefix) and all(l.get(k) == w for k, w in labels.items()))


def figures():
    ss = samples(get("/actuator/prometheus")[1])
    devices = sorted({l["device"] for n, l, v in ss if n == "llm_gpu_info"})
    f = {
        "kv blocks used": total(ss, "llm_kv_blocks_used"),
        "running": total(ss, "llm_requests_running"),
        "waiting": sum(v for n, l, v in ss if n.startswith("llm_requests_waiting") and "capacity" not in n),
        "embedding waiting": total(ss, "llm_embedding_requests_waiting"),
        "threads": total(ss, "jvm_threads_live"),
        "direct bytes": total(ss, "jvm_buffer_memory_used_bytes", id="direct"),
        "open files": total(ss, "process_files_open_files"),
    }
    for d in devices:
        f[f"{d} allocator bytes in use"] = total(ss, "llm_gpu_allocator_memory_used", device=d)
        f[f"{d} driver bytes used"] = total(ss, "llm_gpu_memory_used", device=d)
    return f


KINDS = ["completion"] * 7 + ["streamed chat"] * 5 + ["n of 3"] * 2 + ["embeddings"] * 3 + ["left mid-stream"] * 2 + ["timed out"]


def body(kind):
    chat = {"model": a.model, "messages": [{"role": "user", "content": "Tell me a story"}]}
    return {
        "completion": ("/v1/completions", {"model": a.model, "prompt": "Once upon a time", "max_tokens": 8}),
        "streamed chat": ("/v1/chat/completions", dict(chat, max_tokens=8, stream=True)),
        "n of 3": ("/v1/completions", {"model": a.model, "prompt": "Lily", "max_tokens": 6, "n": 3, "temperature": 1}),
        "embeddings": ("/v1/embeddings", {"model": a.embedding_model, "input": ["The weather is lovely", "A cat"]}),
        "left mid-stream": ("/v1/chat/completions", dict(chat, max_tokens=200, stream=True)),
        # the client gives up waiting; the service must notice it left
        "timed out": ("/v1/chat/completions", dict(chat, max_tokens=1900, ignore_eos=True)),
    }[kind]


def send(kind):
    path, payload = body(kind)
    c = http.client.HTTPConnection("127.0.0.1", a.port, timeout=0.06 if kind == "timed out" else 120)
    try:
        c.request("POST", path, json.dumps(payload), {"Content-Type": "application/json"})
        r = c.getresponse()
        if kind == "left mid-stream":
            r.read(64)  # the first chunk, then away
            return "left"
        r.read()
        return str(r.status)
    except (socket.timeout, TimeoutError):
        return "client timed out"
    except OSError as e:
        return "io " + type(e).__name__
    finally:
        c.close()


def run(n):
    outcomes = Counter()
    lock = threading.Lock()

    def one(i):
        kind = KINDS[i % len(KINDS)]
        o = send(kind)
        with lock:
            outcomes[f"{kind} {o}"] += 1

    with ThreadPoolExecutor(a.concurrency) as pool:
        list(pool.map(one, range(n)))
    return outcomes


def settled(before, timeout=30):
    """Polls until nothing is held and the JVM's figures are near the baseline; returns the last reading."""
    deadline = time.time() + timeout
    while True:
        time.sleep(2.5)  # the telemetry refreshes every second
        f = figures()
        held = f["kv blocks used"] + f["running"] + f["waiting"] + f["embedding waiting"]
        near = (f["threads"] <= before["threads"] + 8 and f["direct bytes"] <= before["direct bytes"] + (8 << 20)
                and f["open files"] <= before["open files"] + 16)
        gpu = all(f[k] <= before[k] for k in f if k.endswith("allocator bytes in use"))
        if (held == 0 and near and gpu) or time.time() > deadline:
            return f


start = time.time()
while True:
    try:
        if get("/actuator/health/readiness")[0] == 200:
            break
    except OSError:
        pass
    if time.time() - start > 150:
        print("service not ready in 150 s")
        sys.exit(1)
    time.sleep(1)
print(f"ready after {time.time() - start:.1f} s", flush=True)

# Warm-up: a round at full concurrency of every kind, so grow-only buffers (the GPU backend's
# scratch and step metadata keep their high-water mark) and graphs are in their working state.
run(1000)
time.sleep(3)
before = figures()
t0 = time.time()
outcomes = Counter()
rounds = []
for r in range(4):  # four rounds, each ending idle: growth would show as a trend, a leak per request
    outcomes += run(a.requests // 4)
    rounds.append(settled(before))
elapsed = time.time() - t0
after = rounds[-1]
checks = []


def check(what, ok):
    checks.append((what, bool(ok)))


answered = sum(v for k, v in outcomes.items() if k.endswith(" 200"))
check(f"most requests answered ({answered} of {a.requests})", answered > a.requests // 2)
check("no 500", not any(k.endswith(" 500") for k in outcomes))
check("clients gave up waiting", any(k.endswith("client timed out") for k in outcomes))
check(f"no KV block held ({after['kv blocks used']})", after["kv blocks used"] == 0)
check(f"nothing running or waiting ({after['running']}, {after['waiting']}, {after['embedding waiting']})",
      after["running"] == 0 and after["waiting"] == 0 and after["embedding waiting"] == 0)
gpus = [k[: -len(" allocator bytes in use")] for k in before if k.endswith(" allocator bytes in use")]
check(f"a GPU in the scrape ({gpus})", gpus)
for d in gpus:
    check(f"{d}: allocator bytes in use back to idle ({before[d + ' allocator bytes in use']:.0f} -> "
          f"{after[d + ' allocator bytes in use']:.0f})",
          after[d + " allocator bytes in use"] == before[d + " allocator bytes in use"])
    grew = after[d + " driver bytes used"] - before[d + " driver bytes used"]
    check(f"{d}: driver memory used back near idle ({before[d + ' driver bytes used'] / 2**20:.0f} -> "
          f"{after[d + ' driver bytes used'] / 2**20:.0f} MiB; graphs of new batch sizes may take up to 64 MiB)",
          grew <= 64 << 20)
check(f"threads {before['threads']:.0f} -> {after['threads']:.0f} (<= +8)", after["threads"] <= before["threads"] + 8)
check(f"direct memory {before['direct bytes'] / 1024:.0f} -> {after['direct bytes'] / 1024:.0f} KiB (<= +8 MiB)",
      after["direct bytes"] <= before["direct bytes"] + (8 << 20))
check(f"open files {before['open files']:.0f} -> {after['open files']:.0f} (<= +16)",
      after["open files"] <= before["open files"] + 16)

lines = [f"soak: {a.requests} requests, {a.concurrency} at a time, in {elapsed:.1f} s ({a.requests / elapsed:.0f}/s)",
         "outcomes: " + ", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items())),
         "before: " + json.dumps(before)]
lines += [f"after round {i + 1}: " + json.dumps(f) for i, f in enumerate(rounds)]
lines += [f"{'ok  ' if ok else 'FAIL'} {what}" for what, ok in checks]
open(f"{a.out}/soak.txt", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
sys.exit(0 if all(ok for _, ok in checks) else 1)
