"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "k"}> ({
    %0 = "tpu.matmul_pop_fifo"() <{mxu_index = 0 : i32}> : () -> vector<8x128xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
