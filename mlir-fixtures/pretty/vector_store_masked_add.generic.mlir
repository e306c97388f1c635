// `tpu.vector_store` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: vector<8x128xf32>, %arg2: vector<8x128xi1>):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    "tpu.vector_store"(%arg1, %arg0, %0, %0, %arg2) <{add = true, operandSegmentSizes = array<i32: 1, 1, 2, 1>, strides = array<i32>}> : (vector<8x128xf32>, memref<8x128xf32, #tpu.memory_space<vmem>>, index, index, vector<8x128xi1>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
