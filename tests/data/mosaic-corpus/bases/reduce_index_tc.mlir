"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xf32>):
    %0 = "tpu.reduce_index"(%arg0) <{axis = 1 : i32, kind = #tpu.reduction_kind<arg_max>}> : (vector<8x128xf32>) -> vector<8xi32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
