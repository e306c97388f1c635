"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>, vector<8x128xf32>, vector<8x128xi1>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xf32>, %arg1: vector<8x128xf32>, %arg2: vector<8x128xi1>):
    %0:3 = "tpu.sort"(%arg0, %arg1, %arg2) <{descending = false}> : (vector<8x128xf32>, vector<8x128xf32>, vector<8x128xi1>) -> (vector<8x128xi1>, vector<8x128xf32>, vector<8x128xf32>)
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
