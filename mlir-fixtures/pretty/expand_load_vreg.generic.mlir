// `tpu.expand_load_vreg` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<64xf32, #tpu.memory_space<vmem>>, vector<16xi1>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<64xf32, #tpu.memory_space<vmem>>, %arg1: vector<16xi1>):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "tpu.expand_load_vreg"(%arg0, %0, %arg1) : (memref<64xf32, #tpu.memory_space<vmem>>, index, vector<16xi1>) -> vector<16xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
