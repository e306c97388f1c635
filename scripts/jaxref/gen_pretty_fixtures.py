"""Generates the per-op pretty/generic fixture pairs under mlir-fixtures/pretty/.

Usage: python gen_pretty_fixtures.py OUT_DIR
For each `tpu` op below, a small kernel written by hand in generic op form is
parsed by real jaxlib 0.12 (real `tpu` dialect registered) and verified; jaxlib
then prints it in custom (pretty) form (`<op>.mlir`) and in generic form
(`<op>.generic.mlir`), both without locations. The first line of each file says
how it was made. Exit 1 if any kernel fails to parse or verify.
"""
import os
import sys

from jax._src.interpreters import mlir as jmlir
from jax._src.lib import tpu
import jaxlib
from jaxlib.mlir import ir

VMEM = "#tpu.memory_space<vmem>"
SMEM = "#tpu.memory_space<smem>"
ANY = "#tpu.memory_space<any>"
SEM = "memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>"
DMA_SEM = "memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>"
REF = f"memref<8x128xf32, {VMEM}>"
V = "vector<8x128xf32>"


def kernel(args, body, attrs=""):
    """A module with one func.func @kernel(args) whose body is `body` (generic ops)."""
    arg_list = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(args))
    lines = "\n".join("    " + l for l in body.strip().splitlines())
    return (
        "module {\n"
        f"  func.func @kernel({arg_list}){attrs} {{\n{lines}\n    \"func.return\"() : () -> ()\n  }}\n"
        "}\n"
    )


C0 = '%c0 = "arith.constant"() <{value = 0 : index}> : () -> index'
C1_I32 = '%c1 = "arith.constant"() <{value = 1 : i32}> : () -> i32'

# op name (without `tpu.`) -> list of (fixture suffix, module text in generic form)
CASES = {}


SC_VECTOR = " attributes {tpu.core_type = #tpu.core_type<sc_vector_subcore>}"


def case(op, args, body, suffix="", attrs=""):
    CASES.setdefault(op, []).append((suffix, kernel(args, body, attrs)))


# --- memory ------------------------------------------------------------------
case("vector_load", [REF], f"""
{C0}
%0 = "tpu.vector_load"(%arg0, %c0, %c0) <{{operandSegmentSizes = array<i32: 1, 2, 0>, strides = array<i32>}}> : ({REF}, index, index) -> {V}
""")
case("vector_load", [REF, "vector<8x128xi1>"], f"""
{C0}
%0 = "tpu.vector_load"(%arg0, %c0, %c0, %arg1) <{{operandSegmentSizes = array<i32: 1, 2, 1>, strides = array<i32>}}> : ({REF}, index, index, vector<8x128xi1>) -> {V}
""", "masked")
case("vector_store", [REF, V], f"""
{C0}
"tpu.vector_store"(%arg1, %arg0, %c0, %c0) <{{add = false, operandSegmentSizes = array<i32: 1, 1, 2, 0>, strides = array<i32>}}> : ({V}, {REF}, index, index) -> ()
""")
case("vector_store", [REF, V, "vector<8x128xi1>"], f"""
{C0}
"tpu.vector_store"(%arg1, %arg0, %c0, %c0, %arg2) <{{add = true, operandSegmentSizes = array<i32: 1, 1, 2, 1>, strides = array<i32>}}> : ({V}, {REF}, index, index, vector<8x128xi1>) -> ()
""", "masked_add")
case("load", [REF], f"""
{C0}
%0 = "tpu.load"(%arg0, %c0, %c0) <{{sublane_mask = array<i1: true, true, true, true, true, true, true, true>}}> : ({REF}, index, index) -> {V}
""")
case("load", [REF], f"""
{C0}
%0 = "tpu.load"(%arg0, %c0, %c0) <{{sublane_mask = array<i1: true, false, true, false, true, false, true, false>, sublane_stride = 2 : i32}}> : ({REF}, index, index) -> {V}
""", "stride")
case("store", [REF, V], f"""
{C0}
"tpu.store"(%arg1, %arg0, %c0, %c0) <{{add = false, operandSegmentSizes = array<i32: 1, 1, 2, 0>, sublane_mask = array<i1: true, true, true, true, true, true, true, true>}}> : ({V}, {REF}, index, index) -> ()
""")
case("store", [REF, V, "vector<8x128xi1>"], f"""
{C0}
"tpu.store"(%arg1, %arg0, %c0, %c0, %arg2) <{{add = true, operandSegmentSizes = array<i32: 1, 1, 2, 1>, sublane_mask = array<i1: true, false, true, false, true, false, true, false>, sublane_stride = 2 : i32}}> : ({V}, {REF}, index, index, vector<8x128xi1>) -> ()
""", "masked_stride_add")
case("strided_load", [f"memref<16x128xf32, {VMEM}>"], f"""
{C0}
%0 = "tpu.strided_load"(%arg0, %c0, %c0) <{{strides = array<i32: 2, 1>}}> : (memref<16x128xf32, {VMEM}>, index, index) -> {V}
""")
case("strided_store", [f"memref<16x128xf32, {VMEM}>", V], f"""
{C0}
"tpu.strided_store"(%arg1, %arg0, %c0, %c0) <{{strides = array<i32: 2, 1>}}> : ({V}, memref<16x128xf32, {VMEM}>, index, index) -> ()
""")

# --- DMA and semaphores ------------------------------------------------------
HBM_REF = f"memref<8x128xf32, {ANY}>"
case("enqueue_dma", [HBM_REF, REF, DMA_SEM], f"""
"tpu.enqueue_dma"(%arg0, %arg1, %arg2) <{{operandSegmentSizes = array<i32: 1, 0, 1, 1, 0, 0, 0>, priority = 0 : i32, strict_ordering = false}}> : ({HBM_REF}, {REF}, {DMA_SEM}) -> ()
""")
case("enqueue_dma", [HBM_REF, REF, DMA_SEM], f"""
"tpu.enqueue_dma"(%arg0, %arg1, %arg2) <{{operandSegmentSizes = array<i32: 1, 0, 1, 1, 0, 0, 0>, priority = 1 : i32, strict_ordering = false}}> : ({HBM_REF}, {REF}, {DMA_SEM}) -> ()
""", "priority")
case("enqueue_dma", [HBM_REF, HBM_REF, DMA_SEM, DMA_SEM, "i32"], f"""
"tpu.enqueue_dma"(%arg0, %arg2, %arg1, %arg3, %arg4, %arg4) <{{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1, 1>, priority = 0 : i32, strict_ordering = false}}> : ({HBM_REF}, {DMA_SEM}, {HBM_REF}, {DMA_SEM}, i32, i32) -> ()
""", "core_subcore", SC_VECTOR)
case("wait_dma", [HBM_REF, REF, DMA_SEM], f"""
"tpu.wait_dma"(%arg0, %arg1, %arg2) <{{operandSegmentSizes = array<i32: 1, 0, 1, 1, 0, 0, 0>, priority = 0 : i32, strict_ordering = false, wait_target = true}}> : ({HBM_REF}, {REF}, {DMA_SEM}) -> ()
""")
case("wait_dma", [HBM_REF, REF, DMA_SEM], f"""
"tpu.wait_dma"(%arg0, %arg1, %arg2) <{{operandSegmentSizes = array<i32: 1, 0, 1, 1, 0, 0, 0>, priority = 1 : i32, strict_ordering = false, wait_target = true}}> : ({HBM_REF}, {REF}, {DMA_SEM}) -> ()
""", "priority")
case("wait_dma2", [DMA_SEM, HBM_REF, REF], f"""
"tpu.wait_dma2"(%arg0, %arg1, %arg2) <{{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}}> : ({DMA_SEM}, {HBM_REF}, {REF}) -> ()
""")
case("wait_dma2", [DMA_SEM, HBM_REF, REF, "i32"], f"""
"tpu.wait_dma2"(%arg0, %arg1, %arg2, %arg3, %arg3) <{{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>, strict_ordering = true}}> : ({DMA_SEM}, {HBM_REF}, {REF}, i32, i32) -> ()
""", "device_core")
case("sem_alloc", [], f"""
%0 = "tpu.sem_alloc"() : () -> {DMA_SEM}
""")
case("sem_barrier", [], f"""
%0 = "tpu.sem_barrier"() : () -> {SEM}
""")
case("sem_read", [SEM], f"""
%0 = "tpu.sem_read"(%arg0) : ({SEM}) -> i32
""")
case("sem_wait", [SEM, "i32"], f"""
"tpu.sem_wait"(%arg0, %arg1) : ({SEM}, i32) -> ()
""")
case("sem_signal", [SEM, "i32"], f"""
"tpu.sem_signal"(%arg0, %arg1) <{{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}}> : ({SEM}, i32) -> ()
""")
case("sem_signal", [SEM, "i32", "i32"], f"""
"tpu.sem_signal"(%arg0, %arg1, %arg2, %arg2, %arg2) <{{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}}> : ({SEM}, i32, i32, i32, i32) -> ()
""", "device_core_subcore", SC_VECTOR)
case("device_id", [], """
%0 = "tpu.device_id"() : () -> i32
""")
case("core_id", [], """
%0 = "tpu.core_id"() : () -> i32
""", attrs=SC_VECTOR)
case("subcore_id", [], """
%0 = "tpu.subcore_id"() : () -> i32
""", attrs=SC_VECTOR)
case("region", [REF], f"""
"tpu.region"() ({{
  %0 = "tpu.sem_alloc"() : () -> {DMA_SEM}
  "tpu.yield"() : () -> ()
}}) : () -> ()
""")
case("yield", [], f"""
%0 = "tpu.region"() ({{
  %1 = "tpu.device_id"() : () -> i32
  "tpu.yield"(%1) : (i32) -> ()
}}) : () -> i32
""")

# --- vector compute ----------------------------------------------------------
case("matmul", ["vector<128x128xbf16>", "vector<128x128xbf16>", "vector<128x128xf32>"], """
%0 = "tpu.matmul"(%arg0, %arg1, %arg2) <{dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, transpose_lhs_hint = false}> : (vector<128x128xbf16>, vector<128x128xbf16>, vector<128x128xf32>) -> vector<128x128xf32>
""")
case("matmul", ["vector<128x128xbf16>", "vector<128x128xbf16>", "vector<128x128xf32>"], """
%0 = "tpu.matmul"(%arg0, %arg1, %arg2) <{dimension_numbers = #tpu.dot_dimension_numbers<[1], [1], [0], [0], [0, 0, 1, 0], [], []>, precision = #tpu.contract_precision<fp32>, transpose_lhs_hint = true}> : (vector<128x128xbf16>, vector<128x128xbf16>, vector<128x128xf32>) -> vector<128x128xf32>
""", "precision")
case("reduce", [V, "vector<8x128xi32>"], f"""
%0 = "tpu.reduce"(%arg0) <{{dimensions = array<i64: 1>, kind = #tpu.reduction_kind<maxf>}}> : ({V}) -> vector<8x1xf32>
%1 = "tpu.reduce"(%arg1) <{{dimensions = array<i64: 0, 1>, kind = #tpu.reduction_kind<sum>}}> : (vector<8x128xi32>) -> vector<1x1xi32>
""")
case("scan", [V, "vector<16xf32>", "vector<16xi1>"], f"""
%0 = "tpu.scan"(%arg0) <{{dimension = 1 : i64, kind = #tpu.reduction_kind<sum>}}> : ({V}) -> {V}
%1 = "tpu.scan"(%arg1, %arg2) <{{dimension = 0 : i64, kind = #tpu.reduction_kind<maxf>}}> : (vector<16xf32>, vector<16xi1>) -> vector<16xf32>
""")
case("iota", [], """
%0 = "tpu.iota"() <{dimensions = array<i32: 1>}> : () -> vector<8x128xi32>
%1 = "tpu.iota"() <{dimensions = array<i32: 0, 1>}> : () -> vector<8x128xi32>
""")
case("dynamic_gather", [V, "vector<8x128xi32>"], f"""
%0 = "tpu.dynamic_gather"(%arg0, %arg1) <{{dimensions = array<i32: 1>}}> : ({V}, vector<8x128xi32>) -> {V}
""")
case("concatenate", [V, V], f"""
%0 = "tpu.concatenate"(%arg0, %arg1) <{{dimension = 0 : i32}}> : ({V}, {V}) -> vector<16x128xf32>
""")
case("bitcast", ["vector<8x128xi32>"], """
%0 = "tpu.bitcast"(%arg0) : (vector<8x128xi32>) -> vector<8x128xf32>
""")
case("transpose", [V], f"""
%0 = "tpu.transpose"(%arg0) <{{permutation = array<i64: 1, 0>}}> : ({V}) -> vector<128x8xf32>
""")
case("dynamic_rotate", [V, "i32"], f"""
%0 = "tpu.dynamic_rotate"(%arg0, %arg1) <{{dimension = 1 : si32}}> : ({V}, i32) -> {V}
%1 = "tpu.dynamic_rotate"(%arg0, %arg1) <{{dimension = 1 : si32, stride = 1 : si32, stride_dimension = 0 : si32}}> : ({V}, i32) -> {V}
""")
case("all_reduce", ["vector<8x128xi1>"], """
%0 = "tpu.all_reduce"(%arg0) <{dim = 1 : i64, kind = #tpu.reduction_kind<find_first_set>}> : (vector<8x128xi1>) -> vector<8x128xi32>
""")
case("reduce_index", [V], f"""
%0 = "tpu.reduce_index"(%arg0) <{{axis = 1 : i32, kind = #tpu.reduction_kind<arg_max>}}> : ({V}) -> vector<8xi32>
""")
case("sort", [V, V, "vector<8x128xi1>"], f"""
%0:3 = "tpu.sort"(%arg0, %arg1) <{{descending = false}}> : ({V}, {V}) -> (vector<8x128xi1>, {V}, {V})
%1:3 = "tpu.sort"(%arg0, %arg1, %arg2) <{{descending = true}}> : ({V}, {V}, vector<8x128xi1>) -> (vector<8x128xi1>, {V}, {V})
""")
case("prng_random_bits", [], """
%0 = "tpu.prng_random_bits"() : () -> vector<8x128xi32>
""")
case("prng_set_seed_32", ["i32", "i32"], """
"tpu.prng_set_seed_32"(%arg0, %arg1) : (i32, i32) -> ()
""")

# --- memref views ------------------------------------------------------------
case("memref_slice", [f"memref<16x256xf32, {VMEM}>", "i32"], f"""
%c = "arith.constant"() <{{value = 0 : i32}}> : () -> i32
%0 = "tpu.memref_slice"(%arg0, %c, %arg1) <{{operandSegmentSizes = array<i32: 1, 2, 0>}}> : (memref<16x256xf32, {VMEM}>, i32, i32) -> memref<8x128xf32, strided<[256, 1], offset: ?>, {VMEM}>
""")
case("memref_squeeze", [f"memref<1x8x128xf32, {VMEM}>"], f"""
%0 = "tpu.memref_squeeze"(%arg0) : (memref<1x8x128xf32, {VMEM}>) -> {REF}
""")
case("memref_reshape", [f"memref<1x8x128xf32, {VMEM}>"], f"""
%0 = "tpu.memref_reshape"(%arg0) : (memref<1x8x128xf32, {VMEM}>) -> {REF}
""")
case("memref_bitcast", [f"memref<8x128xi32, {VMEM}>"], f"""
%0 = "tpu.memref_bitcast"(%arg0) : (memref<8x128xi32, {VMEM}>) -> {REF}
""")
case("erase_memref_layout", [f"memref<8x128xf32, strided<[128, 1]>, {VMEM}>"], f"""
%0 = "tpu.erase_memref_layout"(%arg0) : (memref<8x128xf32, strided<[128, 1]>, {VMEM}>) -> {REF}
""")
case("reinterpret_cast", [f"memref<8x128xf32, {VMEM}>"], f"""
%0 = "tpu.reinterpret_cast"(%arg0) <{{operandSegmentSizes = array<i32: 1, 0, 0, 0>}}> : ({REF}) -> memref<1024xf32, {VMEM}>
""")

# --- scalars, control, debugging ---------------------------------------------
case("iteration_bound", [], """
%0 = "tpu.iteration_bound"() <{dim = 0 : i32}> : () -> i32
""")
case("assume_multiple", ["i32"], """
%0 = "tpu.assume_multiple"(%arg0) <{multiple = 8 : i32}> : (i32) -> i32
""")
case("delay", ["i32"], """
"tpu.delay"(%arg0) : (i32) -> ()
""")
case("trace_start", [], """
"tpu.trace_start"() <{level = 10 : i32, message = "step"}> : () -> ()
""")
case("trace_stop", [], """
"tpu.trace_stop"() : () -> ()
""")
case("log", ["i32", "i32"], """
"tpu.log"(%arg0, %arg1) <{formatted = true, tag = "x: {} {}"}> : (i32, i32) -> ()
""")

case("reinterpret_cast", [f"memref<?x128xf32, {VMEM}>", "i32"], f"""
%0 = "tpu.reinterpret_cast"(%arg0, %arg1, %arg1, %arg1) <{{operandSegmentSizes = array<i32: 1, 1, 1, 1>}}> : (memref<?x128xf32, {VMEM}>, i32, i32, i32) -> memref<?x128xf32, strided<[?, 1], offset: ?>, {VMEM}>
""", "dynamic")
case("memref_slice", [f"memref<16x?xf32, {VMEM}>", "i32"], f"""
%0 = "tpu.memref_slice"(%arg0, %arg1, %arg1, %arg1) <{{operandSegmentSizes = array<i32: 1, 2, 1>}}> : (memref<16x?xf32, {VMEM}>, i32, i32, i32) -> memref<8x?xf32, strided<[?, 1], offset: ?>, {VMEM}>
""", "dynamic")
case("log", [], """
"tpu.log"() <{formatted = false, tag = "hello"}> : () -> ()
""", "no_inputs")


# --- more ops Pallas emits ---------------------------------------------------
I32V = "vector<16xi32>"
F32V = "vector<16xf32>"
MASK16 = "vector<16xi1>"
case("vector_load_idx", [f"memref<64xf32, {VMEM}>", I32V, MASK16], f"""
%0 = "tpu.vector_load_idx"(%arg0, %arg1) <{{operandSegmentSizes = array<i32: 1, 1, 0>}}> : (memref<64xf32, {VMEM}>, {I32V}) -> {F32V}
%1 = "tpu.vector_load_idx"(%arg0, %arg1, %arg2) <{{operandSegmentSizes = array<i32: 1, 1, 1>}}> : (memref<64xf32, {VMEM}>, {I32V}, {MASK16}) -> {F32V}
""", attrs=SC_VECTOR)
case("vector_store_idx", [f"memref<64xf32, {VMEM}>", I32V, MASK16, F32V], f"""
"tpu.vector_store_idx"(%arg3, %arg0, %arg1) <{{add = false, operandSegmentSizes = array<i32: 1, 1, 1, 0>}}> : ({F32V}, memref<64xf32, {VMEM}>, {I32V}) -> ()
"tpu.vector_store_idx"(%arg3, %arg0, %arg1, %arg2) <{{add = true, operandSegmentSizes = array<i32: 1, 1, 1, 1>}}> : ({F32V}, memref<64xf32, {VMEM}>, {I32V}, {MASK16}) -> ()
""", attrs=SC_VECTOR)
case("unpack_subelements", ["vector<16x128xbf16>"], """
%0 = "tpu.unpack_subelements"(%arg0) <{index = 0 : i32, pack_format = #tpu.pack_format<interleaved>}> : (vector<16x128xbf16>) -> vector<8x128xf32>
""")
case("pack_subelements", [V, V], f"""
%0 = "tpu.pack_subelements"(%arg0, %arg1) <{{pack_format = #tpu.pack_format<interleaved>, positions = array<i32: 0, 1>}}> : ({V}, {V}) -> vector<8x256xbf16>
""")
case("pack_elementwise", [V, V], f"""
%0 = "tpu.pack_elementwise"(%arg0, %arg1) <{{target_type = bf16}}> : ({V}, {V}) -> vector<8x128xi32>
""")
case("unpack_elementwise", ["vector<8x128xi32>"], """
%0 = "tpu.unpack_elementwise"(%arg0) <{index = 1 : i32, source_type = bf16}> : (vector<8x128xi32>) -> vector<8x128xf32>
""")
case("reciprocal", [V], f"""
%0 = "tpu.reciprocal"(%arg0) <{{approx = false, full_range = false}}> : ({V}) -> {V}
%1 = "tpu.reciprocal"(%arg0) <{{approx = true, full_range = true}}> : ({V}) -> {V}
""")
case("stochastic_convert", [V, "vector<8x128xi32>"], f"""
%0 = "tpu.stochastic_convert"(%arg0, %arg1) : ({V}, vector<8x128xi32>) -> vector<8x128xbf16>
""")
case("scan_count", [MASK16, I32V], f"""
%0:2 = "tpu.scan_count"(%arg0, %arg1) : ({MASK16}, {I32V}) -> ({MASK16}, {I32V})
""", attrs=SC_VECTOR)
case("enqueue_indirect_dma", [f"memref<64x128xf32, #tpu.memory_space<hbm>>", f"memref<8x128xf32, {VMEM}>", f"memref<8xi32, {VMEM}>", DMA_SEM, "i32"], f"""
"tpu.enqueue_indirect_dma"(%arg0, %arg1, %arg2, %arg3) <{{add = false}}> : (memref<64x128xf32, #tpu.memory_space<hbm>>, memref<8x128xf32, {VMEM}>, memref<8xi32, {VMEM}>, {DMA_SEM}) -> ()
"tpu.enqueue_indirect_dma"(%arg0, %arg1, %arg2, %arg3, %arg4) <{{add = false}}> : (memref<64x128xf32, #tpu.memory_space<hbm>>, memref<8x128xf32, {VMEM}>, memref<8xi32, {VMEM}>, {DMA_SEM}, i32) -> ()
""", attrs=SC_VECTOR)
case("wait_indirect_dma", [f"memref<64x128xf32, #tpu.memory_space<hbm>>", f"memref<8x128xf32, {VMEM}>", DMA_SEM], f"""
"tpu.wait_indirect_dma"(%arg2, %arg0, %arg1) : ({DMA_SEM}, memref<64x128xf32, #tpu.memory_space<hbm>>, memref<8x128xf32, {VMEM}>) -> ()
""", attrs=SC_VECTOR)
case("barrier", ["index"], """
"tpu.barrier"(%arg0) : (index) -> ()
""", attrs=SC_VECTOR)
case("weird", [V], f"""
%0 = "tpu.weird"(%arg0) : ({V}) -> vector<8x128xi1>
""")
case("log_buffer", [REF], f"""
"tpu.log_buffer"(%arg0) <{{shape = array<i64: 8, 128>, tag = "buf"}}> : ({REF}) -> ()
""")
case("logistic", [V], f"""
%0 = "tpu.logistic"(%arg0) : ({V}) -> {V}
""")
case("fetch_and_add_sync", [f"memref<16xi32, {SMEM}>", "i32"], f"""
%0 = "tpu.fetch_and_add_sync"(%arg0, %arg1, %arg1, %arg1) : (memref<16xi32, {SMEM}>, i32, i32, i32) -> i32
""", attrs=SC_VECTOR)
case("shared_memref_slice", [f"memref<16x128xf32, #tpu.memory_space<vmem_shared>>"], f"""
%0 = "tpu.shared_memref_slice"(%arg0) : (memref<16x128xf32, #tpu.memory_space<vmem_shared>>) -> memref<16x128xf32, #tpu.memory_space<vmem, sc_vector_subcore>>
""", attrs=SC_VECTOR)
case("memref_memory_space_is", [f"memref<8x128xf32, {ANY}>"], f"""
%0 = "tpu.memref_memory_space_is"(%arg0) <{{memory_space = #tpu.memory_space<hbm>}}> : (memref<8x128xf32, {ANY}>) -> i1
""")
case("reduce_precision", [V], f"""
%0 = "tpu.reduce_precision"(%arg0) <{{exponent_bits = 8 : i32, mantissa_bits = 7 : i32}}> : ({V}) -> {V}
""")
case("bitcast_vreg", ["vector<8x128xi32>"], """
%0 = "tpu.bitcast_vreg"(%arg0) : (vector<8x128xi32>) -> vector<8x128xf32>
""")
case("mask_cast", ["vector<8x128x2xi1>"], """
%0 = "tpu.mask_cast"(%arg0) : (vector<8x128x2xi1>) -> vector<8x128x4xi1>
""")
case("gather", [V], f"""
%0 = "tpu.gather"(%arg0) <{{dimension = 0 : i32, indices = array<i32: 7, 6, 5, 4, 3, 2, 1, 0>}}> : ({V}) -> {V}
""")
case("broadcast_in_sublanes", [V], f"""
%0 = "tpu.broadcast_in_sublanes"(%arg0) <{{lane = 0 : i32}}> : ({V}) -> {V}
""")
case("internal_scratch", [], f"""
%0 = "tpu.internal_scratch"() : () -> memref<8x128xf32, {VMEM}>
""")
case("sublane_shuffle", [V, V], f"""
%0 = "tpu.sublane_shuffle"(%arg0, %arg1) <{{pattern = array<i32: 0, 1, 2, 3, 8, 9, 10, 11>}}> : ({V}, {V}) -> {V}
""")
case("extf", ["vector<8x128xbf16>"], """
%0 = "tpu.extf"(%arg0) : (vector<8x128xbf16>) -> vector<8x128xf32>
""")
case("truncf", [V], f"""
%0 = "tpu.truncf"(%arg0) <{{rounding_mode = #tpu.rounding_mode<to_nearest_even>}}> : ({V}) -> vector<8x128xbf16>
""")
case("fptosi", [V], f"""
%0 = "tpu.fptosi"(%arg0) <{{rounding_mode = #tpu.rounding_mode<towards_zero>}}> : ({V}) -> vector<8x128xi16>
""")
case("sitofp", ["vector<8x128xi32>"], """
%0 = "tpu.sitofp"(%arg0) <{rounding_mode = #tpu.rounding_mode<to_nearest_even>}> : (vector<8x128xi32>) -> vector<8x128xbf16>
""")
case("trace_value", ["i32"], """
"tpu.trace_value"(%arg0) <{label = "x"}> : (i32) -> ()
""")
case("annotate", [REF], f"""
%0 = "tpu.annotate"(%arg0) <{{no_store = true}}> : ({REF}) -> {REF}
""")
case("tile_size", [REF], f"""
%0 = "tpu.tile_size"(%arg0) <{{index = 0 : i32}}> : ({REF}) -> i32
""")
case("matmul_push_rhs", ["vector<128x128xbf16>"], """
"tpu.matmul_push_rhs"(%arg0) <{mxu_index = 0 : i32}> : (vector<128x128xbf16>) -> ()
""")
case("vector_expand_load", [f"memref<64xf32, {VMEM}>", MASK16], f"""
{C0}
%0 = "tpu.vector_expand_load"(%arg0, %c0, %arg1) <{{expand_dim = 0 : i32}}> : (memref<64xf32, {VMEM}>, index, {MASK16}) -> {F32V}
""", attrs=SC_VECTOR)
case("vector_compress_store", [f"memref<64xf32, {VMEM}>", MASK16, F32V], f"""
{C0}
"tpu.vector_compress_store"(%arg2, %arg0, %c0, %arg1) <{{add = false, compress_dim = 0 : i32}}> : ({F32V}, memref<64xf32, {VMEM}>, index, {MASK16}) -> ()
""", attrs=SC_VECTOR)

case("fptoui", [V], f"""
%0 = "tpu.fptoui"(%arg0) <{{rounding_mode = #tpu.rounding_mode<towards_zero>}}> : ({V}) -> vector<8x128xi16>
""")
case("uitofp", ["vector<8x128xi32>"], """
%0 = "tpu.uitofp"(%arg0) <{rounding_mode = #tpu.rounding_mode<to_nearest_even>}> : (vector<8x128xi32>) -> vector<8x128xbf16>
""")
case("reshape", [V], f"""
%0 = "tpu.reshape"(%arg0) : ({V}) -> vector<4x256xf32>
""")
case("roll_vectors", [V, V], f"""
%0 = "tpu.roll_vectors"(%arg0, %arg1) : ({V}, {V}) -> vector<16x128xf32>
""")
case("unroll_vectors", ["vector<16x128xf32>"], f"""
%0:2 = "tpu.unroll_vectors"(%arg0) : (vector<16x128xf32>) -> ({V}, {V})
""")
case("shuffled_load", [REF], f"""
{C0}
%0 = "tpu.shuffled_load"(%arg0, %c0, %c0) <{{sublane_mask = array<i1: true, true, true, true, true, true, true, true>, sublane_offsets = array<i32: 7, 6, 5, 4, 3, 2, 1, 0>}}> : ({REF}, index, index) -> {V}
""")
case("shuffled_store", [REF, V], f"""
{C0}
"tpu.shuffled_store"(%arg1, %arg0, %c0, %c0) <{{sublane_mask = array<i1: true, true, true, true, true, true, true, true>, sublane_offsets = array<i32: 7, 6, 5, 4, 3, 2, 1, 0>}}> : ({V}, {REF}, index, index) -> ()
""")
case("stochastic_convert_elementwise", [V, "vector<8x128xi32>"], f"""
%0 = "tpu.stochastic_convert_elementwise"(%arg0, %arg1) <{{dst_type = bf16}}> : ({V}, vector<8x128xi32>) -> vector<8x128xi32>
""")
case("create_subelement_mask", [], """
%0 = "tpu.create_subelement_mask"() <{from = 3 : i32, to = 9 : i32}> : () -> vector<8x128x2xi1>
""")
case("create_mask", ["index"], """
%0 = "tpu.create_mask"(%arg0, %arg0, %arg0, %arg0) : (index, index, index, index) -> vector<8x128xi1>
""")
case("assume_layout", [V], f"""
%0 = "tpu.assume_layout"(%arg0) : ({V}) -> {V}
""")
case("pack_vmsk", ["vector<8x128xi1>", "vector<8x128xi1>"], """
%0 = "tpu.pack_vmsk"(%arg0, %arg1) <{positions = array<i32: 0, 1>}> : (vector<8x128xi1>, vector<8x128xi1>) -> vector<8x128x2xi1>
""")
case("matmul_pop", [], """
%0 = "tpu.matmul_pop"() <{acc = 0 : i32, mxu_index = 0 : i32}> : () -> vector<8x128xf32>
""")
case("matmul_pop_fifo", [], """
%0 = "tpu.matmul_pop_fifo"() <{mxu_index = 0 : i32}> : () -> vector<8x128xf32>
""")
case("matmul_acc_lhs", ["vector<8x128xbf16>"], """
"tpu.matmul_acc_lhs"(%arg0) <{acc = 0 : i32, mxu_index = 0 : i32}> : (vector<8x128xbf16>) -> ()
""")
case("matmul_lhs_fifo", ["vector<8x128xbf16>"], """
"tpu.matmul_lhs_fifo"(%arg0) <{mxu_index = 0 : i32}> : (vector<8x128xbf16>) -> ()
""")
case("expand_load_vreg", [f"memref<64xf32, {VMEM}>", MASK16], f"""
{C0}
%0 = "tpu.expand_load_vreg"(%arg0, %c0, %arg1) : (memref<64xf32, {VMEM}>, index, {MASK16}) -> {F32V}
""", attrs=SC_VECTOR)
case("compress_store_vreg", [f"memref<64xf32, {VMEM}>", F32V, MASK16], f"""
{C0}
"tpu.compress_store_vreg"(%arg1, %arg0, %c0, %arg2) <{{add = false}}> : ({F32V}, memref<64xf32, {VMEM}>, index, {MASK16}) -> ()
""", attrs=SC_VECTOR)
case("trace", [], """
"tpu.trace"() <{level = 10 : i32, message = "step"}> ({
  "tpu.yield"() : () -> ()
}) : () -> ()
""")

case("conv", ["vector<1x8x8x128xf32>", "vector<3x3x128x128xf32>", "vector<1x6x6x128xf32>"], """
%0 = "tpu.conv"(%arg0, %arg1, %arg2) <{dimension_numbers = #tpu.conv_dimension_numbers<0, 3, [1, 2], 2, 3, [0, 1], 0, 3, [1, 2]>, lhs_dilation = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (vector<1x8x8x128xf32>, vector<3x3x128x128xf32>, vector<1x6x6x128xf32>) -> vector<1x6x6x128xf32>
""")


def main(out_dir):
    version = jaxlib.__version__
    failed = 0
    for op, variants in sorted(CASES.items()):
        for suffix, text in variants:
            name = op + (f"_{suffix}" if suffix else "")
            ctx = jmlir.make_ir_context()
            tpu.register_dialect(ctx)
            with ctx:
                try:
                    module = ir.Module.parse(text)
                except Exception as e:  # noqa: BLE001 (report and go on)
                    print(f"{name}: {e}", file=sys.stderr)
                    failed += 1
                    continue
                if not module.operation.verify():
                    print(f"{name}: does not verify", file=sys.stderr)
                    failed += 1
                    continue
                header = (
                    f"// `tpu.{op}` fixture: a hand-written generic-form kernel parsed, verified and printed in "
                    "{form} form by jaxlib {version} (scripts/jaxref/gen_pretty_fixtures.py); do not edit.\n"
                )
                for form, generic, ext in (("custom (pretty)", False, ".mlir"), ("generic", True, ".generic.mlir")):
                    asm = module.operation.get_asm(print_generic_op_form=generic)
                    with open(os.path.join(out_dir, name + ext), "w") as f:
                        f.write(header.format(form=form, version=version) + asm)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
