"""Generates tests/data/mosaic-corpus/verifier-fixtures.jsonl: for each of the 61 `tpu` ops with a hand-written
`verify()`, kernels jaxlib 0.12 accepts and kernels it refuses in that verifier, each with jaxlib's verdict.

Usage: $REFCHECK_VENV/bin/python scripts/jaxref/gen_verifier_fixtures.py > tests/data/mosaic-corpus/verifier-fixtures.jsonl

Three sources:
- hand-written one-op kernels (`FIXTURES` below: op -> [(core, func args, op line)]), for the ops the mutated
  corpus does not reach with both verdicts;
- hand-written one-op kernels on memrefs with a tiled layout (`TILED_FIXTURES`, same form), for the verifiers
  that look at it (the corpus has none), then `LATE_FIXTURES` (matmul's dimension numbers, the grammar of
  `#tpu.dot_dimension_numbers`, `#tpu.conv_dimension_numbers` and the enums); they come last;
- the mutated corpus (`corpus.jsonl`): for every other verifier op, up to two kernels jaxlib accepted that hold
  the op and up to three the op's own verifier refused (the message is not an ODS one), rebuilt in full.
Every kernel is judged again by jaxlib here (Module.parse, which verifies). A refused kernel counts as reaching
the op's verify() when jaxlib's message is not one of ODS's (`reaches_verify`); `EXCEPTIONS` records the ops
whose verifier jaxlib cannot be made to refuse or accept, and why.

Line format (JSON, after a `{"_generated": ...}` header line):
  {"op", "source": "hand"|"corpus#<id>", "text", "verdict": "ok"|"error", "message", "reaches_verify"}
"""
import json
import os
import re
import sys

import jaxlib
from jax._src.interpreters import mlir as jmlir
from jax._src.lib import tpu
from jaxlib.mlir import ir

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.dirname(__file__))
from gen_verify_corpus import jaxlib_verdict, apply  # noqa: E402

VERIFIER_OPS = (
    "all_reduce annotate assume_multiple bitcast compress_store_vreg concatenate conv core_id dynamic_gather "
    "dynamic_rotate enqueue_dma enqueue_indirect_dma erase_memref_layout expand_load_vreg fetch_and_add_sync iota "
    "log log_buffer mask_cast matmul memref_bitcast memref_memory_space_is memref_reshape memref_slice "
    "memref_squeeze pack_elementwise pack_subelements pack_vmsk reciprocal reduce reduce_index region "
    "reinterpret_cast reshape scan sem_barrier sem_signal sem_wait shared_memref_slice shuffled_load "
    "shuffled_store sort stochastic_convert_elementwise strided_load strided_store subcore_id sublane_shuffle "
    "tile_size transpose unpack_elementwise unpack_subelements vector_compress_store vector_expand_load "
    "vector_load vector_load_idx vector_store vector_store_idx wait_dma wait_dma2 wait_indirect_dma weird"
).split()

# ODS / parser messages: a refusal with one of these did not reach the op's verify().
ODS = re.compile(r"operand count|operand #|result #|requires attribute|failed to satisfy|unregistered operation|"
                 r"operandSegmentSizes|resultSegmentSizes|invalid properties|result count|use of undeclared|"
                 r"requires one region|region #|cannot be owned|found in dialect|Unable to parse|"
                 r"expected \d+ (operand|result)|custom op|expected '|unknown|requires the same|failed to verify that|"
                 r"non-scalar|requires a single|requires zero|requires \d+|expected ::mlir|inferred type|failed to infer|"
                 r"operand group starting|or more operands|expected integer|expected type")

V = "#tpu.memory_space<vmem>"
SEM = "memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>"
M = f"memref<8x128xf32, {V}>"
M32 = f"memref<8x128xi32, {V}>"
TC, SCV, SCS = "tc", "sc_vector_subcore", "sc_scalar_subcore"

HBM = "memref<64x128xf32, #tpu.memory_space<hbm>>"
FIXTURES = {
 "reinterpret_cast": [
   (TC, f"%m: {M}", f'%r = "tpu.reinterpret_cast"(%m) <{{operandSegmentSizes = array<i32: 1, 0, 0, 0>}}> : ({M}) -> {M}'),
   (TC, f"%m: {M}", f'%r = "tpu.reinterpret_cast"(%m) <{{operandSegmentSizes = array<i32: 1, 0, 0, 0>}}> : ({M}) -> memref<8x128xi32, {V}>'),
   (TC, f"%m: {M}", f'%r = "tpu.reinterpret_cast"(%m) <{{operandSegmentSizes = array<i32: 1, 0, 0, 0>}}> : ({M}) -> memref<16x128xf32, #tpu.memory_space<smem>>'),
   (TC, f"%m: {M}", f'%r = "tpu.reinterpret_cast"(%m) <{{operandSegmentSizes = array<i32: 1, 0, 0, 0>}}> : ({M}) -> memref<?x128xf32, {V}>'),
 ],
 "log_buffer": [
   (TC, f"%m: {M}", f'"tpu.log_buffer"(%m) <{{shape = array<i64: 8, 128>, tag = "x"}}> : ({M}) -> ()'),
   (TC, f"%m: {M}", f'"tpu.log_buffer"(%m) <{{shape = array<i64: 8>, tag = "x"}}> : ({M}) -> ()'),
   (TC, f"%m: {M}", f'"tpu.log_buffer"(%m) <{{shape = array<i64: 4, 128>, tag = "x"}}> : ({M}) -> ()'),
 ],
 "reshape": [(TC, "%a: vector<8x128xf32>", '%r = "tpu.reshape"(%a) : (vector<8x128xf32>) -> vector<16x128xf32>'),(TC, "%a: vector<8x128xf32>", '%r = "tpu.reshape"(%a) : (vector<8x128xf32>) -> vector<16x64xf32>')],
 "bitcast": [(TC, "%a: vector<8x128xf32>", '%r = "tpu.bitcast"(%a) : (vector<8x128xf32>) -> vector<8x128xbf16>'),(TC, "%a: vector<8x128xf32>", '%r = "tpu.bitcast"(%a) : (vector<8x128xf32>) -> vector<16x128xbf16>'),
             (TC, "%a: vector<8x128xf32>", '%r = "tpu.bitcast"(%a) : (vector<8x128xf32>) -> vector<8x128xi32>')],
 "mask_cast": [(TC, "%a: vector<8x128xi1>", '%r = "tpu.mask_cast"(%a) : (vector<8x128xi1>) -> vector<2x8x128xi1>'),
               (TC, "%a: vector<8x128x2xi1>", '%r = "tpu.mask_cast"(%a) : (vector<8x128x2xi1>) -> vector<8x128xi1>'),
               (TC, "%a: vector<8x128x2xi1>", '%r = "tpu.mask_cast"(%a) : (vector<8x128x2xi1>) -> vector<8x64x2xi1>'),
               (TC, "%a: vector<8x128xi1>", '%r = "tpu.mask_cast"(%a) : (vector<8x128xi1>) -> vector<8x128x2x2xi1>'),(TC, "%a: vector<8x128xi1>", '%r = "tpu.mask_cast"(%a) : (vector<8x128xi1>) -> vector<8x128x2xi1>'),
               (TC, "%a: vector<8x128xi1>", '%r = "tpu.mask_cast"(%a) : (vector<8x128xi1>) -> vector<4x128x2xi1>'),
               (TC, "%a: vector<8x128xi1>", '%r = "tpu.mask_cast"(%a) : (vector<8x128xi1>) -> vector<8x128xi1>')],
 "sem_barrier": [(TC, "", '%r = "tpu.sem_barrier"() : () -> memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>'),
                 (TC, "", '%r = "tpu.sem_barrier"() : () -> memref<2x!tpu.semaphore, #tpu.memory_space<semaphore_mem>>')],
 "memref_reshape": [(TC, f"%m: {M}", f'%r = "tpu.memref_reshape"(%m) : ({M}) -> memref<16x64xf32, {V}>'),
                    (TC, f"%m: {M}", f'%r = "tpu.memref_reshape"(%m) : ({M}) -> memref<16x128xf32, {V}>')],
 "memref_squeeze": [(TC, f"%m: memref<1x8x128xf32, {V}>", f'%r = "tpu.memref_squeeze"(%m) : (memref<1x8x128xf32, {V}>) -> {M}'),
                    (TC, f"%m: memref<1x8x128xf32, {V}>", f'%r = "tpu.memref_squeeze"(%m) : (memref<1x8x128xf32, {V}>) -> memref<8x128xi32, {V}>')],
 "erase_memref_layout": [(TC, f"%m: {M}", f'%r = "tpu.erase_memref_layout"(%m) : ({M}) -> memref<8x128xf32, strided<[128, 1]>, {V}>'),
                         (TC, f"%m: {M}", f'%r = "tpu.erase_memref_layout"(%m) : ({M}) -> {M}')],
 "region": [(TC, "", '%r = "tpu.region"() ({\n    %c = "arith.constant"() <{value = 0 : i32}> : () -> i32\n    "tpu.yield"(%c) : (i32) -> ()\n  }) : () -> i32'),
            (TC, f"%m: {M}", f'%r = "tpu.region"() ({{\n    "tpu.yield"(%m) : ({M}) -> ()\n  }}) : () -> {M}')],
 "weird": [(TC, "%a: vector<8x128xf32>", '%r = "tpu.weird"(%a) : (vector<8x128xf32>) -> vector<8x128xi1>'),
           (TC, "%a: vector<8x128xi32>", '%r = "tpu.weird"(%a) : (vector<8x128xi32>) -> vector<8x128xi1>')],
 "core_id": [(SCV, "", '%r = "tpu.core_id"() : () -> i32'), (TC, "", '%r = "tpu.core_id"() : () -> i32')],
 "subcore_id": [(SCV, "", '%r = "tpu.subcore_id"() : () -> i32'), (TC, "", '%r = "tpu.subcore_id"() : () -> i32')],
 "shared_memref_slice": [(SCV, "%m: memref<8x128xf32, #tpu.memory_space<vmem_shared>>", f'%r = "tpu.shared_memref_slice"(%m) : (memref<8x128xf32, #tpu.memory_space<vmem_shared>>) -> {M}'),
                         (TC, "%m: memref<8x128xf32, #tpu.memory_space<vmem_shared>>", f'%r = "tpu.shared_memref_slice"(%m) : (memref<8x128xf32, #tpu.memory_space<vmem_shared>>) -> {M}')],
 "fetch_and_add_sync": [(SCV, f"%m: {M32}, %i: i32", f'%r = "tpu.fetch_and_add_sync"(%m, %i, %i, %i, %i) : ({M32}, i32, i32, i32, i32) -> i32'),
                        (SCV, f"%m: {M32}, %i: i32", f'%r = "tpu.fetch_and_add_sync"(%m, %i, %i, %i) : ({M32}, i32, i32, i32) -> i32')],
 "wait_indirect_dma": [(SCV, f"%s: {SEM}, %a: {HBM}, %b: {M}", f'"tpu.wait_indirect_dma"(%s, %a, %b) : ({SEM}, {HBM}, {M}) -> ()'),
                       (TC, f"%s: {SEM}, %a: {HBM}, %b: {M}", f'"tpu.wait_indirect_dma"(%s, %a, %b) : ({SEM}, {HBM}, {M}) -> ()')],
 "enqueue_indirect_dma": [(SCV, f"%s: {SEM}, %a: {HBM}, %b: {M}, %o: vector<8xi32>", f'"tpu.enqueue_indirect_dma"(%a, %b, %o, %s) : ({HBM}, {M}, vector<8xi32>, {SEM}) -> ()'),
                          (SCV, f"%s: {SEM}, %a: {HBM}, %b: {M}, %o: vector<4xi32>", f'"tpu.enqueue_indirect_dma"(%a, %b, %o, %s) : ({HBM}, {M}, vector<4xi32>, {SEM}) -> ()'),
                          (SCV, f"%s: {SEM}, %a: {M}, %b: {M}, %o: vector<8xi32>", f'"tpu.enqueue_indirect_dma"(%a, %b, %o, %s) : ({M}, {M}, vector<8xi32>, {SEM}) -> ()')],
 "vector_load_idx": [(SCV, f"%m: {M}, %i: vector<16xi32>", f'%r = "tpu.vector_load_idx"(%m, %i, %i) <{{operandSegmentSizes = array<i32: 1, 2, 0>}}> : ({M}, vector<16xi32>, vector<16xi32>) -> vector<16xf32>'),
                     (SCV, f"%m: {M}, %i: vector<16xi32>", f'%r = "tpu.vector_load_idx"(%m, %i) <{{operandSegmentSizes = array<i32: 1, 1, 0>}}> : ({M}, vector<16xi32>) -> vector<16xf32>'),
                     (TC, f"%m: {M}, %i: vector<8x128xi32>", f'%r = "tpu.vector_load_idx"(%m, %i, %i) <{{operandSegmentSizes = array<i32: 1, 2, 0>}}> : ({M}, vector<8x128xi32>, vector<8x128xi32>) -> vector<8x128xf32>')],
 "vector_store_idx": [(SCV, f"%m: {M}, %i: vector<16xi32>, %v: vector<16xf32>", f'"tpu.vector_store_idx"(%v, %m, %i, %i) <{{operandSegmentSizes = array<i32: 1, 1, 2, 0>}}> : (vector<16xf32>, {M}, vector<16xi32>, vector<16xi32>) -> ()'),
                      (SCV, f"%m: {M}, %i: vector<16xi32>, %v: vector<16xf32>", f'"tpu.vector_store_idx"(%v, %m, %i) <{{operandSegmentSizes = array<i32: 1, 1, 1, 0>}}> : (vector<16xf32>, {M}, vector<16xi32>) -> ()'),
                      (TC, f"%m: {M}, %i: vector<8x128xi32>, %v: vector<8x128xf32>", f'"tpu.vector_store_idx"(%v, %m, %i, %i) <{{operandSegmentSizes = array<i32: 1, 1, 2, 0>}}> : (vector<8x128xf32>, {M}, vector<8x128xi32>, vector<8x128xi32>) -> ()')],
 "shuffled_store": [(TC, f"%m: {M}, %i: index, %v: vector<8x128xf32>", f'"tpu.shuffled_store"(%v, %m, %i, %i) <{{sublane_mask = array<i1: true, true, true, true, true, true, true, true>, sublane_offsets = array<i32: 0, 1, 2, 3, 4, 5, 6, 7>}}> : (vector<8x128xf32>, {M}, index, index) -> ()'),
                    (TC, f"%m: {M}, %i: index, %v: vector<8x128xf32>", f'"tpu.shuffled_store"(%v, %m, %i) <{{sublane_mask = array<i1: true, true, true, true, true, true, true, true>, sublane_offsets = array<i32: 0, 1, 2, 3, 4, 5, 6, 7>}}> : (vector<8x128xf32>, {M}, index) -> ()')],
 "vector_compress_store": [(SCV, f"%m: {M}, %i: index, %v: vector<8x128xf32>, %k: vector<8x128xi1>", f'"tpu.vector_compress_store"(%v, %m, %i, %i, %k) <{{compress_dim = 1 : i32}}> : (vector<8x128xf32>, {M}, index, index, vector<8x128xi1>) -> ()'),
                           (SCV, f"%m: {M}, %i: index, %v: vector<8x128xf32>, %k: vector<8x128xi1>", f'"tpu.vector_compress_store"(%v, %m, %i, %i, %k) <{{compress_dim = 2 : i32}}> : (vector<8x128xf32>, {M}, index, index, vector<8x128xi1>) -> ()')],
 "vector_expand_load": [(SCV, f"%m: {M}, %i: index, %k: vector<8x128xi1>", f'%r = "tpu.vector_expand_load"(%m, %i, %i, %k) <{{expand_dim = 1 : i32}}> : ({M}, index, index, vector<8x128xi1>) -> vector<8x128xf32>'),
                        (SCV, f"%m: {M}, %i: index, %k: vector<8x128xi1>", f'%r = "tpu.vector_expand_load"(%m, %i, %i, %k) <{{expand_dim = 2 : i32}}> : ({M}, index, index, vector<8x128xi1>) -> vector<8x128xf32>')],
 "compress_store_vreg": [(SCV, f"%m: memref<128xf32, {V}>, %i: index, %v: vector<16xf32>, %k: vector<16xi1>", f'"tpu.compress_store_vreg"(%v, %m, %i, %k) : (vector<16xf32>, memref<128xf32, {V}>, index, vector<16xi1>) -> ()'),
                         (SCV, f"%m: memref<128xf32, {V}>, %i: index, %v: vector<16xf32>, %k: vector<8xi1>", f'"tpu.compress_store_vreg"(%v, %m, %i, %k) : (vector<16xf32>, memref<128xf32, {V}>, index, vector<8xi1>) -> ()'),
                         (SCV, f"%m: memref<128xf32, {V}>, %i: index, %v: vector<16xf32>, %k: vector<16xi1>", f'"tpu.compress_store_vreg"(%v, %m, %i, %i, %k) : (vector<16xf32>, memref<128xf32, {V}>, index, index, vector<16xi1>) -> ()')],
 "expand_load_vreg": [(SCV, f"%m: memref<128xf32, {V}>, %i: index, %k: vector<16xi1>", f'%r = "tpu.expand_load_vreg"(%m, %i, %k) : (memref<128xf32, {V}>, index, vector<16xi1>) -> vector<16xf32>'),
                      (SCV, f"%m: memref<128xf32, {V}>, %i: index, %k: vector<8xi1>", f'%r = "tpu.expand_load_vreg"(%m, %i, %k) : (memref<128xf32, {V}>, index, vector<8xi1>) -> vector<16xf32>')],
 "pack_elementwise": [(TC, "%a: vector<8x128xf32>", '%r = "tpu.pack_elementwise"(%a, %a) <{target_type = bf16}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xi32>'),
                      (TC, "%a: vector<8x128xf32>", '%r = "tpu.pack_elementwise"(%a, %a) <{target_type = i8}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xi32>'),
                      (TC, "%a: vector<8x128xi32>", '%r = "tpu.pack_elementwise"(%a, %a, %a, %a) <{target_type = i8}> : (vector<8x128xi32>, vector<8x128xi32>, vector<8x128xi32>, vector<8x128xi32>) -> vector<8x128xi32>'),
                      (TC, "%a: vector<8x128xf32>", '%r = "tpu.pack_elementwise"(%a) <{target_type = bf16}> : (vector<8x128xf32>) -> vector<8x128xi32>')],
 "unpack_elementwise": [(TC, "%a: vector<8x128xi32>", '%r = "tpu.unpack_elementwise"(%a) <{source_type = bf16, index = 0 : i32}> : (vector<8x128xi32>) -> vector<8x128xf32>'),
                        (TC, "%a: vector<8x128xi32>", '%r = "tpu.unpack_elementwise"(%a) <{source_type = bf16, index = 2 : i32}> : (vector<8x128xi32>) -> vector<8x128xf32>'),
                        (TC, "%a: vector<8x128xi32>", '%r = "tpu.unpack_elementwise"(%a) <{source_type = i8, index = 0 : i32}> : (vector<8x128xi32>) -> vector<8x128xf32>')],
 "pack_subelements": [(TC, "%a: vector<8x128xf32>", '%r = "tpu.pack_subelements"(%a, %a) <{positions = array<i32: 0, 1>, pack_format = #tpu.pack_format<compressed>}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x256xbf16>'),
  (TC, "%a: vector<8x128xf32>", '%r = "tpu.pack_subelements"(%a, %a) <{positions = array<i32: 0, 1>, pack_format = #tpu.pack_format<interleaved>}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xbf16>'),
  (TC, "%a: vector<8x128xi32>", '%r = "tpu.pack_subelements"(%a, %a) <{positions = array<i32: 0, 1>, pack_format = #tpu.pack_format<compressed>}> : (vector<8x128xi32>, vector<8x128xi32>) -> vector<8x256xi16>'),(TC, "%a: vector<8x128xf32>", '%r = "tpu.pack_subelements"(%a, %a) <{positions = array<i32: 0, 1>, pack_format = #tpu.pack_format<compressed>}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<16x128xbf16>'),
                      (TC, "%a: vector<8x128xf32>", '%r = "tpu.pack_subelements"(%a, %a) <{positions = array<i32: 0>, pack_format = #tpu.pack_format<compressed>}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<16x128xbf16>'),
                      (TC, "%a: vector<8x128xf32>", '%r = "tpu.pack_subelements"(%a, %a) <{positions = array<i32: 0, 1>, pack_format = #tpu.pack_format<compressed>}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xbf16>')],
 "pack_vmsk": [(TC, "%a: vector<8x128xi1>", '%r = "tpu.pack_vmsk"(%a, %a) <{positions = array<i32: 0, 1>}> : (vector<8x128xi1>, vector<8x128xi1>) -> vector<8x256xi1>'),
 (TC, "%a: vector<8x128xi1>", '%r = "tpu.pack_vmsk"(%a, %a) <{positions = array<i32: 0, 1>}> : (vector<8x128xi1>, vector<8x128xi1>) -> vector<8x128x2xi1>'),(TC, "%a: vector<8x128xi1>", '%r = "tpu.pack_vmsk"(%a, %a) <{positions = array<i32: 0, 1>}> : (vector<8x128xi1>, vector<8x128xi1>) -> vector<16x128xi1>'),
               (TC, "%a: vector<8x128xi1>", '%r = "tpu.pack_vmsk"(%a, %a) <{positions = array<i32: 0>}> : (vector<8x128xi1>, vector<8x128xi1>) -> vector<16x128xi1>')],
 "stochastic_convert_elementwise": [(TC, "%a: vector<8x128xf32>, %b: vector<8x128xi32>", '%r = "tpu.stochastic_convert_elementwise"(%a, %b) <{dst_type = bf16}> : (vector<8x128xf32>, vector<8x128xi32>) -> vector<8x128xi32>'),(TC, "%a: vector<8x128xf32>, %b: vector<8x128xi32>", '%r = "tpu.stochastic_convert_elementwise"(%a, %b) <{dst_type = bf16}> : (vector<8x128xf32>, vector<8x128xi32>) -> vector<8x128xbf16>'),
                                    (TC, "%a: vector<8x128xf32>, %b: vector<8x128xi32>", '%r = "tpu.stochastic_convert_elementwise"(%a, %b) <{dst_type = f32}> : (vector<8x128xf32>, vector<8x128xi32>) -> vector<8x128xi32>')],
 "sublane_shuffle": [(TC, "%a: vector<8x128xf32>", '%r = "tpu.sublane_shuffle"(%a, %a) <{pattern = array<i32: 0, 1, 2, 3, 4, 5, 6, 7>}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xf32>'),
                     (TC, "%a: vector<8x128xf32>", '%r = "tpu.sublane_shuffle"(%a, %a) <{pattern = array<i32: 0, 1>}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xf32>'),
                     (TC, "%a: vector<8x128xf32>", '%r = "tpu.sublane_shuffle"(%a, %a) <{pattern = array<i32: 0, 1, 2, 3, 4, 5, 6, 99>}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xf32>')],
 "conv": [(TC, "%a: vector<8x16x128xf32>, %b: vector<3x128x128xf32>, %c: vector<8x14x128xf32>", '%r = "tpu.conv"(%a, %b, %c) <{dimension_numbers = #tpu.conv_dimension_numbers<0, 2, [1], 1, 2, [0], 0, 2, [1]>, window_strides = array<i64: 1>, padding = array<i64: 0, 0>, lhs_dilation = array<i64: 1>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>}> : (vector<8x16x128xf32>, vector<3x128x128xf32>, vector<8x14x128xf32>) -> vector<8x14x128xf32>'),
          (TC, "%a: vector<8x128xf32>", '%r = "tpu.conv"(%a, %a, %a) <{dimension_numbers = #tpu.conv_dimension_numbers<0, 1, [], 0, 1, [], 0, 1, []>, window_strides = array<i64>, padding = array<i64>, lhs_dilation = array<i64>, rhs_dilation = array<i64>, window_reversal = array<i1>}> : (vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xf32>')],
}


def _indirect(src, dst, off):
    return (SCV, f"%s: {SEM}, %a: {src}, %b: {dst}, %o: {off}",
            f'"tpu.enqueue_indirect_dma"(%a, %b, %o, %s) : ({src}, {dst}, {off}, {SEM}) -> ()')


def _fetch_add(base, nidx):
    idx = ", ".join(["%i"] * nidx)
    return (SCV, f"%m: {base}, %i: i32",
            f'%r = "tpu.fetch_and_add_sync"(%m, {idx}, %i, %i) : ({base}, {", ".join(["i32"] * nidx)}, i32, i32) -> i32')


def _more_fixtures():
    """Further probes of the verifiers ported from jaxlib's behaviour (each message and each accepted corner)."""
    more = {
        "enqueue_indirect_dma": [
            _indirect(M, HBM, "vector<8xi32>"),
            _indirect(HBM, M, "memref<8xi32, #tpu.memory_space<vmem>>"),
            _indirect(HBM, M, "memref<8xi32, #tpu.memory_space<smem>>"),
            _indirect("memref<64x128xf32, #tpu.memory_space<vmem_shared>>", M, "vector<8xi32>"),
            _indirect("memref<64x128xf32, #tpu.memory_space<vmem, tc>>", M, "vector<8xi32>"),
            _indirect(HBM, f"memref<8x128xbf16, {V}>", "vector<8xi32>"),
            _indirect(HBM, f"memref<8x64xf32, {V}>", "vector<8xi32>"),
            _indirect(HBM, "memref<8x128xf32, #tpu.memory_space<hbm>>", "vector<8xi32>"),
        ],
        "fetch_and_add_sync": [_fetch_add(M32, 3), _fetch_add("memref<8x128xi32, #tpu.memory_space<hbm>>", 2),
                               _fetch_add("memref<8x128xi32, #tpu.memory_space<smem>>", 2)],
        "stochastic_convert_elementwise": [
            (TC, "%a: vector<8x128xf32>, %b: vector<8x128xi32>",
             f'%r = "tpu.stochastic_convert_elementwise"(%a, %b) <{{dst_type = {t}}}> : '
             '(vector<8x128xf32>, vector<8x128xi32>) -> vector<8x128xi32>')
            for t in ["f16", "f8E4M3FN", "f8E5M2", "i8", "i32"]],
        "sublane_shuffle": [
            (TC, f"%a: vector<{s}xf32>", f'%r = "tpu.sublane_shuffle"(%a, %a) <{{pattern = array<i32: {p}>}}> : '
             f'(vector<{s}xf32>, vector<{s}xf32>) -> vector<{s}xf32>')
            for s, p in [("8x128", "0, 1, 2, 3, 4, 5, 6, -1"), ("4x128", "0, 1, 2, 3"), ("4x128", "0, 1, 2, 8"),
                         ("128", "0"), ("2x8x128", "15, 14, 13, 12, 11, 10, 9, 8")]],
        "mask_cast": [
            (TC, f"%a: vector<{a}xi1>", f'%r = "tpu.mask_cast"(%a) : (vector<{a}xi1>) -> vector<{b}xi1>')
            for a, b in [("8x128", "8x64"), ("128", "64"), ("128", "4x128"), ("2x8x128", "2x8x128x2"),
                         ("2x8x128", "2x16x64")]],
        "reinterpret_cast": [
            (TC, f"%m: {M}", f'%r = "tpu.reinterpret_cast"(%m) <{{operandSegmentSizes = array<i32: 1, 0, 0, 0>}}> : '
             f'({M}) -> {r}')
            for r in ["memref<8x128xf32>", f"memref<4xf32, {V}>", "memref<8x128xf32, #tpu.memory_space<vmem, tc>>"]
        ] + [
            (TC, "%m: memref<8x128xf32>", f'%r = "tpu.reinterpret_cast"(%m) <{{operandSegmentSizes = array<i32: 1, 0, 0, 0>}}> : '
             f'(memref<8x128xf32>) -> {M}'),
            (TC, f"%m: {M}, %i: i32", f'%r = "tpu.reinterpret_cast"(%m, %i) <{{operandSegmentSizes = array<i32: 1, 0, 1, 0>}}> : '
             f'({M}, i32) -> memref<?x128xf32, {V}>'),
            (TC, f"%m: {M}, %i: i32", f'%r = "tpu.reinterpret_cast"(%m, %i) <{{operandSegmentSizes = array<i32: 1, 1, 0, 0>}}> : '
             f'({M}, i32) -> {M}'),
        ],
        "conv": [
            (TC, "%a: vector<8x128xf32>", '%r = "tpu.conv"(%a, %a, %a) <{dimension_numbers = '
             '#tpu.conv_dimension_numbers<0, 1, [2], 0, 1, [2], 0, 1, [2]>, window_strides = array<i64: 1>, '
             'padding = array<i64: 0, 0>, lhs_dilation = array<i64: 1>, rhs_dilation = array<i64: 1>, '
             'window_reversal = array<i1: false>}> : (vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>) '
             '-> vector<8x128xf32>'),
        ],
        "pack_elementwise": [
            (TC, "%a: vector<8x128xi32>", '%r = "tpu.pack_elementwise"(%a, %a) <{target_type = bf16}> : '
             '(vector<8x128xi32>, vector<8x128xi32>) -> vector<8x128xi32>'),
            (TC, "%a: vector<8x128xi32>", '%r = "tpu.pack_elementwise"(%a, %a) <{target_type = i16}> : '
             '(vector<8x128xi32>, vector<8x128xi32>) -> vector<8x128xi32>'),
        ],
        "unpack_elementwise": [
            (TC, "%a: vector<8x128xi32>", '%r = "tpu.unpack_elementwise"(%a) <{source_type = i8, index = 3 : i32}> : '
             '(vector<8x128xi32>) -> vector<8x128xi32>'),
            (TC, "%a: vector<8x128xi32>", '%r = "tpu.unpack_elementwise"(%a) <{source_type = i8, index = 4 : i32}> : '
             '(vector<8x128xi32>) -> vector<8x128xi32>'),
        ],
        "dynamic_gather": [
            (TC, "%a: vector<8x128xf32>, %i: vector<8x128xi32>",
             f'%r = "tpu.dynamic_gather"(%a, %i) <{{dimensions = array<i32: {d}>}}> : '
             '(vector<8x128xf32>, vector<8x128xi32>) -> vector<8x128xf32>')
            for d in ["0", "0, 1", "0, 0", "5", "-1"]],
        "annotate": [
            (TC, f"%m: {M}", f'%r = "tpu.annotate"(%m) <{{no_store = {a}, no_hazard = {b}}}> : ({M}) -> {M}')
            for a, b in [("false", "false"), ("true", "false"), ("true", "true")]] + [
            (TC, f"%m: {t}", f'%r = "tpu.annotate"(%m) <{{{f} = true}}> : ({t}) -> {t}')
            for t in [HBM, "memref<8x128xf32>", "memref<8x128xf32, #tpu.memory_space<vmem, tc>>"]
            for f in ["no_store", "no_hazard"]],
        "assume_multiple": [
            (TC, "%a: i32", f'%r = "tpu.assume_multiple"(%a) <{{multiple = {m} : i32}}> : (i32) -> i32')
            for m in [8, 1, 0]],
        "memref_memory_space_is": [
            (TC, f"%m: {M}", f'%r = "tpu.memref_memory_space_is"(%m) <{{memory_space = #tpu.memory_space<{s}>}}> : '
             f'({M}) -> i1')
            for s in ["vmem", "smem", "any"]],
        "reciprocal": [
            (TC, f"%a: vector<8x128x{e}>", f'%r = "tpu.reciprocal"(%a) <{{approx = false}}> : (vector<8x128x{e}>) -> '
             f'vector<8x128x{e}>')
            for e in ["f32", "bf16", "i32", "f16"]],
        "sem_wait": [
            (TC, f"%s: memref<{s}!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, %n: i32",
             f'"tpu.sem_wait"(%s, %n) : (memref<{s}!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, i32) -> ()')
            for s in ["", "2x"]],
        "sort": [
            (SCV, "%k: vector<16xf32>, %v: vector<16xi32>, %m: vector<16xi1>",
             f'%r:3 = "tpu.sort"(%k, %v, %m) <{{descending = false}}> : (vector<16xf32>, vector<16xi32>, vector<16xi1>) -> '
             f'(vector<16xi1>, {sk}, vector<16xi32>)')
            for sk in ["vector<16xf32>", "vector<16xi32>"]],
        "wait_dma2": [
            (TC, f"%s: memref<{s}!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %a: {HBM}, %b: {M}",
             f'"tpu.wait_dma2"(%s, %a, %b) <{{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}}> : '
             f'(memref<{s}!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, {HBM}, {M}) -> ()')
            for s in ["", "2x"]],
        "memref_bitcast": [
            (TC, f"%m: {M}", f'%r = "tpu.memref_bitcast"(%m) : ({M}) -> memref<16x128xbf16, {V}>'),
            (TC, f"%m: {M}", f'%r = "tpu.memref_bitcast"(%m) : ({M}) -> memref<8x128xi32, {V}>'),
            (TC, f"%m: {M}", f'%r = "tpu.memref_bitcast"(%m) : ({M}) -> memref<8x128xbf16, {V}>'),
        ],
        "log_buffer": [(TC, f"%m: {M}", f'"tpu.log_buffer"(%m) <{{shape = array<i64: 1, 8, 128>, tag = "x"}}> : ({M}) -> ()')],
    }
    for op, ks in more.items():
        FIXTURES[op] = FIXTURES.get(op, []) + ks


_more_fixtures()


def _tiled(shape, tiling, elem="f32"):
    return f"memref<{shape}x{elem}, #tpu.tiled<{tiling}>, {V}>"


def _slice(src, dst, n=2):
    idx = ", ".join(["%i"] * n)
    return (TC, f"%m: {src}, %i: i32", f'%r = "tpu.memref_slice"(%m, {idx}) <{{operandSegmentSizes = array<i32: 1, {n}, 0>}}> : '
            f'({src}, {", ".join(["i32"] * n)}) -> {dst}')


def _squeeze(src, dst):
    return (TC, f"%m: {src}", f'%r = "tpu.memref_squeeze"(%m) : ({src}) -> {dst}')


def _bitcast(src, dst):
    return (TC, f"%m: {src}", f'%r = "tpu.memref_bitcast"(%m) : ({src}) -> {dst}')


def _reshape(src, dst):
    return (TC, f"%m: {src}", f'%r = "tpu.memref_reshape"(%m) : ({src}) -> {dst}')


T8 = _tiled("16x128", "(8,128),[1,1]")
# Memrefs with Mosaic's tiled layout (#tpu.tiled<...>), which the ops' verifiers look at. Kept apart from
# FIXTURES (an op listed there takes no corpus kernels) and appended at the end of the file.
TILED_FIXTURES = {
    "memref_slice": [
        _slice(T8, _tiled("8x128", "(8,128),[1,1]")),
        _slice(T8, _tiled("8x128", "(1,128),[2,1]")),  # only whether each side is tiled is compared
        _slice(T8, f"memref<8x128xf32, {V}>"),
        _slice(f"memref<16x128xf32, {V}>", _tiled("8x128", "(8,128),[1,1]")),
        _slice(f"memref<16x128xf32, strided<[128, 1]>, {V}>", _tiled("8x128", "(8,128),[1,1]")),
        _slice(f"memref<16x128xf32, strided<[128, 1]>, {V}>", f"memref<8x128xf32, {V}>"),
        _slice(_tiled("256", "(8,128),[1]"), _tiled("128", "(8,128),[1]"), 1),  # tiling of higher rank
        _slice(_tiled("256", "(128),[1]"), _tiled("128", "(128),[1]"), 1),
        _slice(_tiled("256", ",[1]"), _tiled("128", ",[1]"), 1),
    ],
    "memref_squeeze": [
        _squeeze(_tiled("1x8x128", "(8,128),[1,1,1]"), _tiled("8x128", "(8,128),[1,1]")),
        _squeeze(_tiled("1x8x128", "(8,128),[1,1,1]"), f"memref<8x128xf32, {V}>"),
        _squeeze(f"memref<1x8x128xf32, {V}>", _tiled("8x128", "(8,128),[1,1]")),
        _squeeze(_tiled("8x1x128", "(8,128),[1,1,1]"), _tiled("8x128", "(8,128),[1,1]")),
        _squeeze(_tiled("8x1x128", "(1,128),[1,1,1]"), _tiled("8x128", "(1,128),[1,1]")),
        _squeeze(_tiled("8x1x128", "(8,128)(2,1),[1,1,1]"), _tiled("8x128", "(8,128)(2,1),[1,1]")),
        _squeeze(_tiled("1x8x128", "(8,128)(2,1),[1,1,1]"), _tiled("8x128", "(8,128)(2,1),[1,1]")),
        _squeeze(_tiled("1x1x128", "(1,128),[1,1,1]"), _tiled("1x128", "(1,128),[1,1]")),
        _squeeze(_tiled("1x8x128", ",[1,1,1]"), _tiled("8x128", ",[1,1]")),
    ],
    "erase_memref_layout": [
        (TC, f"%m: {T8}", f'%r = "tpu.erase_memref_layout"(%m) : ({T8}) -> memref<16x128xf32, {V}>'),
        (TC, f"%m: {T8}", f'%r = "tpu.erase_memref_layout"(%m) : ({T8}) -> {T8}'),
    ],
    "reinterpret_cast": [
        (TC, f"%m: {T8}", f'%r = "tpu.reinterpret_cast"(%m) <{{operandSegmentSizes = array<i32: 1, 0, 0, 0>}}> : '
         f'({T8}) -> {_tiled("16x128", "(1,128),[1,1]")}'),
    ],
    # The result type jaxlib infers from a tiled (or untiled) source: a scaled second-minor tile, packing tiles.
    "memref_bitcast": [
        (TC, f"%m: memref<16x128xf32, {V}>", f'%r = "tpu.memref_bitcast"(%m) : (memref<16x128xf32, {V}>) -> '
         f'{_tiled("32x128", "(16,128)(2,1),[1,1]", "bf16")}'),
        _bitcast(T8, _tiled("32x128", "(16,128)(2,1),[1,1]", "bf16")),
        _bitcast(_tiled("32x128", "(16,128)(2,1),[1,1]", "bf16"), T8),
        _bitcast(T8, _tiled("16x128", "(8,128),[1,1]", "i32")),
        _bitcast(T8, _tiled("64x128", "(32,128)(4,1),[1,1]", "i8")),
        _bitcast(_tiled("64x128", "(32,128)(4,1),[1,1]", "i8"), _tiled("32x128", "(16,128)(2,1),[1,1]", "bf16")),
        _bitcast(_tiled("16x128", "(8,128),[1,1]", "i32"), _tiled("32x128", "(16,128)(2,1),[1,1]", "i16")),
        _bitcast(_tiled("16x128", "(8,128)(2,1),[1,1]"), _tiled("16x128", "(8,128)(2,1),[1,1]", "i32")),
        _bitcast(_tiled("16x128", "(8,128)(2,1),[1,1]"), _tiled("32x128", "(16,128)(4,1),[1,1]", "bf16")),
        _bitcast(_tiled("16x128", "(8,128)(1,1),[1,1]"), _tiled("32x128", "(16,128)(2,1),[1,1]", "bf16")),
        _bitcast(_tiled("16x128", "(1,128),[1,1]"), _tiled("32x128", "(2,128)(2,1),[1,1]", "bf16")),
        _bitcast(_tiled("16x128", "(128),[1,1]"), _tiled("64x128", "(4,128)(4,1),[1,1]", "i8")),
        _bitcast(_tiled("16x128", ",[1,1]"), _tiled("32x128", "(2,1),[1,1]", "bf16")),
        _bitcast(_tiled("16x128", "(8,128),[2,1]"), _tiled("32x128", "(16,128)(2,1),[2,1]", "bf16")),
        _bitcast(_tiled("64x128", "(32,128)(2,1),[1,1]", "i8"), _tiled("32x128", "(16,128),[1,1]", "bf16")),
        _bitcast(_tiled("2x16x128", "(8,128),[2,1,1]"), _tiled("2x32x128", "(16,128)(2,1),[2,1,1]", "bf16")),
        _bitcast(_tiled("?x16x128", "(8,128),[2,1,1]"), _tiled("?x32x128", "(16,128)(2,1),[2,1,1]", "bf16")),
        _bitcast(_tiled("128", "(128),[1]"), _tiled("128", "(128),[1]", "i32")),
        _bitcast(_tiled("3x128", "(8,128),[1,1]"), _tiled("6x128", "(16,128)(2,1),[1,1]", "bf16")),
        # refused
        _bitcast(T8, _tiled("32x128", "(8,128),[1,1]", "bf16")),
        _bitcast(T8, f"memref<32x128xbf16, {V}>"),
        _bitcast(T8, "memref<32x128xbf16, #tpu.tiled<(16,128)(2,1),[1,1]>, #tpu.memory_space<smem>>"),
        _bitcast(_tiled("16x128", "(8,128)(2,1),[1,1]"), _tiled("32x128", "(16,128)(2,1),[1,1]", "bf16")),
        _bitcast(_tiled("128", "(128),[1]"), _tiled("256", "(256),[1]", "bf16")),
        _bitcast(_tiled("?x128", "(8,128),[1,1]"), _tiled("?x128", "(16,128)(2,1),[1,1]", "bf16")),
        _bitcast(_tiled("3x128", "(16,128)(2,1),[1,1]", "bf16"), _tiled("1x128", "(8,128),[1,1]")),
        _bitcast(_tiled("32x128", "(16,128),[1,1]", "bf16"), _tiled("16x128", "(8,128),[1,1]")),
        _bitcast(T8, _tiled("8x128", "(4,128),[1,1]", "f64")),
        _bitcast(_tiled("16x128", "(8,128)(2,1,1),[1,1]"), _tiled("32x128", "(16,128)(2,1),[1,1]", "bf16")),
        _bitcast(_tiled("32x128", "(128)(2,1),[1,1]", "bf16"), _tiled("16x128", "(8,128),[1,1]")),
        _bitcast(f"memref<16x128xf32, strided<[128, 1]>, {V}>", f"memref<32x128xbf16, {V}>"),
        _bitcast(f"memref<16x128xf32, strided<[128, 1]>, {V}>", f"memref<16x128xi32, strided<[128, 1]>, {V}>"),
        _bitcast(f"memref<128xf32, {V}>", f"memref<256xbf16, {V}>"),
        _bitcast(f"memref<?x128xf32, {V}>", f"memref<?x128xbf16, {V}>"),
        _bitcast(f"memref<3x128xbf16, {V}>", f"memref<1x128xf32, {V}>"),
    ],
    # The result layout jaxlib infers: tiled dimensions unchanged (the tiling kept, contiguous strides), identity.
    "memref_reshape": [
        _reshape(_tiled("2x3x16x128", "(8,128),[6,2,1,1]"), _tiled("6x16x128", "(8,128),[2,1,1]")),
        _reshape(T8, _tiled("1x16x128", "(8,128),[2,1,1]")),
        _reshape(_tiled("2x1x16x128", "(8,128),[2,7,1,1]"), _tiled("2x16x128", "(8,128),[2,1,1]")),
        _reshape(_tiled("2x3x16x256", "(8,128)(2,1),[12,4,2,1]", "bf16"),
                 _tiled("6x16x256", "(8,128)(2,1),[4,2,1]", "bf16")),
        _reshape(_tiled("2x3x12x200", "(8,128),[12,4,2,1]"), _tiled("6x12x200", "(8,128),[4,2,1]")),
        _reshape(_tiled("?x16x128", "(8,128),[2,1,1]"), _tiled("?x16x128", "(8,128),[2,1,1]")),
        _reshape(_tiled("2x8x128", ",[1024,128,1]"), _tiled("16x128", ",[128,1]")),
        _reshape(f"memref<?x128xf32, {V}>", f"memref<?x8x16xf32, {V}>"),
        _reshape(f"memref<8xf32, {V}>", f"memref<2x4xf32, {V}>"),
        # refused
        _reshape(_tiled("2x3x16x128", "(8,128),[6,2,1,1]"), _tiled("6x16x128", "(8,128),[1,1,1]")),
        _reshape(T8, _tiled("16x128", "(1,128),[1,1]")),
        _reshape(T8, f"memref<1x16x128xf32, {V}>"),
        _reshape(_tiled("2x8x128", "(8,128),[2,1,1]"), _tiled("16x128", "(8,128),[1,1]")),
        _reshape(_tiled("2x1x16x128", "(8,128),[5,7,1,1]"), _tiled("2x16x128", "(8,128),[2,1,1]")),
        _reshape(_tiled("16x128", ",[1,1]"), _tiled("2x8x128", ",[1024,128,1]")),
        _reshape(f"memref<16x128xf32, {V}>", _tiled("2x8x128", "(8,128),[2,1,1]")),
        _reshape(f"memref<16x128xf32, strided<[128, 1]>, {V}>", f"memref<2x8x128xf32, {V}>"),
        _reshape(T8, "memref<16x128xf32, #tpu.tiled<(8,128),[1,1]>, #tpu.memory_space<smem>>"),
        _reshape(T8, _tiled("16x128", "(8,128),[1,1]", "i32")),
        _reshape(T8, _tiled("8x128", "(8,128),[1,1]")),
        _reshape(T8, _tiled("?x128", "(8,128),[1,1]")),
        _reshape(_tiled("?x128", "(8,128),[1,1]"), _tiled("?x?", "(8,128),[1,1]")),
        _reshape(_tiled("?x128", "(8,128),[1,1]"), _tiled("?x8x128", "(8,128),[1,1,1]")),
        _reshape(f"memref<?x?x128xf32, {V}>", f"memref<?x128xf32, {V}>"),
        # Tiled dimensions that change: folding/unfolding the first one by whole tiles keeps the tiling; a
        # single-tile layout is re-tiled (the tile found walking both shapes); the rest is refused. jaxlib divides
        # by zero (`0x128` -> `0x256`) or loops forever (`2x4` `(128)` -> `4x2`) on some shapes: not listed.
        _reshape(_tiled("2x8x128", "(8,128),[1,1,1]"), T8),
        _reshape(T8, _tiled("2x8x128", "(8,128),[1,1,1]")),
        _reshape(_tiled("4x16x128", "(8,128),[2,1,1]"), _tiled("64x128", "(8,128),[1,1]")),
        _reshape(_tiled("24x128", "(8,128),[1,1]"), _tiled("3x8x128", "(8,128),[1,1,1]")),
        _reshape(_tiled("2x8x128", "(1,128),[8,1,1]"), _tiled("16x128", "(1,128),[1,1]")),
        _reshape(_tiled("2x16x128", "(16,128)(2,1),[1,1,1]", "bf16"), _tiled("32x128", "(16,128)(2,1),[1,1]", "bf16")),
        _reshape(T8, _tiled("1x1x16x128", "(8,128),[2,2,1,1]")),
        _reshape(T8, _tiled("8x256", "(4,256),[1,1]")),
        _reshape(_tiled("2048", "(1024),[1]"), T8),
        _reshape(_tiled("2048", "(1024),[1]"), _tiled("4x4x128", "(2,4,128),[1,1,1]")),
        _reshape(_tiled("4x4x128", "(2,4,128),[1,1,1]"), _tiled("2048", "(1024),[1]")),
        _reshape(_tiled("8x128", "(8,128),[1,1]"), _tiled("1024", "(1024),[1]")),
        _reshape(_tiled("8x128", "(8,128),[1,1]"), _tiled("8x1x128", "(8,1,128),[1,1,1]")),
        _reshape(_tiled("8x128", "(8,128),[1,1]"), _tiled("2x4x128", "(2,4,128),[1,1,1]")),
        _reshape(_tiled("8x256", "(8,128),[2,1]"), _tiled("8x2x128", "(8,1,128),[2,1,1]")),
        _reshape(_tiled("2x8x128", "(8,128),[1,1,1]"), _tiled("2x4x256", "(4,256),[1,1,1]")),
        _reshape(T8, _tiled("2048x1", "(1024,1),[1,1]")),
        _reshape(_tiled("16x128", "(16,128),[1,1]", "bf16"), _tiled("8x256", "(8,256),[1,1]", "bf16")),
        _reshape(_tiled("16x128", "(16,128),[1,1]", "bf16"), _tiled("2048", "(2048),[1]", "bf16")),
        _reshape(_tiled("2x12x128", "(8,128),[2,1,1]"), _tiled("2x12x2x64", "(8,2,64),[2,1,1,1]")),
        _reshape(_tiled("2x12x128", "(8,128),[2,1,1]"), _tiled("2x1x12x128", "(8,128),[2,2,1,1]")),
        _reshape(_tiled("3x8x128", "(1,1),[1024,128,1]"), _tiled("24x128", ",[128,1]")),
        _reshape(_tiled("3x8x128", "(1,1,1),[1024,128,1]"), _tiled("24x128", "(),[128,1]")),
        _reshape(_tiled("?x8x128", "(8,128),[1,1,1]"), _tiled("?x1024", "(1024),[1,1]")),
        _reshape(_tiled("?x1024", "(1024),[1,1]"), _tiled("?x8x128", "(8,128),[1,1,1]")),
        _reshape(_tiled("?x16x128", "(8,128),[2,1,1]"), _tiled("?x2048", "(1024),[2,1]")),
        _reshape(_tiled("?x256", "(8,128),[2,1]"), _tiled("?x2x128", "(8,1,128),[2,1,1]")),
        _reshape(_tiled("1x?x128", "(8,128),[5,1,1]"), _tiled("1x1x?x128", "(8,128),[?,?,1,1]")),
        # refused
        _reshape(_tiled("12x128", "(8,128),[1,1]"), _tiled("3x4x128", "(8,128),[1,1,1]")),
        _reshape(_tiled("2x12x128", "(8,128),[2,1,1]"), _tiled("24x128", "(8,128),[1,1]")),
        _reshape(_tiled("8x256", "(8,128),[2,1]"), _tiled("2048", "(1024),[1]")),
        _reshape(_tiled("16x128", "(16,128)(2,1),[1,1]", "bf16"), _tiled("8x256", "(8,256)(2,1),[1,1]", "bf16")),
        _reshape(_tiled("32x128", "(16,128)(2,1),[1,1]", "bf16"), _tiled("2x2048", "(2048)(2,1),[1,1]", "bf16")),
        _reshape(_tiled("?x128", "(8,128),[1,1]"), _tiled("128x?", "(8,128),[1,1]")),
        _reshape(_tiled("?x4x128", "(8,128),[1,1,1]"), _tiled("?x512", "(512),[1,1]")),
        _reshape(_tiled("4x4x128", "(2,4,128),[2,1,1]"), _tiled("2048", "(1024),[1]")),
        _reshape(_tiled("2x8x128", "(8,128),[8,1,1]"), T8),
        _reshape(T8, _tiled("8x256", "(8,128),[2,1]")),
        _reshape(T8, f"memref<8x256xf32, {V}>"),
        _reshape(_tiled("2048", "(1024),[1]"), _tiled("4x4x128", "(2,4,128),[2,1,1]")),
        _reshape(_tiled("2048", "(1024),[1]"), _tiled("16x128", "(8,128),[2,1]")),
        _reshape(_tiled("2x8x128", "(8,128),[1,1,1]"), _tiled("16x128", "(16,128),[1,1]")),
        _reshape(_tiled("8x128", "(8,128),[1,1]"), _tiled("8x1x128", "(8,128),[1,1,1]")),
        _reshape(_tiled("3x8x128", "(1,1),[1024,128,1]"), _tiled("24x128", "(1,1),[128,1]")),
        _reshape(_tiled("3x8x128", "(1,1,1),[1024,128,1]"), _tiled("24x128", ",[128,1]")),
        _reshape(_tiled("1x?x128", "(8,128),[5,1,1]"), _tiled("1x1x?x128", "(8,128),[2,2,1,1]")),
        _reshape(_tiled("?x16x128", "(8,128),[2,1,1]"), _tiled("?x2048", "(8,128),[2,1]")),
        _reshape(_tiled("2x8x128", "(1,128),[8,1,1]"), _tiled("16x128", "(8,128),[1,1]")),
    ],
    "vector_load": [
        (TC, f"%m: {T8}, %c: index", f'%r = "tpu.vector_load"(%m, %c, %c) <{{operandSegmentSizes = array<i32: 1, 2, 0>, '
         f'strides = array<i32>}}> : ({T8}, index, index) -> vector<8x128xf32>'),
    ],
    "enqueue_dma": [
        (TC, f"%a: {T8}, %b: memref<16x128xf32, {V}>, %s: {SEM}",
         f'"tpu.enqueue_dma"(%a, %b, %s) <{{operandSegmentSizes = array<i32: 1, 0, 1, 1, 0, 0, 0>}}> : '
         f'({T8}, memref<16x128xf32, {V}>, {SEM}) -> ()'),
    ],
}



def _matmul(ls, rs, os, dn, extra=""):
    lt, rt, ot = f"vector<{ls}xbf16>", f"vector<{rs}xbf16>", f"vector<{os}xf32>"
    return (TC, f"%a: {lt}, %b: {rt}, %c: {ot}",
            f'%r = "tpu.matmul"(%a, %b, %c) <{{dimension_numbers = {dn}, transpose_lhs = false, '
            f'transpose_lhs_hint = false, transpose_rhs = false{extra}}}> : ({lt}, {rt}, {ot}) -> {ot}')


def _dot(ls, rs, os, lists):
    return _matmul(ls, rs, os, f"#tpu.dot_dimension_numbers<{lists}>")


def _conv(dn):
    a, b, c = "vector<8x16x128xf32>", "vector<3x128x128xf32>", "vector<8x14x128xf32>"
    return (TC, f"%a: {a}, %b: {b}, %c: {c}", f'%r = "tpu.conv"(%a, %b, %c) <{{dimension_numbers = {dn}, '
            'window_strides = array<i64: 1>, padding = array<i64: 0, 0>, lhs_dilation = array<i64: 1>, '
            f'rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>}}> : ({a}, {b}, {c}) -> {c}')


def _conv_full(l, r, a, dn, st, pad, ld, rd, rev, fgc=None, bgc=None, res=None):
    """A conv with the given shapes (`8x16x128`), dimension numbers, window attributes and group counts."""
    lt, rt, at = (f"vector<{s}xf32>" for s in (l, r, a))
    ot = f"vector<{res}xf32>" if res else at

    def arr(t, xs):
        return f"array<{t}" + (": " + ", ".join(str(x) for x in xs) if xs else "") + ">"
    extra = "".join(f", {n} = {c} : i64" for n, c in (("feature_group_count", fgc), ("batch_group_count", bgc))
                    if c is not None)
    return (TC, f"%a: {lt}, %b: {rt}, %c: {at}",
            f'%r = "tpu.conv"(%a, %b, %c) <{{dimension_numbers = #tpu.conv_dimension_numbers<{dn}>, '
            f'window_strides = {arr("i64", st)}, padding = {arr("i64", pad)}, lhs_dilation = {arr("i64", ld)}, '
            f'rhs_dilation = {arr("i64", rd)}, window_reversal = {arr("i1", rev)}{extra}}}> : ({lt}, {rt}, {at}) '
            f'-> {ot}')


def _conv1(dn="0, 2, [1], 1, 2, [0], 0, 2, [1]", l="8x16x128", r="3x128x128", a="8x14x128", st=(1,), pad=(0, 0),
           ld=(1,), rd=(1,), rev=("false",), fgc=None, bgc=None, res=None):
    return _conv_full(l, r, a, dn, st, pad, ld, rd, rev, fgc, bgc, res)


def _conv2(a="8x14x14x128", st=(1, 1), pad=(0, 0, 0, 0), ld=(1, 1), rd=(1, 1)):
    return _conv_full("8x16x16x128", "3x3x128x128", a, "0, 3, [1, 2], 2, 3, [0, 1], 0, 3, [1, 2]", st, pad, ld, rd,
                      ("false", "false"))


def _reduce(kind):
    return (TC, "%a: vector<8x128xf32>", f'%r = "tpu.reduce"(%a) <{{dimensions = array<i64: 1>, kind = {kind}}}> : '
            '(vector<8x128xf32>) -> vector<8x1xf32>')


P = "8x128", "128x256", "8x256"  # a plain lhs @ rhs
D = "[1], [0], [0], [1], [0, 0, 1, 1], [], []"
# The dimension numbers of matmul (its verifier, then the attribute's grammar), conv's grammar and the enums'
# (appended at the end of the file; matmul keeps its corpus kernels).
LATE_FIXTURES = {
    "matmul": [
        # accepted: plain, transposed rhs, batched (batch first or not), two batch dims, two contracting dims,
        # no non-contracting dims, a 1-D lhs, and the grammar's oddities (hex, true = -1 unused, spaces, comments)
        _dot(*P, D),
        _dot("8x128", "256x128", "8x256", "[1], [1], [0], [0], [0, 0, 1, 0], [], []"),
        _dot("2x8x128", "2x128x256", "2x8x256", "[2], [1], [1], [2], [0, 0, 0, 1, 1, 2], [0], [0]"),
        _dot("8x2x128", "128x256x2", "2x8x256", "[2], [0], [0], [1], [0, 1, 0, 0, 1, 1], [1], [2]"),
        _dot("2x2x8x128", "2x2x128x256", "2x2x8x256", "[3], [2], [2], [3], [0, 0, 0, 1, 0, 2, 1, 3], [0, 1], [0, 1]"),
        _dot("8x8x128", "128x8", "8x8", "[2, 1], [0, 1], [0], [], [0, 0], [], []"),
        _dot("8x128", "128", "8", "[1], [0], [0], [], [0, 0], [], []"),
        _dot("128", "128x256", "256", "[0], [0], [], [1], [1, 1], [], []"),
        _dot(*P, "[0x1], [-0], [ 0 ], [01], [0, false, 1, 1] // c\n, [ ], []"),
        _dot("8x128", "128x2x256", "8x2x256", "[1], [0], [0], [1, 2], [0, 0, 1, 1, 1, 2], [], []"),
        _dot("8x128", "128x256", "16x64", D),  # the result shape is not checked
        # refused by the verifier, in jaxlib 0.12's order
        _dot(*P, "[1, 0], [0], [], [1], [1, 1], [], []"),
        _dot("2x8x128", "128x256", "8x256", "[2], [0], [1, 0], [1], [0, 0, 1, 1], [], []"),
        _dot("8x128", "128x2x256", "8x2x256", "[1], [0], [0], [2, 1], [0, 0, 1, 1, 1, 2], [], []"),
        _dot(*P, "[1], [0], [], [], [0, 0, 1, 1], [], []"),
        _dot("2x8x128", "2x128x256", "2x8x256", "[2], [1], [1], [2], [0, 0, 0, 1, 1, 2], [0], []"),
        _dot("8x128", "64x256", "8x256", D),
        _dot(*P, "[1, 0], [0, 1], [], [], [0, 0], [], []"),
        _dot("8x128", "8x128", "8x8", "[1, 0], [0, 1], [], [], [0, 0], [], []"),
        _dot("2x8x128", "128x256", "2x8x256", "[2], [0], [1], [1], [0, 0, 0, 1, 1, 1], [0], []"),
        _dot(*P, "[1], [0], [5], [1], [0, 0, 1, 1], [], []"),
        _dot(*P, "[1], [0], [-3], [1], [0, 0, 1, 1], [], []"),
        _dot(*P, "[1], [0], [1], [1], [0, 0, 1, 1], [], []"),
        _dot(*P, "[1], [0], [0], [0], [0, 0, 1, 1], [], []"),
        _dot(*P, "[1], [0], [0], [5], [0, 0, 1, 1], [], []"),
        _dot("8x8x128", "128x256", "8x8x256", "[2], [0], [0, 0], [1], [0, 0, 0, 1, 1, 1], [], []"),
        _dot("2x8x128", "2x128x256", "2x8x256", "[2], [1], [5], [2], [0, 0, 0, 1, 1, 2], [2], [0]"),
        _dot("2x8x128", "2x128x256", "2x8x256", "[2], [1], [2], [2], [0, 0, 0, 1, 1, 2], [5], [0]"),
        _dot("2x8x128", "2x128x256", "2x8x256", "[2], [1], [1], [7], [0, 0, 0, 1, 1, 2], [1], [0]"),
        _dot("2x8x128", "2x128x256", "2x8x256", "[2], [1], [0], [2], [0, 0, 0, 1, 1, 2], [1], [-9]"),
        _dot("2x8x128", "2x128x256", "2x8x256", "[2], [1], [0], [2], [0, 0, 0, 1, 1, 2], [1], [1]"),
        _dot("2x8x128", "3x128x256", "2x8x256", "[2], [1], [1], [2], [0, 0, 0, 1, 1, 2], [0], [0]"),
        _dot("2x3x8x128", "2x4x128x256", "2x3x8x256", "[3], [2], [2], [3], [0, 0, 0, 1, 0, 2, 1, 3], [0, 1], [0, 1]"),
        _dot("2x8x128", "3x128x256", "2x8x256", "[2], [1], [1], [2], [0, 0, 0, 1, 1], [0], [0]"),
        _dot(*P, "[1], [0], [0], [1], [0, 0, 1], [], []"),
        _dot(*P, "[1], [0], [0], [1], [1, 1, 0, 0], [], []"),
        _dot(*P, "[1], [0], [0], [1], [0, 0, 1, 1, 0, 0], [], []"),
        _dot("2x8x128", "2x128x256", "2x8x256", "[2], [1], [1], [2], [0, 1, 1, 2], [0], [0]"),
        _dot("2x8x128", "2x128x256", "2x8x256", "[2], [1], [1], [2], [1, 0, 0, 0, 1, 1, 2, 1], [0], [0]"),
        _dot("8x128", "8x128", "8x8", "[1, 0], [1, 0], [], [], [0, 0], [], []"),
        # refused by the parser of #tpu.dot_dimension_numbers
        _matmul(*P, "#tpu.dot_dimension_numbers"),
    ] + [_dot(*P, lists) for lists in [
        "", "[1], [0], [0], [1], [0, 0, 1, 1], []", "[1], [0], [0], [1], [0, 0, 1, 1], [], [], []",
        "[1], [0], [0], [1], [0, 0, 1, 1], [], [],", "[1] [0], [0], [1], [0, 0, 1, 1], [], []",
        "1, [0], [0], [1], [0, 0, 1, 1], [], []", "[1],, [0], [0], [1], [0, 0, 1, 1], [], []",
        "[], [0], [0], [1], [0, 0, 1, 1], [], []", "[1], [], [0], [1], [0, 0, 1, 1], [], []",
        "[1], [0], [0], [1], [], [], []", "[1], [0], [,], [1], [0, 0, 1, 1], [], []",
        "[x], [0], [0], [1], [0, 0, 1, 1], [], []", "[1,], [0], [0], [1], [0, 0, 1, 1], [], []",
        "[+1], [0], [0], [1], [0, 0, 1, 1], [], []", "[1.5], [0], [0], [1], [0, 0, 1, 1], [], []",
        "[--1], [0], [0], [1], [0, 0, 1, 1], [], []", "[1 2], [0], [0], [1], [0, 0, 1, 1], [], []",
        "[1e3], [0], [0], [1], [0, 0, 1, 1], [], []", "[0X1], [0], [0], [1], [0, 0, 1, 1], [], []",
        "[1 : i64], [0], [0], [1], [0, 0, 1, 1], [], []",
        "[99999999999999999999], [0], [0], [1], [0, 0, 1, 1], [], []",
        "[1], [0], [0], [1], [0, 0, 1, 1], [], [9223372036854775808]",
        "[1], [0], [0], [1], [0, 0, 1, 1], [], [-9223372036854775809]",
        "[1], [0], [0], [1], [0, 0, 1, 1], [], [0x8000000000000000]",
        "[1]; [0], [0], [1], [0, 0, 1, 1], [], []", "[1 $], [0], [0], [1], [0, 0, 1, 1], [], []",
        "[99999999999999999999;], [0], [0], [1], [0, 0, 1, 1], [], []",
        "[1], [0], [0], [1], [0, 0, 1, 1], [], [] .", "[1], [0], [0], [1], [0, 0, 1, 1], [], [1 #]",
        "[1], [0], [0], [1], [0, 0, 1, 1], [], [1 !]", "[1], [0], [0], [1], [0, 0, 1, 1], [], [@1]",
        "[1], [0], [0], [1], [0, 0, 1, 1], [], [\"a\\q\"]",
        "[1], [0], [0], [1], [0, 0, 1, 1], [], [1] x",
    ]] + [
        _matmul(*P, "#tpu.conv_dimension_numbers<0, 1, [], 0, 1, [], 0, 1, []>"),
        _matmul(*P, "#tpu.conv_dimension_numbers<0, 1, [], 0, 1, [], 0, 1, [1 2]>"),
        _matmul(*P, f"#tpu.dot_dimension_numbers<{D}>", ", precision = #tpu.contract_precision<fp32>"),
        _matmul(*P, f"#tpu.dot_dimension_numbers<{D}>", ", precision = #tpu.contract_precision< \"fp32\" >"),
        _matmul(*P, f"#tpu.dot_dimension_numbers<{D}>", ", precision = #tpu.contract_precision"),
        _matmul(*P, f"#tpu.dot_dimension_numbers<{D}>", ", precision = #tpu.contract_precision<>"),
        _matmul(*P, f"#tpu.dot_dimension_numbers<{D}>", ", precision = #tpu.contract_precision<fp32,>"),
        _matmul(*P, f"#tpu.dot_dimension_numbers<{D}>", ", precision = #tpu.contract_precision<fp64,>"),
        _matmul(*P, f"#tpu.dot_dimension_numbers<{D}>", ", precision = #tpu.contract_precision<;>"),
        _matmul(*P, "#tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], []>",
                ", precision = #tpu.contract_precision<fp64>"),
    ],
    "conv": [_conv(f"#tpu.conv_dimension_numbers<{dn}>") for dn in [
        "0, 2, [1], 1, 2, [0], 0, 2, [1]", "0x0, 2, [ 1 ], 1, 0x2, [false] // c\n, false, 2, [1]",
        "", "0", "[0], 2, [1], 0, 2, [1], 0, 2, [1]", "0, 2, 1, 0, 2, [1], 0, 2, [1]",
        "0, 2, [1], 0, 2, [1], 0, 2, [1], 1", "0 2, [1], 0, 2, [1], 0, 2, [1]", "0, 2, [1] 0, 2, [1], 0, 2, [1]",
        "0, 2, [1], 0, 2, [1], 0, 2", "0, 2, [1,], 0, 2, [1], 0, 2, [1]", "0, 2, [1], 0, 2, [1 2], 0, 2, [1]",
        "0, 9223372036854775808, [1], 0, 2, [1], 0, 2, [1]", "0, 2, [1], 0, 2, [1], 0, 2, [1];",
    ]] + [_conv("#tpu.conv_dimension_numbers")] + [
        # ConvOp::verify in jaxlib 0.12's order; accepted ones near each boundary first
        _conv1(a="8x14", res="8x14"),  # acc rank (the result's is the acc's)
        _conv1("0, 2, [1], 1, 2, [0], 0, 2, [1, 2]"), _conv1("0, 2, [1], 1, 2, [], 0, 2, [1]"),  # spatial counts
        _conv1("0, 0, [1], 1, 2, [0], 0, 2, [1]"), _conv1("0, 2, [3], 1, 2, [0], 0, 2, [1]"),  # lhs permutation
        _conv1("true, 2, [1], 1, 2, [0], 0, 2, [1]"),
        _conv1("0, 2, [1], 1, 1, [0], 0, 2, [1]"), _conv1("0, 2, [1], 1, 2, [-2], 0, 2, [1]"),  # rhs permutation
        _conv1("0, 2, [1], 1, 2, [0], true, 2, [1]"), _conv1("0, 2, [1], 1, 2, [0], 0, 2, [3]"),  # acc/result
        _conv1("0, 2, [1], 1, 2, [0], 0, 2, [2]"), _conv1("0, 2, [1], 1, 2, [0], 0, 2, [true]"),
        _conv1("0, 2, [1], 1, 2, [0], 0, 2, [9223372036854775807]"),
        _conv1("0, 2, [1], 1, 2, [0], 2, 0, [1]", a="128x14x8"),  # accepted: a permuted output
        _conv1(rev=("false", "true")), _conv1(rev=("true",)),  # window attribute sizes; reversed is accepted
        _conv1(st=(1, 1), fgc=0, bgc=0),
        _conv1(fgc=0, bgc=2), _conv1(fgc=2, bgc=0), _conv1(fgc=-1), _conv1(fgc=2, bgc=2),  # group counts
        _conv1(r="3x64x128", fgc=2, bgc=1), _conv1(a="4x14x128", fgc=1, bgc=2),  # accepted: one count > 1
        _conv1(fgc=2),  # LHS feature / feature_group_count vs kernel input feature
        _conv1("2, 0, [1], 1, 2, [0], 0, 2, [1]"),
        _conv1(bgc=3), _conv1(st=(0,), bgc=3), _conv1(ld=(0,), bgc=3),  # kernel output feature, before strides
        _conv1("0, 2, [1], 1, 2, [0], 2, 0, [1]"),  # ACC output feature
        _conv1(l="9x16x128", a="4x14x128", bgc=2), _conv1(bgc=2),  # batch: divisible, then the quotient
        _conv2(a="8x13x14x128", st=(1, 0)), _conv2(st=(1, 0)),  # spatial 0's output, then spatial 1's stride
        _conv2(pad=(0, 0, 0, -20)), _conv2(pad=(0, 0, 0, -20), rd=(1, 0)), _conv2(ld=(0, 1)),
        _conv1(pad=(0, -20)), _conv1(a="8x1x128", pad=(0, -13)), _conv1(a="8x1x128", pad=(0, -14)),  # padded input
        _conv1(ld=(4611686018427387904,)), _conv1(rd=(4611686018427387904,)),  # int64 arithmetic wraps
        _conv1(pad=(9223372036854775807, 9223372036854775807)),
        _conv1(pad=(-9223372036854775807, -9223372036854775807)),
        _conv1(a="8x12x128", pad=(9223372036854775807, 9223372036854775807)),
        _conv1(st=(2,)), _conv1(a="8x7x128", st=(2,)), _conv1(a="8x8x128", st=(2,), pad=(1, 1)),  # output size
        _conv1(ld=(2,), pad=(0, -15)), _conv1(a="8x10x128", rd=(3,)),
    ],
    "reduce": [_reduce(k) for k in [
        "#tpu.reduction_kind<sum>", "#tpu.reduction_kind< \"sum\" >", "#tpu.reduction_kind", "#tpu.reduction_kind<>",
        "#tpu.reduction_kind<1>", "#tpu.reduction_kind<sum,>", "#tpu.reduction_kind<foo,>", "#tpu.reduction_kind<sum sum>",
        # spelled with spaces or quotes, the value still reaches the verifier's kind rules
        "#tpu.reduction_kind< max >", "#tpu.reduction_kind<\"max\">", "#tpu.reduction_kind< arg_max >",
        "#tpu.reduction_kind< \"maxsi\" >", "#tpu.reduction_kind<\n maxf\n>",
    ]],
}

EXCEPTIONS = {}


# Issue 27: what JAX's own Pallas TPU test suite showed the verifiers got wrong (appended last).
# pack_subelements: a result one rank higher than the sources packs into its new minormost dimension (the
# SparseCore form, `(vector<16xf32>, vector<16xf32>) -> vector<16x2xbf16>`); all_reduce: i1 masks reduce to i32
# (sum and find_first_set only), arg_max/arg_min on floats only; operandSegmentSizes: negative elements and
# element types other than i32, as properties and as attributes.
def _pack(core, src, res, n, fmt="compressed"):
    return (core, f"%a: {src}", f'%r = "tpu.pack_subelements"({", ".join(["%a"] * n)}) <{{pack_format = '
            f'#tpu.pack_format<{fmt}>, positions = array<i32: {", ".join(map(str, range(n)))}>}}> : '
            f'({", ".join([src] * n)}) -> {res}')


def _all_reduce(core, kind, src, res):
    return (core, f"%a: {src}", f'%r = "tpu.all_reduce"(%a) <{{dim = 0 : i64, kind = #tpu.reduction_kind<{kind}>}}> '
            f': ({src}) -> {res}')


def _wait_dma2(segments, inherent=True):
    sem, mem = SEM, M
    attrs = f"<{{operandSegmentSizes = {segments}}}>" if inherent else f"{{operandSegmentSizes = {segments}}}"
    return (TC, f"%s: {sem}, %a: {mem}", f'"tpu.wait_dma2"(%s, %a, %a) {attrs} : ({sem}, {mem}, {mem}) -> ()')


SUITE_FIXTURES = {
    "pack_subelements": [
        _pack(core, src, res, n, fmt)
        for core in (TC, SCV)
        for src, res, n, fmt in (
            ("vector<16xf32>", "vector<16x2xbf16>", 2, "compressed"),
            ("vector<16xf32>", "vector<16x2xbf16>", 2, "interleaved"),
            ("vector<16xi32>", "vector<16x4xi8>", 4, "compressed"),
            ("vector<16xi32>", "vector<16x4xi8>", 2, "compressed"),
            ("vector<8x128xf32>", "vector<8x128x2xbf16>", 2, "compressed"),
            ("vector<16xf32>", "vector<32xbf16>", 2, "compressed"),
            ("vector<16xf32>", "vector<16x3xbf16>", 2, "compressed"),
            ("vector<16xf32>", "vector<16x4xbf16>", 2, "compressed"),
            ("vector<16xf32>", "vector<16x2xi8>", 2, "compressed"),
            ("vector<16xf32>", "vector<16x1xbf16>", 1, "compressed"),
            ("vector<8x128xf32>", "vector<8x128xbf16>", 2, "compressed"),
            ("vector<16xf32>", "vector<8x2xbf16>", 2, "compressed"),
            ("vector<8x128xf32>", "vector<4x128x2xbf16>", 2, "compressed"),
            ("vector<16xbf16>", "vector<16x2xf32>", 2, "compressed"),
        )
    ],
    "all_reduce": [
        _all_reduce(core, kind, src, res)
        for core in (TC, SCV)
        for kind in ("sum", "max", "maxf", "maxsi", "minui", "arg_max", "arg_min", "find_first_set")
        for src, res in (
            ("vector<16xi1>", "vector<16xi32>"),
            ("vector<16xi1>", "vector<16xi1>"),
            ("vector<8x128xi1>", "vector<8x128xi8>"),
            ("vector<16xi32>", "vector<16xi32>"),
            ("vector<16xf32>", "vector<16xi32>"),
            ("vector<16xbf16>", "vector<16xi32>"),
            ("vector<16xf32>", "vector<16xf32>"),
        )
    ],
    "wait_dma2": [
        _wait_dma2(segments, inherent)
        for inherent in (True, False)
        for segments in (
            "array<i32: 1, 1, 1, 0, 0>",
            "array<i32: 1, 1, 2, -1, 0>",
            "array<i32: -1, 1, 1, 1, 1>",
            "array<i32: 1, 1, 1, 0, -3>",
            "array<i32: 1, 1, 0, 0>",
            "array<i32: 1, 1, -1, 1>",
            "array<i64: 1, 1, 1, 0, 0>",
            "array<i64: 1, 1>",
            "array<i16: 1, 1, 1, 0, 0>",
            "dense<[1, 1, 1, 0, 0]> : vector<5xi32>",
            "[1, 1, 1, 0, 0]",
        )
    ],
}


def kernel(core, args, body):
    return (f"func.func @k({args}) attributes {{tpu.core_type = #tpu.core_type<{core}>}} {{\n"
            f"  {body}\n  return\n}}\n")


def reaches_verify(op, message):
    prefix = f"'tpu.{op}' op "
    if message.startswith("'") and not message.startswith(prefix):
        return False  # another op's message
    return not ODS.search(message[len(prefix):] if message.startswith(prefix) else message)


def base_text(golden):
    if golden.startswith("bases/"):
        return open(os.path.join(ROOT, "tests/data/mosaic-corpus", golden + ".mlir")).read()
    return open(os.path.join(ROOT, "tests/data/jax-goldens", golden, "kernel_pre_serde.generic.mlir")).read()


def main():
    ctx = jmlir.make_ir_context()
    tpu.register_dialect(ctx)
    out = []
    for op in VERIFIER_OPS:
        for core, args, body in FIXTURES.get(op, []):
            text = kernel(core, args, body)
            verdict, msg = jaxlib_verdict(ctx, text)
            out.append({"op": op, "source": "hand", "text": text, "verdict": verdict, "message": msg})
    # From the corpus, for ops without hand fixtures.
    corpus = [json.loads(l) for l in open(os.path.join(ROOT, "tests/data/mosaic-corpus/corpus.jsonl"))][1:]
    for op in VERIFIER_OPS:
        if op in FIXTURES:
            continue
        oks, errs = [], []
        for r in corpus:
            text = apply(base_text(r["golden"]).rstrip("\n").split("\n"), r["edits"], r["replace"])
            if r["verdict"] == "ok" and f'"tpu.{op}"' in text and len(oks) < 2:
                oks.append((r, text))
            elif (r["verdict"] == "error" and r["op"] == f"tpu.{op}" and reaches_verify(op, r["message"])
                  and len(errs) < 3 and all(e[0]["message"] != r["message"] for e in errs)):
                errs.append((r, text))
        for r, text in oks + errs:
            verdict, msg = jaxlib_verdict(ctx, text)
            out.append({"op": op, "source": f"corpus#{r['id']}", "text": text, "verdict": verdict,
                        "message": msg})
    for fixtures in (TILED_FIXTURES, LATE_FIXTURES, SUITE_FIXTURES):
        for op in VERIFIER_OPS:
            for core, args, body in fixtures.get(op, []):
                text = kernel(core, args, body)
                verdict, msg = jaxlib_verdict(ctx, text)
                out.append({"op": op, "source": "hand", "text": text, "verdict": verdict, "message": msg})
    print(json.dumps({"_generated": "by scripts/jaxref/gen_verifier_fixtures.py, verdicts by jaxlib "
                      + jaxlib.__version__ + " Module.parse (which verifies); see the script's docstring",
                      "verifier_ops": VERIFIER_OPS, "exceptions": EXCEPTIONS}))
    for r in out:
        r["reaches_verify"] = r["verdict"] == "error" and reaches_verify(r["op"], r["message"])
        print(json.dumps(r))


if __name__ == "__main__":
    main()
