"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xi1>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xi1>):
    %0 = "tpu.mask_cast"(%arg0) : (vector<8x128xi1>) -> vector<8x128x2xi1>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_scalar_subcore>} : () -> ()
}) : () -> ()
