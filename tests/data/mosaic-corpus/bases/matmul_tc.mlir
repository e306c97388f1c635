"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xbf16>, vector<128x128xbf16>, vector<8x128xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xbf16>, %arg1: vector<128x128xbf16>, %arg2: vector<8x128xf32>):
    %0 = "tpu.matmul"(%arg0, %arg1, %arg2) <{dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, transpose_lhs = false, transpose_lhs_hint = false, transpose_rhs = false}> : (vector<8x128xbf16>, vector<128x128xbf16>, vector<8x128xf32>) -> vector<8x128xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
