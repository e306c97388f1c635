//! Issue 40's examples, built with the crate's Pallas idioms (`kernels.rs`),
//! and issue 51's collective kernels (`collective.rs`) and SparseCore /
//! `emit_pipeline` kernels (`sparsecore.rs`), lowered into
//! `stablehlo.custom_call @tpu_custom_call` as JAX 0.12 lowers their Python
//! (`scripts/jaxref/authoring_examples.py`,
//! `scripts/jaxref/authoring_collective.py`,
//! `scripts/jaxref/sparsecore_examples.py`): prints the StableHLO module.
//!
//! ```sh
//! cargo run --release --example pallas_examples -- flash_attention   # causal flash attention forward
//! cargo run --release --example pallas_examples -- paged_attention   # paged decode, double-buffered DMAs
//! cargo run --release --example pallas_examples -- ring_matmul       # 4-device collective matmul
//! cargo run --release --example pallas_examples -- flash_attention > f.mlir && tpu-custom-call run f.mlir ...
//! cargo run --release --example pallas_examples -- scatter_add       # SparseCore scatter-add (v7x)
//! cargo run --release --example pallas_examples -- pipeline_matmul   # emit_pipeline matmul, f32 scratch
//! ```

mod collective;
mod kernels;
mod sparsecore;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let name = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "flash_attention".to_string());
    if sparsecore::EXAMPLES.contains(&name.as_str()) {
        print!("{}", sparsecore::lowered_module(&name)?);
        return Ok(());
    }
    if collective::EXAMPLES.contains(&name.as_str()) {
        print!("{}", collective::lowered_module(&name)?);
        return Ok(());
    }
    print!("{}", kernels::lowered_module(&name)?);
    Ok(())
}
