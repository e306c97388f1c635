//! Issue 51's SparseCore idioms and `emit_pipeline` bodies
//! (`examples/pallas_examples/sparsecore.rs`): the examples and one kernel
//! per SparseCore idiom are `diff`-equal to JAX 0.12's lowering of the same
//! Python (`scripts/jaxref/sparsecore_examples.py`, run here when the jaxref
//! venv exists), compute on the CPU executor what numpy (the SparseCore
//! kernels, which interpret mode cannot run) or JAX's interpret mode (the
//! matmul) computes, compile with libtpu (SparseCore kernels on v7x), and
//! take at most 1.5x the Python's lines after rustfmt.

use std::path::PathBuf;
use std::sync::OnceLock;

use super::common;
use crate::compile::{LIBTPU, libtpu, options};
use tpu_custom_call::compile::Compiler;
use tpu_custom_call::exec::{Array, Data, ElemType, npy};
use tpu_custom_call::lower::{LowerOptions, Lowerer};
use tpu_custom_call::melior::ir::r#type::{IntegerType, RankedTensorType};
use tpu_custom_call::melior::ir::{Module, Type};
use tpu_custom_call::mosaic::BuildError;
use tpu_custom_call::mosaic::attrs::MemorySpace::{Any, Hbm, Vmem, VmemShared};
use tpu_custom_call::mosaic::pallas::{
    Arg, BlockSpec, IndexExpr::Grid, KernelSpec, at, ds, emit_pipeline,
};
use tpu_custom_call::target::Chip;
use tpu_custom_call::testing::{assert_call_computes, calls_diff};
use tpu_custom_call::{Context, Kernel, Params, PrintOptions, Signature, kernel, validate};

#[path = "../../examples/pallas_examples/sparsecore.rs"]
mod examples_sc;

/// The one-kernel-per-idiom cases of the script.
const IDIOMS: &[&str] = &[
    "sc_shared_copy_barrier",
    "sc_scatter_add_dma",
    "sc_gather_add_dma",
    "sc_addupdate_scatter",
];

/// The script's output (JAX's module per kernel) and the folder of its
/// inputs and references; `None` without the jaxref venv.
fn jax_modules(test: &str) -> Option<&'static (String, PathBuf)> {
    static RUN: OnceLock<Option<(String, PathBuf)>> = OnceLock::new();
    let python = common::jaxref_python(test)?;
    RUN.get_or_init(|| {
        let root = env!("CARGO_MANIFEST_DIR");
        let refs = std::env::temp_dir().join(format!("tcc-sparsecore-{}", std::process::id()));
        std::fs::create_dir_all(&refs).unwrap();
        let output = std::process::Command::new(&python)
            .arg(format!("{root}/scripts/jaxref/sparsecore_examples.py"))
            .arg("--refs")
            .arg(&refs)
            .env("JAX_PLATFORMS", "cpu")
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "sparsecore_examples.py: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        Some((String::from_utf8(output.stdout).unwrap(), refs))
    })
    .as_ref()
}

/// JAX's module of kernel `name` in the script's output.
fn jax_module<'t>(text: &'t str, name: &str) -> &'t str {
    let start = text
        .find(&format!("// ----- {name}\n"))
        .unwrap_or_else(|| panic!("no `{name}` in the script's output"));
    let rest = &text[start..];
    let body = &rest[rest.find('\n').unwrap() + 1..];
    &body[..body.find("// ----- ").unwrap_or(body.len())]
}

/// One SparseCore idiom of the script on 16 vector subcores: x f32[16, 16]
/// and i i32[16] in HBM, f32[16, 16] out; scratch x f32[16, 16] and i
/// i32[16] in VMEM, an f32[16, 16] accumulator in `VMEM_SHARED`.
fn idiom<'c>(ctx: &'c Context, name: &str) -> Result<Module<'c>, BuildError> {
    let (f32, i32): (Type, Type) = (Type::float32(ctx), IntegerType::new(ctx, 32).into());
    let arg = |shape: &[i64], t, space| Arg::memref(ctx, shape, t, space);
    let name = name.to_string();
    KernelSpec::vector_subcore_mesh(&name, 1, 16)
        .in_specs([arg(&[16, 16], f32, Hbm), arg(&[16], i32, Hbm)])
        .output(arg(&[16, 16], f32, Hbm))
        .scratch_shapes([
            arg(&[16, 16], f32, Vmem),
            arg(&[16], i32, Vmem),
            arg(&[16, 16], f32, VmemShared),
        ])
        .build(ctx, |k| {
            let [x_hbm, i_hbm, o_hbm, x_vmem, i_vmem, acc_shared] = k.refs()?;
            let s = k.program_id(1)?;
            let row = [ds(s, 1)];
            match name.as_str() {
                "sc_shared_copy_barrier" => {
                    // Rows reversed through VMEM_SHARED.
                    k.sync_copy(x_hbm, &row, acc_shared, &[ds(k.sub(15, s)?, 1)])?;
                    k.subcore_barrier()?;
                    k.sync_copy(acc_shared, &row, o_hbm, &row)
                }
                "sc_scatter_add_dma" => {
                    k.sync_copy(x_hbm, &row, acc_shared, &row)?;
                    k.sync_copy(x_hbm, &[], x_vmem, &[])?;
                    k.sync_copy(i_hbm, &[], i_vmem, &[])?;
                    k.subcore_barrier()?;
                    k.sync_copy_add(x_vmem, &[], acc_shared, &[at(i_vmem)])?;
                    k.subcore_barrier()?;
                    k.sync_copy(acc_shared, &row, o_hbm, &row)
                }
                "sc_gather_add_dma" => {
                    k.sync_copy(x_hbm, &row, acc_shared, &row)?;
                    k.sync_copy(x_hbm, &[], x_vmem, &[])?;
                    k.sync_copy(i_hbm, &[], i_vmem, &[])?;
                    k.subcore_barrier()?;
                    k.sync_copy_add(acc_shared, &[at(i_vmem)], x_vmem, &[])?;
                    k.sync_copy(x_vmem, &row, o_hbm, &row)
                }
                _ => {
                    k.sync_copy(x_hbm, &[], x_vmem, &[])?;
                    k.sync_copy(i_hbm, &[], i_vmem, &[])?;
                    let i = k.load(i_vmem)?;
                    k.addupdate_scatter(x_vmem, &[i, i], k.astype(i, f32)?)?;
                    k.sync_copy(x_vmem, &row, o_hbm, &row)
                }
            }
        })
}

/// The StableHLO module of idiom `name` (JAX's default parameters: compact
/// tiling on the SparseCore).
fn idiom_module(name: &str) -> String {
    let ctx = Context::new();
    let (f32, i32): (Type, Type) = (Type::float32(&ctx), IntegerType::new(&ctx, 32).into());
    let t = |shape: &[u64], e| -> Type { RankedTensorType::new(shape, e, None).into() };
    let kernel = Kernel::from_module(&ctx, idiom(&ctx, name).unwrap()).unwrap();
    let params = format!(r#"{{"kernel_name": "{name}", "metadata": {{}}, "tiling": "compact"}}"#);
    let params = Params::from_json(params.as_bytes()).unwrap();
    let signature = Signature::new([t(&[16, 16], f32), t(&[16], i32)], [t(&[16, 16], f32)]);
    let call = validate(&kernel, signature, &params, None)
        .map_err(|errors| validate::describe(&errors))
        .unwrap();
    let module = Lowerer::new(LowerOptions::default())
        .emit_module(&ctx, &call)
        .unwrap();
    kernel::print_module(&module, PrintOptions::default()).unwrap()
}

#[test]
fn sparsecore_kernels_equal_jax_lowering_of_their_python() {
    let Some((text, _)) = jax_modules("sparsecore_kernels_equal_jax_lowering_of_their_python")
    else {
        return;
    };
    let mut failures = common::Failures::new();
    let ours = examples_sc::EXAMPLES
        .iter()
        .map(|name| (name, examples_sc::lowered_module(name).unwrap()))
        .chain(IDIOMS.iter().map(|name| (name, idiom_module(name))));
    for (name, ours) in ours {
        match calls_diff(jax_module(text, name), &ours, &Default::default()) {
            Ok(report) if report.is_equal() => {}
            Ok(report) => failures.fail(format!("{name}: differs from JAX:\n{report}")),
            Err(e) => failures.fail(format!("{name}: {e}")),
        }
    }
    failures.assert_none();
}

#[test]
fn sparsecore_examples_compute_their_references() {
    let Some((_, refs)) = jax_modules("sparsecore_examples_compute_their_references") else {
        return;
    };
    let i32 = ElemType::Int(32);
    for (name, elems, out) in [
        (
            "scatter_add",
            &[ElemType::F32, i32, ElemType::F32][..],
            ElemType::F32,
        ),
        (
            "pipeline_matmul",
            &[ElemType::BF16, ElemType::BF16],
            ElemType::BF16,
        ),
    ] {
        let inputs: Vec<_> = elems
            .iter()
            .enumerate()
            .map(|(i, &e)| npy::read(&refs.join(format!("{name}_in{i}.npy")), e).unwrap())
            .collect();
        let expected = npy::read(&refs.join(format!("{name}_out.npy")), out).unwrap();
        let module = examples_sc::lowered_module(name).unwrap();
        // The scatter-add's f32 sums in another order than numpy's float64;
        // the matmul's bf16 output one rounding apart from JAX's at most.
        let (rtol, atol) = if out == ElemType::BF16 {
            (1.0 / 128.0, 1e-2)
        } else {
            (1e-5, 1e-5)
        };
        assert_call_computes(&module, 0, &inputs, &[expected], rtol, atol);
    }
}

/// The idioms on x = 16 rows of 16 values and a permutation i: each
/// expected output computed here from the Python's meaning.
#[test]
fn sparsecore_idioms_compute_what_their_python_computes() {
    let x: Vec<f32> = (0..256)
        .map(|v| ((v * 37) % 101) as f32 * 0.25 - 12.0)
        .collect();
    let perm: Vec<usize> = (0..16).map(|k| (k * 5 + 3) % 16).collect();
    let inputs = [
        Array::new(ElemType::F32, vec![16, 16], Data::F32(x.clone())),
        Array::new(
            ElemType::Int(32),
            vec![16],
            Data::I64(perm.iter().map(|&p| p as i64).collect()),
        ),
    ];
    let row = |r: usize| &x[r * 16..r * 16 + 16];
    let mut cases: Vec<(&str, Vec<f32>)> = Vec::new();
    // o[s] = x[15 - s].
    cases.push((
        "sc_shared_copy_barrier",
        (0..16).flat_map(|s| row(15 - s).to_vec()).collect(),
    ));
    // acc starts at x; each of 16 subcores adds x[k] into acc[perm[k]].
    let mut acc = x.clone();
    for (k, &p) in perm.iter().enumerate() {
        for c in 0..16 {
            acc[p * 16 + c] += 16.0 * x[k * 16 + c];
        }
    }
    cases.push(("sc_scatter_add_dma", acc));
    // x[k] += x[perm[k]] (every subcore computes it; row s is written by s).
    let gathered = (0..16)
        .flat_map(|k| (0..16).map(move |c| (k, c)))
        .map(|(k, c)| x[k * 16 + c] + x[perm[k] * 16 + c])
        .collect();
    cases.push(("sc_gather_add_dma", gathered));
    // x[i[k], i[k]] += i[k].
    let mut diagonal = x.clone();
    for &p in &perm {
        diagonal[p * 16 + p] += p as f32;
    }
    cases.push(("sc_addupdate_scatter", diagonal));
    for (name, expected) in cases {
        let expected = Array::new(ElemType::F32, vec![16, 16], Data::F32(expected));
        assert_call_computes(idiom_module(name), 0, &inputs, &[expected], 1e-6, 1e-6);
    }
}

#[test]
fn sparsecore_kernels_compile_with_libtpu() {
    let test = "sparsecore_kernels_compile_with_libtpu";
    let Some(libtpu) = libtpu(test) else {
        return;
    };
    let _guard = LIBTPU.lock().unwrap_or_else(|e| e.into_inner());
    let mut v7x = Compiler::new(options(Chip::V7x, 1, &libtpu)).unwrap();
    let modules = examples_sc::EXAMPLES
        .iter()
        .map(|name| (*name, examples_sc::lowered_module(name).unwrap()))
        .chain(IDIOMS.iter().map(|name| (*name, idiom_module(name))));
    for (name, module) in modules {
        let verdict = v7x.compile(module.as_bytes()).unwrap();
        assert!(verdict.is_ok(), "{name} on v7x: {verdict:?}");
    }
    // The TensorCore matmul on the chips without SparseCores too.
    let matmul = examples_sc::lowered_module("pipeline_matmul").unwrap();
    for chip in [Chip::V5e, Chip::V6e] {
        let mut compiler = Compiler::new(options(chip, 1, &libtpu)).unwrap();
        let verdict = compiler.compile(matmul.as_bytes()).unwrap();
        assert!(verdict.is_ok(), "pipeline_matmul on {chip}: {verdict:?}");
    }
}

/// Issue 51's rule: each Rust kernel takes at most 1.5x the Python's
/// non-blank, non-comment lines (Rust as `cargo fmt` leaves it, the Python
/// between its `# begin` / `# end` lines), found by the Rust function's
/// `/// Python: <path>::<name>` line.
#[test]
fn sparsecore_examples_are_at_most_1_5_times_the_python() {
    let root = env!("CARGO_MANIFEST_DIR");
    let rust =
        std::fs::read_to_string(format!("{root}/examples/pallas_examples/sparsecore.rs")).unwrap();
    let code = |line: &&str, comment: &str| {
        let t = line.trim();
        !t.is_empty() && !t.starts_with(comment)
    };
    for name in examples_sc::EXAMPLES {
        let marker = format!("/// Python: scripts/jaxref/sparsecore_examples.py::{name}\n");
        let start = rust.find(&marker).unwrap() + marker.len();
        let end = start + rust[start..].find("\n}\n").unwrap() + 2;
        let rust_lines = rust[start..end].lines().filter(|l| code(l, "//")).count();
        let python =
            std::fs::read_to_string(format!("{root}/scripts/jaxref/sparsecore_examples.py"))
                .unwrap();
        let begin = python.find(&format!("# begin {name}\n")).unwrap();
        let stop = python.find(&format!("# end {name}\n")).unwrap();
        let python_lines = python[begin..stop].lines().filter(|l| code(l, "#")).count();
        assert!(
            rust_lines * 2 <= python_lines * 3,
            "{name}: {rust_lines} lines of Rust for {python_lines} of Python"
        );
    }
}

/// `pl.program_id` in an `emit_pipeline` body is the pipeline's: the error
/// points at `step.program_id`.
#[test]
fn program_id_in_a_pipeline_body_points_at_the_step() {
    let ctx = Context::new();
    let f32 = Type::float32(&ctx);
    let rows = || BlockSpec::new(&[8, 128], &[Grid(0), Grid(1)]);
    let error = KernelSpec::new("inner_program_id")
        .grid(&[2], &[])
        .input(Arg::memref(&ctx, &[16, 128], f32, Any))
        .output(Arg::memref(&ctx, &[16, 128], f32, Any))
        .build(&ctx, |k| {
            let [x, o] = k.refs()?;
            emit_pipeline(&[2, 1], [rows()], [rows()]).call(k, [x, o], |k, _, r| {
                let i = k.astype(k.program_id(0)?, f32)?;
                r[1].store(k, k.add(r[0].load(k)?, i)?)
            })
        })
        .unwrap_err()
        .to_string();
    assert!(error.contains("use step.program_id(0)"), "{error}");
    assert!(!error.contains("KernelSpec::grid"), "{error}");
}

/// What Pallas refuses of the SparseCore idioms is refused with its reason:
/// an add without offsets, a scatter-add into HBM, a gather-add into
/// `VMEM_SHARED`, a subcore barrier in a TensorCore kernel.
#[test]
fn sparsecore_idioms_refuse_what_pallas_refuses() {
    use tpu_custom_call::mosaic::pallas::KernelArgs;
    let ctx = Context::new();
    let (f32, i32): (Type, Type) = (Type::float32(&ctx), IntegerType::new(&ctx, 32).into());
    let arg = |shape: &[i64], t, space| Arg::memref(&ctx, shape, t, space);
    let refused = |body: &dyn Fn(&KernelArgs) -> Result<(), BuildError>| {
        KernelSpec::vector_subcore_mesh("refused", 1, 16)
            .input(arg(&[16, 16], f32, Hbm))
            .output(arg(&[16, 16], f32, Hbm))
            .scratch(arg(&[16, 16], f32, Vmem))
            .scratch(arg(&[16], i32, Vmem))
            .scratch(arg(&[16, 16], f32, VmemShared))
            .build(&ctx, body)
            .unwrap_err()
            .to_string()
    };
    let e = refused(&|k| {
        let [x_hbm, _, x_vmem, _, _] = k.refs()?;
        k.sync_copy_add(x_hbm, &[], x_vmem, &[])
    });
    assert!(
        e.contains("sync_copy_add") && e.contains("without a ref of offsets"),
        "{e}"
    );
    let e = refused(&|k| {
        let [_, o_hbm, x_vmem, i_vmem, _] = k.refs()?;
        k.sync_copy_add(x_vmem, &[], o_hbm, &[at(i_vmem)])
    });
    assert!(e.contains("scatter-add from VMEM into HBM"), "{e}");
    let e = refused(&|k| {
        let [x_hbm, _, _, i_vmem, shared] = k.refs()?;
        k.sync_copy_add(x_hbm, &[at(i_vmem)], shared, &[])
    });
    assert!(e.contains("gather-add from HBM into VMEM_SHARED"), "{e}");
    let e = KernelSpec::new("tensor_core")
        .build(&ctx, |k| k.subcore_barrier())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("subcore_barrier") && e.contains("vector_subcore_mesh"),
        "{e}"
    );
}
