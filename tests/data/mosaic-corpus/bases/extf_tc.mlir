"builtin.module"() ({
  "func.func"() <{function_type = (f32) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: f32):
    %0 = "tpu.extf"(%arg0) : (f32) -> f32
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
