"builtin.module"() ({
  "func.func"() <{function_type = (f32) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: f32):
    %0 = "tpu.truncf"(%arg0) <{rounding_mode = #tpu.rounding_mode<to_nearest_even>}> : (f32) -> f32
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
