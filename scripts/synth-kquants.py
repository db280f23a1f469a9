#!/usr/bin/env python3
"""Synthetic K-quant GGUF files for CPU benchmarks, beside shared/tools/synth_gguf.py (which writes
q4_0, q8_0 and f16 only): the same shapes and metadata, random blocks of Q4_K and Q6_K.

  --type q6_k    every matrix Q6_K
  --type q4_k_m  llama.cpp's Q4_K_M mix: Q4_K, with Q6_K for output.weight and for attn_v and
                 ffn_down of the layers llama-quantize gives more bits (first and last eighth, and
                 every third between)

Speed does not depend on the weight values; the scales are kept small and finite.

  scripts/synth-kquants.py --synth /work/shared/tools/synth_gguf.py \
      --tokenizer-from ggml-vocab-llama-spm.gguf --shape llama-1b --type q4_k_m --out llama-1b-q4_k_m.gguf
"""
import argparse
import importlib.util
import struct

import numpy as np

GGML = {"f32": 0, "q4_k": 12, "q6_k": 14}
BLOCK = {"q4_k": (256, 144), "q6_k": (256, 210)}
FILE_TYPE = {"q4_k_m": 15, "q6_k": 18}


def blocks(t, n, rng):
    blk, size = BLOCK[t]
    nb = n // blk
    out = rng.integers(0, 256, (nb, size), dtype=np.uint8)
    d = rng.uniform(0.5e-3, 2e-3, nb).astype(np.float16).view(np.uint8).reshape(nb, 2)
    if t == "q4_k":  # {f16 d, f16 dmin, u8 scales[12], u8 qs[128]}
        # each sub-block's min equals its scale and dmin = 7.5 d, so the weights (d sc q - dmin m)
        # centre on zero as trained ones do: an offset grows the activations to infinity in a few
        # layers, and NaNs then slow llama.cpp's kernels down tenfold
        dd = rng.uniform(0.5e-3, 2e-3, nb)
        out[:, 0:2] = dd.astype(np.float16).view(np.uint8).reshape(nb, 2)
        out[:, 2:4] = (7.5 * dd).astype(np.float16).view(np.uint8).reshape(nb, 2)
        out[:, 8:12] = out[:, 4:8]  # bytes 4-7 (scales 0-3 and high bits of 4-7) equal bytes 8-11 (mins)
        low = out[:, 12:16] & 0x0F
        out[:, 12:16] = low | (low << 4)  # scales 4-7 and mins 4-7 share their low nibbles
    else:  # {u8 ql[128], u8 qh[64], i8 scales[16], f16 d}
        out[:, 208:210] = d
    return out.tobytes()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--synth", default="/work/shared/tools/synth_gguf.py", help="synth_gguf.py, for its shapes and helpers")
    ap.add_argument("--tokenizer-from", required=True)
    ap.add_argument("--shape", default="llama-1b")
    ap.add_argument("--type", choices=FILE_TYPE, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ctx", type=int, default=8192)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    spec = importlib.util.spec_from_file_location("synth_gguf", a.synth)
    sg = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sg)
    n_embd, n_layer, n_head, n_head_kv, n_ff = sg.SHAPES[a.shape]
    head_dim = n_embd // n_head
    rng = np.random.default_rng(a.seed)
    src = sg.read_kvs(a.tokenizer_from)
    tok = [(k, t, r) for k, t, r in src if k.startswith("tokenizer.")]
    vocab = next(struct.unpack_from("<IQ", r)[1] for k, t, r in tok if k == "tokenizer.ggml.tokens")
    u32 = lambda v: struct.pack("<I", v)
    meta = [
        sg.kv("general.architecture", sg.T_STR, sg.s("llama")),
        sg.kv("general.name", sg.T_STR, sg.s(f"synthetic-{a.shape}-{a.type}")),
        sg.kv("general.file_type", sg.T_U32, u32(FILE_TYPE[a.type])),
        sg.kv("general.alignment", sg.T_U32, u32(32)),
        sg.kv("llama.context_length", sg.T_U32, u32(a.ctx)),
        sg.kv("llama.embedding_length", sg.T_U32, u32(n_embd)),
        sg.kv("llama.block_count", sg.T_U32, u32(n_layer)),
        sg.kv("llama.feed_forward_length", sg.T_U32, u32(n_ff)),
        sg.kv("llama.attention.head_count", sg.T_U32, u32(n_head)),
        sg.kv("llama.attention.head_count_kv", sg.T_U32, u32(n_head_kv)),
        sg.kv("llama.rope.dimension_count", sg.T_U32, u32(head_dim)),
        sg.kv("llama.rope.freq_base", sg.T_F32, struct.pack("<f", 500000.0)),
        sg.kv("llama.attention.layer_norm_rms_epsilon", sg.T_F32, struct.pack("<f", 1e-5)),
        sg.kv("llama.vocab_size", sg.T_U32, u32(vocab)),
    ] + [sg.kv(k, t, r) for k, t, r in tok]

    base = "q6_k" if a.type == "q6_k" else "q4_k"

    def more_bits(i):  # llama-quantize's use_more_bits
        return i < n_layer // 8 or i >= 7 * n_layer // 8 or (i - n_layer // 8) % 3 == 2

    tensors = [("token_embd.weight", (n_embd, vocab), base)]
    for i in range(n_layer):
        p = f"blk.{i}."
        wide = "q6_k" if more_bits(i) else base
        tensors += [
            (p + "attn_norm.weight", (n_embd,), "f32"),
            (p + "attn_q.weight", (n_embd, n_embd), base),
            (p + "attn_k.weight", (n_embd, head_dim * n_head_kv), base),
            (p + "attn_v.weight", (n_embd, head_dim * n_head_kv), wide),
            (p + "attn_output.weight", (n_embd, n_embd), base),
            (p + "ffn_norm.weight", (n_embd,), "f32"),
            (p + "ffn_gate.weight", (n_embd, n_ff), base),
            (p + "ffn_up.weight", (n_embd, n_ff), base),
            (p + "ffn_down.weight", (n_ff, n_embd), wide),
        ]
    tensors += [("output_norm.weight", (n_embd,), "f32"), ("output.weight", (n_embd, vocab), "q6_k")]

    def nbytes(shape, t):
        n = int(np.prod(shape))
        return 4 * n if t == "f32" else n // BLOCK[t][0] * BLOCK[t][1]

    infos, offset = [], 0
    for name, shape, t in tensors:
        infos.append(sg.s(name) + u32(len(shape)) + b"".join(struct.pack("<Q", d) for d in shape)
                     + struct.pack("<IQ", GGML[t], offset))
        offset += (nbytes(shape, t) + 31) // 32 * 32
    with open(a.out, "wb") as f:
        f.write(b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(meta)))
        for m in meta:
            f.write(m)
        for i in infos:
            f.write(i)
        f.write(b"\0" * (-f.tell() % 32))
        for name, shape, t in tensors:
            data = np.ones(shape, dtype=np.float32).tobytes() if t == "f32" else blocks(t, int(np.prod(shape)), rng)
            f.write(data)
            f.write(b"\0" * (-len(data) % 32))
    print(f"{a.out}: {a.shape} {a.type}, vocab {vocab}, {offset/2**30:.2f} GiB of weights")


if __name__ == "__main__":
    main()
