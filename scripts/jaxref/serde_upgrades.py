#!/usr/bin/env python3
"""Runs real jaxlib 0.12's mosaic-serde{serialize=false} on hand-written
serialized (stable_mosaic.*) modules in the older encodings each upgrade rule
handles, at versions on both sides of every rule's threshold, and records the
deserialized kernel (generic form) or the error message.

Usage: /work/venvs/jaxref/bin/python scripts/jaxref/serde_upgrades.py \
           > mlir-fixtures/serde/upgrades.json
"""
import json
import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")

from jax._src.interpreters import mlir as jmlir  # noqa: E402
from jax._src.lib import tpu as tpu_lib  # noqa: E402
from jaxlib.mlir import ir  # noqa: E402
from jaxlib.mlir.passmanager import PassManager  # noqa: E402

HBM = "memref<16xf32, #tpu.memory_space<hbm>>"
VMEM = "memref<16xf32, #tpu.memory_space<vmem>>"
DSEM = "memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>"
SEM = "memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>"
ARGS = [HBM, VMEM, DSEM, DSEM, "i32", "i32", SEM, "vector<8x128xf32>",
        "vector<8x128xi32>", "memref<1024xf32, #tpu.memory_space<vmem>>",
        "vector<128x128xf32>"]


def serialized(version, body, core="tc"):
  types = ", ".join(ARGS)
  block = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(ARGS))
  return f""""builtin.module"() <{{sym_name = "k"}}> ({{
  "stable_mosaic.func.func"() ({{
  ^bb0({block}):
{body}
    "stable_mosaic.func.return"() : () -> ()
  }}) {{function_type = ({types}) -> (), sym_name = "k", tpu.core_type = #tpu.core_type<{core}>}} : () -> ()
}}) {{stable_mosaic.version = {version} : i64}} : () -> ()
"""


V8F, V8I = "vector<8x128xf32>", "vector<8x128xi32>"
M = "vector<128x128xf32>"
OPS = {
    "enqueue_dma_3_operands": f'    "stable_mosaic.tpu.enqueue_dma"(%arg0, %arg1, %arg2) : ({HBM}, {VMEM}, {DSEM}) -> ()',
    "enqueue_dma_5_operands": f'    "stable_mosaic.tpu.enqueue_dma"(%arg0, %arg3, %arg1, %arg2, %arg4) : ({HBM}, {DSEM}, {VMEM}, {DSEM}, i32) -> ()',
    "enqueue_dma_4_operands": f'    "stable_mosaic.tpu.enqueue_dma"(%arg0, %arg1, %arg2, %arg4) : ({HBM}, {VMEM}, {DSEM}, i32) -> ()',
    "enqueue_dma_6_segments": f'    "stable_mosaic.tpu.enqueue_dma"(%arg0, %arg3, %arg1, %arg2, %arg4, %arg5) {{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>, priority = 0 : i32}} : ({HBM}, {DSEM}, {VMEM}, {DSEM}, i32, i32) -> ()',
    "wait_dma_6_segments": f'    "stable_mosaic.tpu.wait_dma"(%arg0, %arg3, %arg1, %arg2, %arg4, %arg5) {{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>}} : ({HBM}, {DSEM}, {VMEM}, {DSEM}, i32, i32) -> ()',
    "wait_dma2_3_operands": f'    "stable_mosaic.tpu.wait_dma2"(%arg2, %arg0, %arg1) : ({DSEM}, {HBM}, {VMEM}) -> ()',
    "sem_signal_2_operands": f'    "stable_mosaic.tpu.sem_signal"(%arg6, %arg4) : ({SEM}, i32) -> ()',
    "sem_signal_3_operands": f'    "stable_mosaic.tpu.sem_signal"(%arg6, %arg4, %arg5) : ({SEM}, i32, i32) -> ()',
    "sem_signal_4_segments_core": f'    "stable_mosaic.tpu.sem_signal"(%arg6, %arg4, %arg5, %arg5) {{operandSegmentSizes = array<i32: 1, 1, 1, 1>}} : ({SEM}, i32, i32, i32) -> ()',
    "iota_dimension": f'    %0 = "stable_mosaic.tpu.iota"() {{dimension = 1 : i32}} : () -> {V8I}',
    "dynamic_gather_dimension": f'    %0 = "stable_mosaic.tpu.dynamic_gather"(%arg7, %arg8) {{dimension = 1 : i32}} : ({V8F}, {V8I}) -> {V8F}',
    "multi_reduction_array_dims": f'    %c = "stable_mosaic.arith.constant"() {{value = dense<0.0> : vector<8xf32>}} : () -> vector<8xf32>\n    %0 = "stable_mosaic.vector.multi_reduction"(%arg7, %c) {{kind = #vector.kind<add>, reduction_dims = [1]}} : ({V8F}, vector<8xf32>) -> vector<8xf32>',
    "store_without_add": f'    %c = "stable_mosaic.arith.constant"() {{value = 0 : index}} : () -> index\n    "stable_mosaic.tpu.store"(%arg7, %arg9, %c) {{operandSegmentSizes = array<i32: 1, 1, 1, 0>, sublane_mask = array<i1: true, true, true, true, true, true, true, true>}} : ({V8F}, memref<1024xf32, #tpu.memory_space<vmem>>, index) -> ()',
    "matmul_without_hint": f'    %0 = "stable_mosaic.tpu.matmul"(%arg10, %arg10, %arg10) {{dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, transpose_lhs = false, transpose_rhs = false}} : ({M}, {M}, {M}) -> {M}',
    "reinterpret_cast_no_segments": f'    %0 = "stable_mosaic.tpu.reinterpret_cast"(%arg9) : (memref<1024xf32, #tpu.memory_space<vmem>>) -> memref<8x128xf32, #tpu.memory_space<vmem>>',
    "reinterpret_cast_offset_no_segments": f'    %0 = "stable_mosaic.tpu.reinterpret_cast"(%arg9, %arg4) : (memref<1024xf32, #tpu.memory_space<vmem>>, i32) -> memref<8x128xf32, #tpu.memory_space<vmem>>',
    "reinterpret_cast_3_segments": f'    %0 = "stable_mosaic.tpu.reinterpret_cast"(%arg9) {{operandSegmentSizes = array<i32: 1, 0, 0>}} : (memref<1024xf32, #tpu.memory_space<vmem>>) -> memref<8x128xf32, #tpu.memory_space<vmem>>',
    "scan_max_f32_no_dimension": f'    %0 = "stable_mosaic.tpu.scan"(%arg7) {{kind = #tpu.reduction_kind<max>}} : ({V8F}) -> {V8F}',
    "scan_min_i32_no_dimension": f'    %0 = "stable_mosaic.tpu.scan"(%arg8) {{kind = #tpu.reduction_kind<min>}} : ({V8I}) -> {V8I}',
    "scan_max_i32_dimension": f'    %0 = "stable_mosaic.tpu.scan"(%arg8) {{dimension = 1 : i64, kind = #tpu.reduction_kind<max>}} : ({V8I}) -> {V8I}',
    "reduce_max_f32": f'    %0 = "stable_mosaic.tpu.reduce"(%arg7) {{dimensions = array<i64: 1>, kind = #tpu.reduction_kind<max>}} : ({V8F}) -> vector<8x1xf32>',
    "reduce_min_i32": f'    %0 = "stable_mosaic.tpu.reduce"(%arg8) {{dimensions = array<i64: 1>, kind = #tpu.reduction_kind<min>}} : ({V8I}) -> vector<8x1xi32>',
    "reduce_sum_i32": f'    %0 = "stable_mosaic.tpu.reduce"(%arg8) {{dimensions = array<i64: 1>, kind = #tpu.reduction_kind<sum>}} : ({V8I}) -> vector<8x1xi32>',
    "repeat_times_1": f'    %0 = "stable_mosaic.tpu.repeat"(%arg7) {{dimension = 1 : i32, times = 1 : i32}} : ({V8F}) -> {V8F}\n    %1 = "stable_mosaic.arith.addf"(%0, %0) {{fastmath = #arith.fastmath<none>}} : ({V8F}, {V8F}) -> {V8F}',
    "repeat_times_3": f'    %0 = "stable_mosaic.tpu.repeat"(%arg7) {{dimension = 1 : i32, times = 3 : i32}} : ({V8F}) -> vector<8x384xf32>',
    "repeat_missing_times": f'    %0 = "stable_mosaic.tpu.repeat"(%arg7) {{dimension = 1 : i32}} : ({V8F}) -> {V8F}',
    "unmangled_op": f'    %0 = "arith.addf"(%arg7, %arg7) {{fastmath = #arith.fastmath<none>}} : ({V8F}, {V8F}) -> {V8F}',
}
# Versions on both sides of each rule's threshold.
VERSIONS = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]
SC = {"enqueue_dma_6_segments", "wait_dma_6_segments", "sem_signal_4_segments_core"}


def context():
  ctx = jmlir.make_ir_context()
  tpu_lib.register_dialect(ctx)
  ctx.allow_unregistered_dialects = True
  return ctx


def messages(e):
  diags = getattr(e, "error_diagnostics", None)
  return [d.message for d in diags] if diags else [str(e)]


def main():
  cases = {}
  for name, body in OPS.items():
    cores = ["tc", "sc_vector_subcore"] if name in SC else ["tc"]
    for core in cores:
      for v in VERSIONS:
        text = serialized(v, body, core)
        label = f"{name}{'' if core == 'tc' else '_sc'}@{v}"
        rec = {"serialized": text}
        # jaxlib crashes on some encodings that are invalid at the stored
        # version: run each case in a forked child and record a crash.
        rfd, wfd = os.pipe()
        pid = os.fork()
        if pid == 0:
          os.close(rfd)
          out = {}
          with context(), ir.Location.unknown():
            module = ir.Module.parse(text)
            try:
              PassManager.parse("builtin.module(mosaic-serde{serialize=false})").run(module.operation)
              out["verifies"] = module.operation.verify()
              if out["verifies"]:
                out["deserialized"] = module.operation.get_asm(print_generic_op_form=True)
            except Exception as e:
              out["error"] = messages(e)
          os.write(wfd, json.dumps(out).encode())
          os._exit(0)
        os.close(wfd)
        chunks = []
        while True:
          chunk = os.read(rfd, 1 << 16)
          if not chunk:
            break
          chunks.append(chunk)
        os.close(rfd)
        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status):
          rec["jaxlib_crashed"] = os.WTERMSIG(status)
        else:
          rec.update(json.loads(b"".join(chunks)))
        cases[label] = rec
  json.dump({"generated_by": "scripts/jaxref/serde_upgrades.py with jaxlib 0.12.0.1 "
                             "(mosaic-serde serialize=false)", "cases": cases},
            sys.stdout, indent=1)
  sys.stdout.write("\n")
  return 0


if __name__ == "__main__":
  sys.exit(main())
