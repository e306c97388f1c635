"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xf32>):
    %0 = "tpu.scan"(%arg0) <{dimension = 1 : i64, kind = #tpu.reduction_kind<sum>}> : (vector<8x128xf32>) -> vector<8x128xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
