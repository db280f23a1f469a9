"""A copy of a GGUF file with extra metadata keys; here: YaRN scaling (factor 4 over an original
context of 64, so even short prompts exercise it). Uses llama.cpp's gguf-py (its source tree's
gguf-py folder on PYTHONPATH).

  PYTHONPATH=llama.cpp/gguf-py gguf_yarn_copy.py tiny-qwen3-F16.gguf tiny-qwen3-yarn-F16.gguf
"""
import sys
from gguf import GGUFReader, GGUFWriter, GGUFValueType
src, dst = sys.argv[1], sys.argv[2]
r = GGUFReader(src)
arch = r.fields['general.architecture'].contents()
w = GGUFWriter(dst, arch=arch)
for k, f in r.fields.items():
    if k.startswith('GGUF.') or k == 'general.architecture':
        continue
    t = f.types[0]
    if t == GGUFValueType.ARRAY:
        w.add_key_value(k, f.contents(), t, sub_type=f.types[-1])
    else:
        w.add_key_value(k, f.contents(), t)
w.add_string(f'{arch}.rope.scaling.type', 'yarn')
w.add_float32(f'{arch}.rope.scaling.factor', 4.0)
w.add_uint32(f'{arch}.rope.scaling.original_context_length', 64)
for t in r.tensors:
    w.add_tensor(t.name, t.data, raw_shape=list(reversed([int(x) for x in t.shape])), raw_dtype=t.tensor_type)
w.write_header_to_file(); w.write_kv_data_to_file(); w.write_tensors_to_file(); w.close()
