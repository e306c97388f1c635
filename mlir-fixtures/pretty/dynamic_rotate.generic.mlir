// `tpu.dynamic_rotate` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>, i32) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: vector<8x128xf32>, %arg1: i32):
    %0 = "tpu.dynamic_rotate"(%arg0, %arg1) <{dimension = 1 : si32}> : (vector<8x128xf32>, i32) -> vector<8x128xf32>
    %1 = "tpu.dynamic_rotate"(%arg0, %arg1) <{dimension = 1 : si32, stride = 1 : si32, stride_dimension = 0 : si32}> : (vector<8x128xf32>, i32) -> vector<8x128xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
