"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: i32):
    %0 = "tpu.sitofp"(%arg0) <{rounding_mode = #tpu.rounding_mode<to_nearest_even>}> : (i32) -> f32
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
