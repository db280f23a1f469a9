// The numbers both the kernels and the host code that launches them depend on: block sizes the
// kernels are written for, shape limits of their shared-memory buffers, layouts of the buffers
// they exchange. The build turns every define below into com.llmserve.kernels.KernelConstants
// (same name, the comment above it as its Javadoc), so the host sizes grids and checks shapes with
// the numbers the kernels were compiled with instead of copies of them. Hence the strict form:
// only `#define LS_<NAME> <decimal integer>` lines, each under its own // comment; the build fails
// on anything else. Every kernel source sees this header through ls_compat.h.

#pragma once

// Most threads per block of any launch: block reductions size their shared scratch (one slot per
// wave) for it. The vectorized row kernels (ls_rms_norm_v4 and its variants) take up to this many.
#define LS_MAX_BLOCK 1024

// Threads per block of ls_head_rms_norm_f32 and ls_rope_norm_f32, a block per head: a head's
// squares add up in the same order only at the same block size, which keeps the fused kernel's norms
// the separate kernel's bit for bit. A multiple of every wave size (32 and 64) that covers the
// common head sizes (64 to 256) in a few loads.
#define LS_HEAD_THREADS 64

// Elements per Q4_0 / Q8_0 block, and per scale and sum of Q8_0 activations (the integer GEMVs'
// input); rows quantized to Q8_0 are a multiple of it long.
#define LS_QK 32

// Elements per K-quant super-block. ls_quantize_q8_k takes one block of LS_QK_K threads per
// super-block, one thread per element.
#define LS_QK_K 256

// Threads per block of every GEMV (ls_mmvq_*, ls_mmvf_*).
#define LS_MMV_THREADS 128

// Most tokens (activation rows) one GEMV launch multiplies: every GEMV has one entry point per
// token count, ls_mmvq_q4_0_1 .. ls_mmvq_q4_0_8 and so on. Larger batches take several launches.
#define LS_MMV_MAX_COLS 8

// Weight rows per GEMV block for fewer than LS_MMV_WIDE_COLS tokens; the grid is ceil(rows / rows
// per block).
#define LS_MMV_NARROW_ROWS 2

// Tokens from which a GEMV block computes LS_MMV_WIDE_ROWS weight rows instead of
// LS_MMV_NARROW_ROWS, so that each activation load serves more weights.
#define LS_MMV_WIDE_COLS 4

// Weight rows per GEMV block for LS_MMV_WIDE_COLS tokens or more.
#define LS_MMV_WIDE_ROWS 4

// Weight rows per block of the Q4_0 / Q8_0 GEMV (ls_mmvq_q4_0_1, ls_mmvq_q8_0_1) for one token. A
// decode step's GEMVs run as a chain of dependent launches whose blocks load their first weights
// before waiting for the kernel ahead: more rows a block puts more loads in flight per thread and
// fewer blocks behind the first wave (bench/kernels/run.sh gemvchain; docs/gpu-backend.md, "Batch-1
// GEMV blocks"). The K-quant and float GEMVs, slower with more rows, keep LS_MMV_NARROW_ROWS x
// LS_MMV_THREADS.
#define LS_MMVQ_ONE_ROWS 8

// Weight rows per block of the Q4_0 / Q8_0 GEMV for 2 to LS_MMV_WIDE_COLS - 1 tokens.
#define LS_MMVQ_FEW_ROWS 4

// Threads per block of the Q4_0 / Q8_0 GEMV for fewer than LS_MMV_WIDE_COLS tokens.
#define LS_MMVQ_NARROW_THREADS 64

// Threads per block of the one-token Q4_0 / Q8_0 GEMV where its whole grid fits the device at once
// (LS_MMVQ_Q4_0_WAVE_BLOCKS / LS_MMVQ_Q8_0_WAVE_BLOCKS blocks a multiprocessor): every thread then
// loads all its weights of a 4096-value row before the wait, during the kernel ahead (the 8B's output
// and down projections).
#define LS_MMVQ_WAVE_THREADS 128

// Blocks of LS_MMVQ_WAVE_THREADS threads of the one-token Q4_0 GEMV that one multiprocessor holds at
// once (sm_90: 95 registers a thread). Bounding its registers to six blocks (79 registers, so that
// the 8B's qkv, 768 blocks, would fit 132 multiprocessors at once) made an 8B step slower on an
// H200 (619.5 against 620.8 tok/s): the other products lost more than the qkv gained.
#define LS_MMVQ_Q4_0_WAVE_BLOCKS 5

// Blocks of LS_MMVQ_WAVE_THREADS threads of the one-token Q8_0 GEMV that one multiprocessor holds at
// once (sm_90: 119 registers a thread).
#define LS_MMVQ_Q8_0_WAVE_BLOCKS 4

// Weight rows per block of a mixture's expert GEMVs (ls_mmv*_ex_*), whatever their token count:
// experts' rows are short (qwen3-30b-a3b: 2048 and 768 values), so blocks of a few rows were too
// small to keep the memory busy (a one-token step: 6,144 and 8,192 blocks of 2.3 and 0.9 KB).
#define LS_MMV_EX_ROWS 8

// Weight rows per group of 32 lanes of one column's Q4_0 / Q8_0 expert GEMV (ls_mmvq_ex_*_1_w32).
#define LS_MMV_W32_GROUP_ROWS 4

// Weight rows per block of ls_mmvq_ex_*_1_w32: its LS_MMV_THREADS / 32 groups' rows.
#define LS_MMV_W32_ROWS 16

// Threads per block of the batched quantized products ls_mmq_* (four waves of 32 on NVIDIA).
#define LS_MMQ_THREADS 128

// Weight rows per block of ls_mmq_*: four 16-row tiles of NVIDIA's int8 tensor cores (two per wave).
#define LS_MMQ_ROWS 64

// Weight blocks (of LS_QK values) per row that a ls_mmq_* block stages in shared memory at a time,
// with the activations' blocks of the same range.
#define LS_MMQ_KBLOCKS 4

// Tokens per block of ls_mmq_*: eight tiles of 8.
#define LS_MMQ_COLS 64

// Threads per block of the half tensor-core products over quantized weights ls_mmh_* (four waves of 32).
#define LS_MMH_THREADS 128

// Weight rows per block of ls_mmh_*: 32 a wave (two 16-row tiles of the half tensor cores).
#define LS_MMH_ROWS 128

// Tokens per block of ls_mmh_*: eight tiles of 8, each wave all of them.
#define LS_MMH_COLS 64

// Weight blocks (of LS_QK values) per row that a ls_mmh_* block takes at a time: one per lane of the
// four sharing a row.
#define LS_MMH_KBLOCKS 4

// Threads per block of the attention kernels over the paged cache: ls_attention_f16,
// ls_attention_split_d* and ls_attention_tile_d*.
#define LS_ATT_THREADS 128

// Most query heads per kv head of ls_attention_f16, the general attention kernel.
#define LS_ATT_MAX_GROUP 16

// Most query values per kv head (query heads per kv head times head size) of ls_attention_f16,
// which holds them in shared memory.
#define LS_ATT_MAX_QDIM 2048

// Floats of softmax statistics (maximum, then sum) per row, query head and position split in the
// split buffers: ls_attention_f16 and ls_attention_split_d* write head-size values and then these
// to `partial`.
#define LS_ATT_SPLIT_STATS 2

// Most position splits of a row in the split attention kernels (flash-decoding):
// ls_attention_split_d* merges the splits a split per lane of a 32-lane group, so at most 32.
#define LS_ATT_MAX_SPLITS 32

// Most query heads per kv head of the per-head-size attention kernels, ls_attention_split_d* (in
// parts of at most LS_DEC_PART_HEADS) and the tiled ls_attention_tile_d*.
#define LS_DEC_MAX_GROUP 8

// Most query heads one block of ls_attention_split_d* takes (each lane keeps a running sum for every
// head of its block): a kv head of more (qwen3-30b-a3b's 8, or 6) is split into equal parts of at
// most this many, a block each.
#define LS_DEC_PART_HEADS 4

// Most query heads per kv head of the decode kernels on tensor cores, ls_attention_dmma_d*: a block
// takes them all, as the rows of its score tiles and the columns (an n8 tile) of its value products.
#define LS_DMMA_HEADS 8

// Query vectors (rows times the query heads of one kv head) per block of the tiled prompt kernels
// ls_attention_tile_d*: a tile is at most LS_TILE_Q / (query heads per kv head) rows of one sequence.
#define LS_TILE_Q 64

// Threads per block of ls_topk_f32, one block per row.
#define LS_TOPK_THREADS 1024

// Threads per block of the encoder attention kernels, ls_encoder_attention_f32 and
// ls_encoder_attention_d*.
#define LS_ENC_THREADS 128

// Query positions per block of the tiled encoder attention kernels ls_encoder_attention_d*: their
// grid's z dimension is ceil(longest sequence / LS_ENC_QUERIES).
#define LS_ENC_QUERIES 16

// Largest head size of ls_encoder_attention_f32, which holds a query in shared memory.
#define LS_ENC_MAX_DIM 256

// ls_pool_f32's mode argument: the mean of each sequence's rows.
#define LS_POOL_MEAN 1

// ls_pool_f32's mode argument: each sequence's first row (BERT's CLS pooling).
#define LS_POOL_FIRST 2

// ls_pool_f32's mode argument: each sequence's last row.
#define LS_POOL_LAST 3

// Threads per block of ls_route_experts_f32 (one block per token): one expert each of a mixture of
// 128 (qwen3moe's), so that ranking the candidates is one pass over the others.
#define LS_ROUTE_THREADS 128

// Threads per block of ls_group_experts (one block, a thread per expert and slice of the pairs).
#define LS_GROUP_THREADS 1024

// Most experts a mixture routes on the device: ls_route_experts_f32 and ls_group_experts hold a
// value per expert in shared memory.
#define LS_ROUTE_MAX_EXPERTS 512

// Most experts a token uses on the device (ls_route_experts_f32 keeps the chosen in shared memory).
#define LS_ROUTE_MAX_USED 32

// Most GPUs ls_allreduce_f32 sums over (its receive-area parameters, one per rank).
#define LS_AR_MAX_RANKS 8

// Threads per block of ls_allreduce_f32.
#define LS_AR_THREADS 256

// Values each thread of ls_allreduce_f32 sends and sums: two 16-byte lines of two values each.
#define LS_AR_PER_THREAD 4

// Most blocks of ls_allreduce_f32, which sizes each rank's counters (one per block) and receive
// area (2 x ranks x LS_AR_MAX_BLOCKS x LS_AR_THREADS x LS_AR_PER_THREAD / 2 lines of 16 bytes): at
// most 256 x 256 x 4 = 262144 values (1 MiB), a decode step's rows of a wide model.
#define LS_AR_MAX_BLOCKS 256
