//! Shared by the benches (and `examples/perf.rs`): synthetic Mosaic kernels
//! of any size.

const MEMREF: &str = "memref<8x128xf32, #tpu.memory_space<vmem>>";
const VECTOR: &str = "vector<8x128xf32>";

/// A TensorCore kernel with about `ops` ops in groups of six (two constants,
/// a load, an add, a `tpu.scan` that needs a v15 downgrade and a
/// `tpu.vector_store`), every op with a location, in generic form as JAX
/// dumps kernels.
pub fn synthetic_kernel(ops: usize) -> String {
    let mut body = String::with_capacity(ops * 260);
    let mut v = 0usize;
    // The second constant (`g`) is parsed but not used: it once indexed the
    // load and the store, past the 8x128 buffer for every group but the first,
    // which the bounds check (issue 40) refuses; kept so that the text, and
    // the work of reading it, stay what the earlier figures measured.
    for g in 0..ops.div_ceil(6) {
        let (c0, c1, ld, add, scan) = (v, v + 1, v + 2, v + 3, v + 4);
        let loc = format!("loc(\"k.py\":{}:{})", g + 1, g % 80 + 1);
        body.push_str(&format!(
            "    %{c0} = \"arith.constant\"() <{{value = 0 : index}}> : () -> index {loc}\n\
             \x20   %{c1} = \"arith.constant\"() <{{value = {g} : index}}> : () -> index {loc}\n\
             \x20   %{ld} = \"vector.load\"(%arg0, %{c0}, %{c0}) : ({MEMREF}, index, index) -> {VECTOR} {loc}\n\
             \x20   %{add} = \"arith.addf\"(%{ld}, %{ld}) <{{fastmath = #arith.fastmath<none>}}> : ({VECTOR}, {VECTOR}) -> {VECTOR} {loc}\n\
             \x20   %{scan} = \"tpu.scan\"(%{add}) <{{dimension = 1 : i64, kind = #tpu.reduction_kind<maxf>}}> : ({VECTOR}) -> {VECTOR} {loc}\n\
             \x20   \"tpu.vector_store\"(%{scan}, %arg1, %{c0}, %{c0}) <{{add = false, operandSegmentSizes = array<i32: 1, 1, 2, 0>, strides = array<i32>}}> : ({VECTOR}, {MEMREF}, index, index) -> () {loc}\n"
        ));
        v += 5;
    }
    format!(
        "\"builtin.module\"() <{{sym_name = \"bench\"}}> ({{\n\
         \x20 \"func.func\"() <{{function_type = ({MEMREF}, {MEMREF}) -> (), sym_name = \"bench\"}}> ({{\n\
         \x20 ^bb0(%arg0: {MEMREF} loc(\"x_ref\"), %arg1: {MEMREF} loc(\"o_ref\")):\n{body}\
         \x20   \"func.return\"() : () -> () loc(unknown)\n\
         \x20 }}) {{dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>}} : () -> () loc(unknown)\n\
         }}) : () -> () loc(unknown)\n"
    )
}

/// Ops in the generated text (one per line holding `"dialect.op"(`).
pub fn kernel_op_count(text: &str) -> usize {
    text.lines().filter(|l| l.contains("\"(")).count()
}
