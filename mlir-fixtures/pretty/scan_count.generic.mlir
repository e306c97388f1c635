// `tpu.scan_count` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (vector<16xi1>, vector<16xi32>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: vector<16xi1>, %arg1: vector<16xi32>):
    %0:2 = "tpu.scan_count"(%arg0, %arg1) : (vector<16xi1>, vector<16xi32>) -> (vector<16xi1>, vector<16xi32>)
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
