"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xi1>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xi1>):
    %0 = "tpu.pack_vmsk"(%arg0, %arg0) <{positions = array<i32: 0, 1>}> : (vector<8x128xi1>, vector<8x128xi1>) -> vector<8x256xi1>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_scalar_subcore>} : () -> ()
}) : () -> ()
