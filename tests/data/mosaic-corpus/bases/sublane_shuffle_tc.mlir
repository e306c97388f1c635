"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xf32>):
    %0 = "tpu.sublane_shuffle"(%arg0, %arg0) <{pattern = array<i32: 0, 1, 2, 3, 4, 5, 6, 7>}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
