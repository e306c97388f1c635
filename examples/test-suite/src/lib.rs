//! The compiler under test: it lowers `o = x + y` over f32[8, 128] (Pallas'
//! `_add_kernel`) to a StableHLO module with one `tpu_custom_call`, as JAX
//! does. A real compiler has many such entry points; its test suite
//! (`tests/suite.rs`) checks what they emit.

use tpu_custom_call::lower::{LowerOptions, Lowerer};
use tpu_custom_call::melior::ir::Type;
use tpu_custom_call::melior::ir::r#type::RankedTensorType;
use tpu_custom_call::mosaic::attrs::{self, MemorySpace};
use tpu_custom_call::mosaic::pallas::{Arg, KernelSpec};
use tpu_custom_call::{Context, Kernel, Params, PrintOptions, Signature, kernel, validate};

/// What the compiler is asked for.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The call's `vmem_limit_bytes`, when set.
    pub vmem_limit_bytes: Option<u64>,
}

/// The module for `o = x + y`, as text (StableHLO, generic form).
pub fn lower_add(options: &Options) -> Result<String, Box<dyn std::error::Error>> {
    let ctx = Context::new();
    let f32 = Type::float32(&ctx);
    let vmem = attrs::memref(&ctx, &[8, 128], f32, MemorySpace::Vmem, None);
    let module = KernelSpec::new("_add_kernel")
        .input(Arg::new(vmem).named("x_ref"))
        .input(Arg::new(vmem).named("y_ref"))
        .output(Arg::new(vmem).named("o_ref"))
        .build(&ctx, |k| {
            k.store(
                k.outputs[0],
                k.add(k.load(k.inputs[0])?, k.load(k.inputs[1])?)?,
            )
        })?;
    let kernel = Kernel::from_module(&ctx, module)?;
    let limit = options
        .vmem_limit_bytes
        .map(|l| format!(r#", "vmem_limit_bytes": {l}"#))
        .unwrap_or_default();
    let params = format!(r#"{{"kernel_name": "_add_kernel", "metadata": {{}}{limit}}}"#);
    let params = Params::from_json(params.as_bytes())?;
    let t: Type = RankedTensorType::new(&[8, 128], f32, None).into();
    let call = validate(&kernel, Signature::new([t, t], [t]), &params, None)
        .map_err(|e| e[0].to_string())?;
    let hlo = Lowerer::new(LowerOptions::default()).emit_module(&ctx, &call)?;
    Ok(kernel::print_module(&hlo, PrintOptions::default())?)
}
