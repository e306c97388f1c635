// `tpu.unpack_subelements` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (vector<16x128xbf16>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: vector<16x128xbf16>):
    %0 = "tpu.unpack_subelements"(%arg0) <{index = 0 : i32, integer_extended = true, pack_format = #tpu.pack_format<interleaved>, unsigned_integers = false}> : (vector<16x128xbf16>) -> vector<8x128xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
