// `tpu.vector_compress_store` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<64xf32, #tpu.memory_space<vmem>>, vector<16xi1>, vector<16xf32>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<64xf32, #tpu.memory_space<vmem>>, %arg1: vector<16xi1>, %arg2: vector<16xf32>):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    "tpu.vector_compress_store"(%arg2, %arg0, %0, %arg1) <{add = false, compress_dim = 0 : i32}> : (vector<16xf32>, memref<64xf32, #tpu.memory_space<vmem>>, index, vector<16xi1>) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
