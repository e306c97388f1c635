// arith.addf of f32 and i32: parses, fails verification (type mismatch).
"builtin.module"() ({
  "func.func"() <{function_type = (f32, i32) -> f32, sym_name = "k"}> ({
  ^bb0(%a: f32, %b: i32):
    %0 = "arith.addf"(%a, %b) <{fastmath = #arith.fastmath<none>}> : (f32, i32) -> f32
    "func.return"(%0) : (f32) -> ()
  }) : () -> ()
}) : () -> ()
