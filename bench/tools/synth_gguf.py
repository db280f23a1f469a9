#!/usr/bin/env python3
"""Write a GGUF file with a real model's tokenizer and synthetic (random) quantized weights.

This is ../shared/tools/synth_gguf.py extended with --arch: the metadata keys and tensor names are
llama.cpp's for each architecture (llama, qwen3, qwen3moe, gemma2, gemma3, phi3, gpt-oss) (src/llama-arch.cpp and
src/models/<arch>.cpp), so llama.cpp and this engine load the same file. Norm weights are 1.0 and
the per-head q/k norms too; expert routers are F32 like the converters write them.

--arch gpt-oss writes what llama.cpp's converter writes for openai/gpt-oss-*: YaRN rope keys
(factor 32 over an original context of 4096 unless --rope-original-context/--yarn-factor say
otherwise), sliding_window, expert_feed_forward_length; F32 biases on q/k/v/o, router and every
expert's gate/up/down, F32 attn_sinks, post_attention_norm as the FFN's norm, an untied output;
the experts MXFP4 (quantized from N(0, std^2) floats with ggml's quantize_row_mxfp4_ref), the other
matrices --type (f16 as the converter's default). Sinks and biases are random so that they matter.

Speed does not depend on weight values, so a synthetic file lets benchmarks run model shapes
that are too large to ship (for example Llama-3-8B), on every engine that reads GGUF.
The tokenizer.* and chat-template metadata are copied from a real GGUF given with --tokenizer-from.

  synth_gguf.py --tokenizer-from small.gguf --shape llama-8b --type q4_0 --out llama-8b-q4_0.gguf
  synth_gguf.py --tokenizer-from small.gguf --arch qwen3moe --shape qwen3-30b-a3b --type q4_0 --out q3moe.gguf

--type f16 writes F16 matrices drawn from N(0, 0.02^2) instead of random quant blocks (norms stay
1.0), so the output behaves like a small untrained model; llama-quantize can turn it into any
quantization type (the test models tiny-Q4_K_M.gguf etc. are made that way).
"""
import argparse, struct, sys
import numpy as np

SHAPES = {  # n_embd, n_layer, n_head, n_head_kv, n_ff[, head_dim, experts, experts used, expert n_ff]
    "llama-1b": (2048, 16, 32, 8, 8192),
    "llama-3b": (3072, 28, 24, 8, 8192),
    "llama-8b": (4096, 32, 32, 8, 14336),
    "llama-70b": (8192, 80, 64, 8, 28672),
    "tiny":     (256, 4, 8, 4, 768),
    "qwen3-1.7b": (2048, 28, 16, 8, 6144, 128),
    "qwen3-8b": (4096, 36, 32, 8, 12288, 128),
    "qwen3-30b-a3b": (2048, 48, 32, 4, 6144, 128, 128, 8, 768),
    "qwen3-30b-a3b-12l": (2048, 12, 32, 4, 6144, 128, 128, 8, 768),  # a quarter of its layers: quick A/B runs
    "gemma2-2b": (2304, 26, 8, 4, 9216, 256),
    "gemma2-9b": (3584, 42, 16, 8, 14336, 256),
    "gemma3-1b": (1152, 26, 4, 1, 6912, 256),
    "gemma3-12b": (3840, 48, 16, 8, 15360, 256),
    "tiny-moe": (256, 4, 8, 4, 768, 32, 4, 2, 256),
    # 1B-class mixtures for the CPU's per-parameter comparison (about 0.18 and 0.25 B parameters per token)
    "qwen3moe-1b": (1024, 16, 16, 4, 3072, 64, 32, 4, 512),
    "gpt-oss-1b": (1024, 12, 16, 4, 1024, 64, 32, 4, 1024),
    "gpt-oss-20b": (2880, 24, 64, 8, 2880, 64, 32, 4, 2880),
    "gpt-oss-120b": (2880, 36, 64, 8, 2880, 64, 128, 4, 2880),
    "gpt-oss-20b-2l": (2880, 2, 64, 8, 2880, 64, 32, 4, 2880),  # one windowed and one global layer at full width
    "tiny-gpt-oss": (256, 4, 8, 2, 256, 64, 8, 4, 256),  # q width 512 != n_embd, as gpt-oss's 4096 != 2880
}
# per architecture: rope base, rms eps, and what its layers add to llama's
ARCHS = {
    "llama":    dict(rope_base=500000.0, eps=1e-5),
    "qwen3":    dict(rope_base=1000000.0, eps=1e-6, qk_norm=True),
    "qwen3moe": dict(rope_base=1000000.0, eps=1e-6, qk_norm=True, moe=True),
    # gemma2: no q/k norms, attention and final logits soft-capped, tied output, alternating windows
    "gemma2":   dict(rope_base=10000.0, eps=1e-6, post_norms=True, window=4096, window_pattern=2, tied=True,
                     attn_softcap=50.0, final_softcap=30.0),
    "gemma3":   dict(rope_base=1000000.0, eps=1e-6, qk_norm=True, post_norms=True, window=1024, window_pattern=6),
    # fused attn_qkv and gate|up in ffn_up; longrope factors (long in [1, 8), short in [1, 1.5))
    "phi3":     dict(rope_base=10000.0, eps=1e-5, fused=True, longrope=True),
    # gpt-oss: biases everywhere, attention sinks, alternating windows of 128, YaRN, MXFP4 experts
    "gpt-oss":  dict(rope_base=150000.0, eps=1e-5, moe=True, window=128, window_pattern=None, yarn=32.0,
                     oss=True),
}
GGML = {"f32": 0, "f16": 1, "q4_0": 2, "q8_0": 8, "q4_k": 12, "mxfp4": 39}
BLOCK = {"q4_0": (32, 18), "q8_0": (32, 34), "q4_k": (256, 144), "f16": (1, 2), "mxfp4": (32, 17)}
FILE_TYPE = {"q4_0": 2, "q8_0": 7, "q4_k": 14, "f16": 1}  # llama_ftype (q4_k: MOSTLY_Q4_K_S, every matrix Q4_K)
FTYPE_MXFP4_MOE = 38  # LLAMA_FTYPE_MOSTLY_MXFP4_MOE: MXFP4 experts, the rest as written
F16_STD = 0.02  # standard deviation of the --type f16 matrices
T_U32, T_I32, T_F32, T_BOOL, T_STR, T_ARR, T_U64 = 4, 5, 6, 7, 8, 9, 10
SCALAR = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}


def read_kvs(path):
    """Return the metadata key/values of a GGUF file as (key, type, raw-bytes-of-value) triples."""
    with open(path, "rb") as f:
        data = f.read(64 << 20)
    if data[:4] != b"GGUF":
        sys.exit(f"{path}: not a GGUF file")
    version, n_tensors, n_kv = struct.unpack_from("<IQQ", data, 4)
    pos = 24

    def skip_value(t, p):
        if t in SCALAR:
            return p + struct.calcsize(SCALAR[t])
        if t == T_STR:
            (n,) = struct.unpack_from("<Q", data, p)
            return p + 8 + n
        if t == T_ARR:
            et, cnt = struct.unpack_from("<IQ", data, p)
            p += 12
            if et in SCALAR:
                return p + cnt * struct.calcsize(SCALAR[et])
            for _ in range(cnt):
                p = skip_value(et, p)
            return p
        sys.exit(f"unknown GGUF value type {t}")

    out = []
    for _ in range(n_kv):
        (klen,) = struct.unpack_from("<Q", data, pos)
        key = data[pos + 8: pos + 8 + klen].decode()
        pos += 8 + klen
        (t,) = struct.unpack_from("<I", data, pos)
        pos += 4
        end = skip_value(t, pos)
        out.append((key, t, data[pos:end]))
        pos = end
    return out


def s(x):
    b = x.encode()
    return struct.pack("<Q", len(b)) + b


def kv(key, t, raw):
    return s(key) + struct.pack("<I", t) + raw


def quant_bytes(qtype, n_elems, rng):
    blk, size = BLOCK[qtype]
    nb = n_elems // blk
    out = np.empty((nb, size), dtype=np.uint8)
    scale = rng.uniform(0.5e-3, 2e-3, nb).astype(np.float16)
    out[:, :2] = scale.view(np.uint8).reshape(nb, 2)
    out[:, 2:] = rng.integers(0, 256, (nb, size - 2), dtype=np.uint8)
    if qtype == "q4_k":  # d * sc * q - dmin * m of random 6-bit sc, m and 4-bit q: about Q4_0's magnitudes
        d = rng.uniform(1e-5, 3e-5, nb).astype(np.float16)
        dmin = rng.uniform(0.8e-4, 1.6e-4, nb).astype(np.float16)
        out[:, 0:2] = d.view(np.uint8).reshape(nb, 2)
        out[:, 2:4] = dmin.view(np.uint8).reshape(nb, 2)
    return out.tobytes()


KVALUES_MXFP4 = np.array([0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12], dtype=np.float32)


def e8m0_half(e):
    """ggml_e8m0_to_fp32_half: 2^(e - 128) as float32 (denormal for e < 2)."""
    e = e.astype(np.uint32)
    bits = np.where(e < 2, np.uint32(0x00200000) << e, (e - 1) << 23).astype(np.uint32)
    return bits.view(np.float32)


def quantize_mxfp4(x):
    """ggml's quantize_row_mxfp4_ref over rows of 32: E8M0 from floor(log2(amax)) - 2, each value the
    nearest doubled E2M1 code (the first of equals), element j low nibble of byte j, j + 16 the high one."""
    b = np.asarray(x, dtype=np.float32).reshape(-1, 32)
    amax = np.abs(b).max(axis=1)
    with np.errstate(divide="ignore"):
        e = np.where(amax > 0, np.floor(np.log2(amax)) - 2 + 127, 0).astype(np.uint8)
    d = e8m0_half(e)
    err = np.abs(KVALUES_MXFP4[None, None, :] * d[:, None, None] - b[:, :, None])  # float32 as ggml's fabsf
    q = np.argmin(err, axis=2).astype(np.uint8)
    out = np.empty((b.shape[0], 17), dtype=np.uint8)
    out[:, 0] = e
    out[:, 1:] = q[:, :16] | (q[:, 16:] << 4)
    return out.tobytes()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tokenizer-from", required=True)
    ap.add_argument("--arch", choices=ARCHS, default="llama")
    ap.add_argument("--shape", choices=SHAPES, default="llama-1b")
    ap.add_argument("--type", choices=BLOCK, default="q4_0")
    ap.add_argument("--ctx", type=int, default=8192)
    ap.add_argument("--rope-original-context", type=int, default=4096,
                    help="phi3: rope.scaling.original_context_length (longer served contexts take the long factors)")
    ap.add_argument("--window", type=int, help="attention.sliding_window instead of the architecture's")
    ap.add_argument("--attn-softcap", type=float, help="gemma2: attn_logit_softcapping instead of 50")
    ap.add_argument("--final-softcap", type=float, help="gemma2: final_logit_softcapping instead of 30")
    ap.add_argument("--yarn-factor", type=float, help="gpt-oss: rope.scaling.factor instead of 32")
    ap.add_argument("--expert-std", type=float, default=0.02,
                    help="gpt-oss: standard deviation of the expert weights before MXFP4 quantization")
    ap.add_argument("--bias-std", type=float, default=0.02,
                    help="gpt-oss: standard deviation of the q/k/v/o, router and down biases")
    ap.add_argument("--gate-up-bias-std", type=float, default=0.02,
                    help="gpt-oss: standard deviation of the experts' gate and up biases (large ones reach swiglu_oai's clamp)")
    ap.add_argument("--sink-mean", type=float, default=0.0, help="gpt-oss: mean of the attention sinks (std 1)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    shape = SHAPES[a.shape]
    n_embd, n_layer, n_head, n_head_kv, n_ff = shape[:5]
    head_dim = shape[5] if len(shape) > 5 else n_embd // n_head
    n_expert, n_expert_used, n_ff_exp = shape[6:9] if len(shape) > 6 else (0, 0, 0)
    arch = ARCHS[a.arch]
    if arch.get("moe") and not n_expert:
        sys.exit(f"--arch {a.arch} needs a shape with experts (qwen3-30b-a3b, tiny-moe)")
    if n_expert and not arch.get("moe"):
        sys.exit(f"--shape {a.shape} has experts: use --arch qwen3moe or gpt-oss")
    oss = arch.get("oss", False)
    rng = np.random.default_rng(a.seed)

    src = read_kvs(a.tokenizer_from)
    tok = [(k, t, r) for k, t, r in src if k.startswith("tokenizer.")]
    vocab = next(struct.unpack_from("<IQ", r)[1] for k, t, r in tok if k == "tokenizer.ggml.tokens")

    A = a.arch
    u32 = lambda v: struct.pack("<I", v)
    f32 = lambda v: struct.pack("<f", v)
    meta = [
        kv("general.architecture", T_STR, s(A)),
        # no architecture in the name: llama.cpp keys phi3's special-token attributes on a name with "phi3"
        kv("general.name", T_STR, s(f"synthetic-{a.shape}-{a.type}")),
        kv("general.file_type", T_U32, u32(FTYPE_MXFP4_MOE if oss else FILE_TYPE[a.type])),
        kv("general.alignment", T_U32, u32(32)),
        kv(f"{A}.context_length", T_U32, u32(a.ctx)),
        kv(f"{A}.embedding_length", T_U32, u32(n_embd)),
        kv(f"{A}.block_count", T_U32, u32(n_layer)),
        kv(f"{A}.feed_forward_length", T_U32, u32(n_ff)),
        kv(f"{A}.attention.head_count", T_U32, u32(n_head)),
        kv(f"{A}.attention.head_count_kv", T_U32, u32(n_head_kv)),
        kv(f"{A}.rope.dimension_count", T_U32, u32(head_dim)),
        kv(f"{A}.rope.freq_base", T_F32, f32(arch["rope_base"])),
        kv(f"{A}.attention.layer_norm_rms_epsilon", T_F32, f32(arch["eps"])),
        kv(f"{A}.vocab_size", T_U32, u32(vocab)),
    ]
    if A != "llama" or head_dim != n_embd // n_head:
        meta += [kv(f"{A}.attention.key_length", T_U32, u32(head_dim)), kv(f"{A}.attention.value_length", T_U32, u32(head_dim))]
    if n_expert:
        meta += [kv(f"{A}.expert_count", T_U32, u32(n_expert)), kv(f"{A}.expert_used_count", T_U32, u32(n_expert_used)),
                 kv(f"{A}.expert_feed_forward_length", T_U32, u32(n_ff_exp))]
    if arch.get("window"):
        meta += [kv(f"{A}.attention.sliding_window", T_U32, u32(a.window or arch["window"]))]
        if arch["window_pattern"]:  # gpt-oss's converter writes none: llama.cpp's default of 2 holds
            meta += [kv(f"{A}.attention.sliding_window_pattern", T_U32, u32(arch["window_pattern"]))]
    if arch.get("yarn"):
        meta += [kv(f"{A}.rope.scaling.type", T_STR, s("yarn")),
                 kv(f"{A}.rope.scaling.factor", T_F32, f32(a.yarn_factor or arch["yarn"])),
                 kv(f"{A}.rope.scaling.original_context_length", T_U32, u32(a.rope_original_context)),
                 kv(f"{A}.rope.scaling.yarn_beta_fast", T_F32, f32(32.0)),
                 kv(f"{A}.rope.scaling.yarn_beta_slow", T_F32, f32(1.0))]
    if arch.get("attn_softcap"):
        meta += [kv(f"{A}.attn_logit_softcapping", T_F32, f32(a.attn_softcap or arch["attn_softcap"])),
                 kv(f"{A}.final_logit_softcapping", T_F32, f32(a.final_softcap or arch["final_softcap"]))]
    if arch.get("longrope"):
        meta += [kv(f"{A}.rope.scaling.attn_factor", T_F32, f32(1.19)),
                 kv(f"{A}.rope.scaling.original_context_length", T_U32, u32(a.rope_original_context))]
    meta += [kv(k, t, r) for k, t, r in tok]

    q_dim, kv_dim = n_head * head_dim, n_head_kv * head_dim
    tensors = [("token_embd.weight", (n_embd, vocab), a.type)]
    for i in range(n_layer):
        p = f"blk.{i}."
        tensors += [(p + "attn_norm.weight", (n_embd,), "f32")]
        if oss:
            xt = "mxfp4"
            tensors += [
                (p + "attn_q.weight", (n_embd, q_dim), a.type), (p + "attn_q.bias", (q_dim,), "f32b"),
                (p + "attn_k.weight", (n_embd, kv_dim), a.type), (p + "attn_k.bias", (kv_dim,), "f32b"),
                (p + "attn_v.weight", (n_embd, kv_dim), a.type), (p + "attn_v.bias", (kv_dim,), "f32b"),
                (p + "attn_output.weight", (q_dim, n_embd), a.type), (p + "attn_output.bias", (n_embd,), "f32b"),
                (p + "attn_sinks.weight", (n_head,), "f32sink"),
                (p + "post_attention_norm.weight", (n_embd,), "f32"),
                (p + "ffn_gate_inp.weight", (n_embd, n_expert), "f32r"), (p + "ffn_gate_inp.bias", (n_expert,), "f32b"),
                (p + "ffn_gate_exps.weight", (n_embd, n_ff_exp, n_expert), xt),
                (p + "ffn_gate_exps.bias", (n_ff_exp, n_expert), "f32gu"),
                (p + "ffn_up_exps.weight", (n_embd, n_ff_exp, n_expert), xt),
                (p + "ffn_up_exps.bias", (n_ff_exp, n_expert), "f32gu"),
                (p + "ffn_down_exps.weight", (n_ff_exp, n_embd, n_expert), xt),
                (p + "ffn_down_exps.bias", (n_embd, n_expert), "f32b"),
            ]
            continue
        if arch.get("fused"):
            tensors += [(p + "attn_qkv.weight", (n_embd, q_dim + 2 * kv_dim), a.type)]
        else:
            tensors += [
                (p + "attn_q.weight", (n_embd, q_dim), a.type),
                (p + "attn_k.weight", (n_embd, kv_dim), a.type),
                (p + "attn_v.weight", (n_embd, kv_dim), a.type),
            ]
        tensors += [
            (p + "attn_output.weight", (q_dim, n_embd), a.type),
            (p + "ffn_norm.weight", (n_embd,), "f32"),
        ]
        if arch.get("qk_norm"):
            tensors += [(p + "attn_q_norm.weight", (head_dim,), "f32"), (p + "attn_k_norm.weight", (head_dim,), "f32")]
        if arch.get("post_norms"):
            tensors += [(p + "post_attention_norm.weight", (n_embd,), "f32"), (p + "post_ffw_norm.weight", (n_embd,), "f32")]
        if n_expert:
            tensors += [
                (p + "ffn_gate_inp.weight", (n_embd, n_expert), "f32r"),
                (p + "ffn_gate_exps.weight", (n_embd, n_ff_exp, n_expert), a.type),
                (p + "ffn_up_exps.weight", (n_embd, n_ff_exp, n_expert), a.type),
                (p + "ffn_down_exps.weight", (n_ff_exp, n_embd, n_expert), a.type),
            ]
        elif arch.get("fused"):
            tensors += [(p + "ffn_up.weight", (n_embd, 2 * n_ff), a.type), (p + "ffn_down.weight", (n_ff, n_embd), a.type)]
        else:
            tensors += [
                (p + "ffn_gate.weight", (n_embd, n_ff), a.type),
                (p + "ffn_up.weight", (n_embd, n_ff), a.type),
                (p + "ffn_down.weight", (n_ff, n_embd), a.type),
            ]
    tensors += [("output_norm.weight", (n_embd,), "f32")]
    if not arch.get("tied"):  # llama.cpp's gemma2 refuses an output.weight: it reads token_embd
        tensors += [("output.weight", (n_embd, vocab), a.type)]
    if arch.get("longrope"):
        tensors += [("rope_factors_long.weight", (head_dim // 2,), "f32long"),
                    ("rope_factors_short.weight", (head_dim // 2,), "f32short")]

    def nbytes(shape, t):
        n = int(np.prod(shape))
        if t.startswith("f32"):
            return 4 * n
        if t == "f16":
            return 2 * n
        blk, size = BLOCK[t]
        return n // blk * size

    infos, offset = [], 0
    for name, shape, t in tensors:
        infos.append(s(name) + struct.pack("<I", len(shape)) + b"".join(struct.pack("<Q", d) for d in shape)
                     + struct.pack("<IQ", GGML["f32" if t.startswith("f32") else t], offset))
        offset += (nbytes(shape, t) + 31) // 32 * 32

    with open(a.out, "wb") as f:
        f.write(b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(meta)))
        for m in meta:
            f.write(m)
        for i in infos:
            f.write(i)
        f.write(b"\0" * (-f.tell() % 32))
        for name, shape, t in tensors:
            if t == "f32":
                data = np.ones(shape, dtype=np.float32).tobytes()
            elif t == "f32r":  # a router: random, so tokens spread over the experts
                data = rng.normal(0.0, 0.2, int(np.prod(shape))).astype(np.float32).tobytes()
            elif t in ("f32long", "f32short"):  # longrope divisors
                data = rng.uniform(1.0, 8.0 if t == "f32long" else 1.5, int(np.prod(shape))).astype(np.float32).tobytes()
            elif t == "f32b":  # gpt-oss's biases
                data = rng.normal(0.0, a.bias_std, int(np.prod(shape))).astype(np.float32).tobytes()
            elif t == "f32gu":  # gpt-oss's expert gate and up biases
                data = rng.normal(0.0, a.gate_up_bias_std, int(np.prod(shape))).astype(np.float32).tobytes()
            elif t == "f32sink":  # gpt-oss's attention sinks, one logit per query head
                data = rng.normal(a.sink_mean, 1.0, int(np.prod(shape))).astype(np.float32).tobytes()
            elif t == "f16":
                data = rng.normal(0.0, F16_STD, int(np.prod(shape))).astype(np.float16).tobytes()
            elif t == "mxfp4" and a.type == "f16":  # quantized from N(0, std^2), a slab at a time
                n = int(np.prod(shape))
                for at in range(0, n, 1 << 22):
                    f.write(quantize_mxfp4(rng.normal(0.0, a.expert_std, min(1 << 22, n - at))))
                f.write(b"\0" * (-nbytes(shape, t) % 32))
                continue
            elif t == "mxfp4":  # random codes under scales of 2^-10 .. 2^-6, for benchmarks
                nb = int(np.prod(shape)) // 32
                blocks = rng.integers(0, 256, (nb, 17), dtype=np.uint8)
                blocks[:, 0] = rng.integers(118, 123, nb, dtype=np.uint8)
                data = blocks.tobytes()
            else:
                data = quant_bytes(t, int(np.prod(shape)), rng)
            f.write(data)
            f.write(b"\0" * (-len(data) % 32))
    params = sum(int(np.prod(sh)) for _, sh, _ in tensors)
    print(f"{a.out}: {a.arch} {a.shape} {a.type}, {params/1e9:.2f}B parameters, vocab {vocab}, {offset/2**30:.2f} GiB of weights")


if __name__ == "__main__":
    main()
