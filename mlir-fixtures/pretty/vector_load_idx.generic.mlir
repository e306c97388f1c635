// `tpu.vector_load_idx` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<64xf32, #tpu.memory_space<vmem>>, vector<16xi32>, vector<16xi1>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<64xf32, #tpu.memory_space<vmem>>, %arg1: vector<16xi32>, %arg2: vector<16xi1>):
    %0 = "tpu.vector_load_idx"(%arg0, %arg1) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (memref<64xf32, #tpu.memory_space<vmem>>, vector<16xi32>) -> vector<16xf32>
    %1 = "tpu.vector_load_idx"(%arg0, %arg1, %arg2) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (memref<64xf32, #tpu.memory_space<vmem>>, vector<16xi32>, vector<16xi1>) -> vector<16xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
