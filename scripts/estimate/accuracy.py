#!/usr/bin/env python3
"""Compares `tpu-custom-call estimate` with the public real-TPU timings of the Pallas TPU matmul guide
(JAX docs/pallas/tpu/matmul.ipynb, outputs of cells 28, 36 and 40, measured on a TPU v5e).

    scripts/estimate/matmul_guide.py OUT          # the kernels (real JAX 0.12, lowered for TPU on CPU)
    for f in OUT/*.mlir; do tpu-custom-call estimate $f --target v5e --json > RES/$(basename $f .mlir).json; done
    scripts/estimate/accuracy.py RES              # the table of docs/performance.md

The guide times `jax.block_until_ready(f(x, y))` with timeit: host dispatch and synchronisation are in every
measurement. `dispatch` below is an estimate of that overhead from the guide's own XLA matmul at 1024^3 (cell 30:
119.4 us for 2.1 GFLOP, which at the 91-92% utilisation XLA reaches on the large sizes is ~12 us of device time):
119.4 - 12 = ~107 us. The `corrected` column subtracts it from the measurement; the raw ratio is shown too."""
import json
import os
import sys

# (variant, bm, bk, bn, size) -> measured seconds (the guide's "Matmul time").
MEASURED = {
    ("plain", 128, 128, 128, 1024): 0.00029766598949208854,
    ("plain", 128, 128, 128, 4096): 0.011771515250438824,
    ("plain", 128, 128, 128, 8192): 0.09183577066054567,
    ("plain", 512, 1024, 1024, 1024): 0.00012708659982308746,
    ("plain", 512, 1024, 1024, 4096): 0.00088908776990138,
    ("plain", 512, 1024, 1024, 8192): 0.006099433819763363,
    ("trans", 128, 128, 128, 1024): 0.0003029372810851783,
    ("trans", 128, 128, 128, 4096): 0.012017967159627005,
    ("trans", 128, 128, 128, 8192): 0.09500920018996112,
    ("trans", 512, 1024, 1024, 1024): 0.00012131539988331496,
    ("trans", 512, 1024, 1024, 4096): 0.0008790623804088682,
    ("trans", 512, 1024, 1024, 8192): 0.006107717020204291,
    ("relu", 128, 128, 128, 1024): 0.00030103540048003196,
    ("relu", 128, 128, 128, 4096): 0.011807117109419778,
    ("relu", 128, 128, 128, 8192): 0.09181861146935262,
    ("relu", 512, 1024, 1024, 1024): 0.00012622540001757442,
    ("relu", 512, 1024, 1024, 4096): 0.000896632740041241,
    ("relu", 512, 1024, 1024, 8192): 0.006130605939542875,
}
DISPATCH = 107e-6


def main():
  res = sys.argv[1]
  print("| kernel (v5e, bf16) | grid steps | bound | estimate | measured | estimate / measured | "
        "estimate / (measured - 107 us) |")
  print("|---|---|---|---|---|---|---|")
  ratios = {}
  for (variant, bm, bk, bn, size), measured in MEASURED.items():
    path = os.path.join(res, f"mm_{variant}_b{bm}x{bk}x{bn}_{size}.json")
    if not os.path.exists(path) or os.path.getsize(path) == 0:
      continue
    call = json.load(open(path))["calls"][0]
    est = call["seconds"]
    raw = est / measured
    corrected = est / (measured - DISPATCH)
    ratios.setdefault((bm, bk, bn), []).append(corrected if size > 1024 else None)
    note = " (extrapolated)" if call["extrapolated"] else ""
    print(f"| {variant} {size}^3, blocks {bm}x{bk}x{bn} | {call['steps']:,}{note} | {call['bound']} | "
          f"{est * 1e3:.3f} ms | {measured * 1e3:.3f} ms | {raw:.2f} | {corrected:.2f} |")
  for blocks, rs in ratios.items():
    rs = [r for r in rs if r]
    if rs:
      print(f"\nblocks {blocks}: 4096 and 8192, corrected ratio {min(rs):.2f} .. {max(rs):.2f}")


if __name__ == "__main__":
  main()
