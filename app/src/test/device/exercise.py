"""Drives the running service over HTTP and checks what operations see (run-service.sh runs it).

Waits for readiness, sends completions (sequential, then many at once while the scrape is taken
under load, then a streamed chat), scrapes /actuator/prometheus and /actuator/health, and checks
that the GPU's meters read real numbers and the model ran on the GPU behind a closed breaker.
Standard library only: the GPU hosts have python3 and nothing else we need.
"""
import argparse
import json
import sys
import threading
import time
import urllib.request

from scrape import get as get_from
from scrape import samples

p = argparse.ArgumentParser()
p.add_argument("--port", type=int, required=True)
p.add_argument("--out", required=True)
p.add_argument("--model", required=True)
a = p.parse_args()
base = f"http://127.0.0.1:{a.port}"


def get(path):
    return get_from(base, path)


def post(path, body):
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return r.status, r.read().decode()


def fmt(v):
    return "none" if v is None else f"{v:.4g}"


def value(ss, metric, **labels):
    found = [v for n, l, v in ss if n == metric and all(l.get(k) == w for k, w in labels.items())]
    return found[0] if len(found) == 1 else None


start = time.time()
while True:
    try:
        status, _ = get("/actuator/health/readiness")
        if status == 200:
            break
    except OSError:
        pass
    if time.time() - start > 150:
        print("service not ready in 150 s")
        sys.exit(1)
    time.sleep(1)
print(f"ready after {time.time() - start:.1f} s")

completion = {"model": a.model, "prompt": "Once upon a time", "max_tokens": 64, "temperature": 0, "ignore_eos": True}
texts = set()
generated = 0
for _ in range(8):
    status, body = post("/v1/completions", completion)
    data = json.loads(body)
    texts.add(data["choices"][0]["text"])
    generated += data["usage"]["completion_tokens"]

errors = []


def client(n):
    try:
        post("/v1/completions", dict(completion, max_tokens=128, temperature=0.8, seed=n))
    except Exception as e:  # noqa: BLE001 - reported below
        errors.append(repr(e))


load = [threading.Thread(target=client, args=(i,)) for i in range(64)]
for t in load:
    t.start()
time.sleep(1.5)
under_load = get("/actuator/prometheus")[1]
for t in load:
    t.join()
status, body = post("/v1/chat/completions", {"model": a.model, "messages": [{"role": "user", "content": "Hi"}], "max_tokens": 16})
time.sleep(2.5)  # a fresh telemetry reading (every second)
scrape = get("/actuator/prometheus")[1]
health = get("/actuator/health")[1]
open(f"{a.out}/scrape-load.txt", "w").write(under_load)
open(f"{a.out}/scrape.txt", "w").write(scrape)
open(f"{a.out}/health.json", "w").write(health)

ss = samples(scrape)
load_ss = samples(under_load)
device = next((l["device"] for n, l, v in ss if n == "llm_gpu_info"), None)
checks = []


def check(what, ok):
    checks.append((what, bool(ok)))


check("a GPU in the scrape", device is not None)
if device:
    total = value(ss, "llm_gpu_memory_total_bytes", device=device)
    used = value(ss, "llm_gpu_memory_used_bytes", device=device)
    check(f"memory total {fmt(total)} B > 1 GiB", total and total > 2**30)
    check(f"memory used {fmt(used)} B in (0, total]", used and 0 < used <= total)
    util = value(ss, "llm_gpu_utilization_ratio", device=device)
    util_load = value(load_ss, "llm_gpu_utilization_ratio", device=device)
    check(f"utilisation {util} (under load {util_load}) in [0, 1]", util is not None and 0 <= util <= 1)
    temp = value(ss, "llm_gpu_temperature_celsius", device=device)
    check(f"temperature {temp} C plausible", temp and 5 < temp < 110)
    power = value(ss, "llm_gpu_power_watts", device=device)
    check(f"power {power} W > 0", power and power > 0)
    alloc = value(ss, "llm_gpu_allocator_memory_used_bytes", device=device)
    check(f"allocator bytes in use {fmt(alloc)} > 0 (weights, KV cache)", alloc and alloc > 0)
    mallocs = value(ss, "llm_gpu_allocator_driver_allocations_total", device=device)
    check(f"driver allocations {mallocs} > 0", mallocs and mallocs > 0)
    streams = value(ss, "llm_gpu_streams_capacity_streams", device=device)
    check(f"stream pool capacity {streams} > 0", streams and streams > 0)
    tokens = value(ss, "llm_tokens_generated_tokens_total", model=a.model, device=device)
    check(f"tokens generated on {device}: {tokens} >= {generated} (ours, sequential)", tokens and tokens >= generated)
    cpu_tokens = value(ss, "llm_tokens_generated_tokens_total", model=a.model, device="cpu")
    check(f"CPU copy loaded and idle after warm-up: {cpu_tokens} tokens", cpu_tokens is not None and cpu_tokens <= 4)
    closed = value(ss, "resilience4j_circuitbreaker_state", name="gpu-" + a.model, state="closed")
    check(f"breaker gpu-{a.model} closed ({closed})", closed == 1)
    batch = value(load_ss, "llm_batch_size_sequences_max", model=a.model, device=device)
    check(f"batches of up to {batch} sequences under load", batch and batch > 1)
check("greedy completions identical", len(texts) == 1)
check(f"no client errors ({errors[:2]})", not errors)
hj = json.loads(health)
gpu = hj.get("components", {}).get("gpu", {})
check(f"gpu health {gpu.get('status')}", gpu.get("status") == "UP")

lines = [f"device {device}; ready after {time.time() - start:.0f} s; {generated} tokens in 8 greedy completions"]
lines += [f"{'ok  ' if ok else 'FAIL'} {what}" for what, ok in checks]
lines += ["", "scrape (GPU and this model's counters):"]
lines += [l for l in scrape.splitlines() if l.startswith("llm_gpu_") or l.startswith("llm_tokens_")
          or l.startswith("llm_kv_blocks") or l.startswith("resilience4j_circuitbreaker_state")]
lines += ["", "gpu health: " + json.dumps(gpu)]
open(f"{a.out}/summary.txt", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
sys.exit(0 if all(ok for _, ok in checks) else 1)
