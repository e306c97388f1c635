"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xf32>):
    %0 = "tpu.reduce"(%arg0) <{dimensions = array<i64: 1>, kind = #tpu.reduction_kind<sum>}> : (vector<8x128xf32>) -> vector<8x1xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
