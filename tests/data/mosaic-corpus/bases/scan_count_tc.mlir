"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xi1>, vector<8x128xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xi1>, %arg1: vector<8x128xf32>):
    %0:2 = "tpu.scan_count"(%arg0, %arg1) : (vector<8x128xi1>, vector<8x128xf32>) -> (vector<8x128xi1>, vector<8x128xi32>)
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
