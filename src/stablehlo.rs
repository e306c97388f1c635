//! The StableHLO vocabulary the emitter and the decoder share: op and
//! attribute names, the export marker, the pretty printer's defaults and the
//! row-major layouts. A leaf: it imports no other module of the crate.

/// The op every call is: `stablehlo.custom_call`.
pub const CUSTOM_CALL: &str = "stablehlo.custom_call";

/// Its `call_target_name` for Mosaic kernels.
pub const CALL_TARGET: &str = "tpu_custom_call";

/// The attribute JAX's export puts on the module (`Exported.mlir_module()`),
/// and `emit` too in forward-compatible mode.
pub const EXPORT_MARKER: &str = "jax.uses_shape_polymorphism";

/// Inherent attributes the StableHLO pretty printer leaves out when they have
/// these values (`call_target_name` is printed as `@name` instead).
pub const PRETTY_DEFAULTS: [(&str, &str); 5] = [
    ("api_version", "1 : i32"),
    ("call_target_name", "\"tpu_custom_call\""),
    ("called_computations", "[]"),
    ("has_side_effect", "false"),
    ("output_operand_aliases", "[]"),
];

/// The printed row-major layout of a rank-`rank` array (`[rank-1, ..., 1,
/// 0]`) as JAX writes it: `dense<[1, 0]> : tensor<2xindex>`,
/// `dense<0> : tensor<1xindex>`, `dense<> : tensor<0xindex>`.
pub fn layout_text(rank: usize) -> String {
    match rank {
        0 => "dense<> : tensor<0xindex>".to_string(),
        1 => "dense<0> : tensor<1xindex>".to_string(),
        _ => {
            let dims: Vec<String> = (0..rank).rev().map(|d| d.to_string()).collect();
            format!("dense<[{}]> : tensor<{rank}xindex>", dims.join(", "))
        }
    }
}
