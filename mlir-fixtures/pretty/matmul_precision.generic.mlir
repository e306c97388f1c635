// `tpu.matmul` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (vector<128x128xbf16>, vector<128x128xbf16>, vector<128x128xf32>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: vector<128x128xbf16>, %arg1: vector<128x128xbf16>, %arg2: vector<128x128xf32>):
    %0 = "tpu.matmul"(%arg0, %arg1, %arg2) <{dimension_numbers = #tpu.dot_dimension_numbers<[1], [1], [0], [0], [0, 0, 1, 0], [], []>, precision = #tpu.contract_precision<fp32>, transpose_lhs = false, transpose_lhs_hint = true, transpose_rhs = false}> : (vector<128x128xbf16>, vector<128x128xbf16>, vector<128x128xf32>) -> vector<128x128xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
