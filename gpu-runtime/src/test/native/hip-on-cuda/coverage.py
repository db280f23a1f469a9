"""Which bound symbols hip-on-cuda saw called (test code): reads symbols.def and HIP_ON_CUDA_TRACE's
files (the table each process writes at exit, and the .first log written at each first call), prints
the symbols never called (symbol<TAB>library) and a one-line summary on stderr.

usage: python3 coverage.py symbols.def calls.tsv [calls.tsv.first ...]
"""
import os
import re
import sys

symbols = re.findall(r"^X\((\w+), (\w+)\)", open(sys.argv[1]).read(), re.M)
called = set()
for f in sys.argv[2:]:
    if os.path.exists(f):
        for line in open(f):
            p = line.rstrip("\n").split("\t")
            if line.startswith("#") or len(p) < 2:
                continue
            if len(p) == 2 or (p[2].isdigit() and int(p[2]) > 0):
                called.add(p[0])
for s, lib in symbols:
    if s not in called:
        print(s + "\t" + lib)
print("hip-on-cuda: %d of %d bound symbols called" % (sum(s in called for s, _ in symbols), len(symbols)),
      file=sys.stderr)
