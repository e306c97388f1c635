// `tpu.core_id` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "kernel"}> ({
    %0 = "tpu.core_id"() : () -> i32
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
