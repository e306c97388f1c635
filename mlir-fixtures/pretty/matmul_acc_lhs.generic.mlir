// `tpu.matmul_acc_lhs` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xbf16>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: vector<8x128xbf16>):
    "tpu.matmul_acc_lhs"(%arg0) <{acc = 0 : i32, mxu_index = 0 : i32}> : (vector<8x128xbf16>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
