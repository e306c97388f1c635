"builtin.module"() ({
  "func.func"() <{function_type = (f32) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: f32):
    %0 = "tpu.fptosi"(%arg0) <{rounding_mode = #tpu.rounding_mode<to_nearest_even>}> : (f32) -> i32
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
