// `tpu.shared_memref_slice` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<16x128xf32, #tpu.memory_space<vmem_shared>>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<16x128xf32, #tpu.memory_space<vmem_shared>>):
    %0 = "tpu.shared_memref_slice"(%arg0) : (memref<16x128xf32, #tpu.memory_space<vmem_shared>>) -> memref<16x128xf32, #tpu.memory_space<vmem, sc_vector_subcore>>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
