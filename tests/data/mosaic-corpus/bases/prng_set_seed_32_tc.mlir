"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: i32):
    "tpu.prng_set_seed_32"(%arg0) : (i32) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
