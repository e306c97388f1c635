//! Issue 51's collective examples (`examples/pallas_examples/collective.rs`):
//! each Rust kernel is `diff`-equal to JAX 0.12's lowering of the same
//! Python Pallas kernel under `jax.shard_map` over 4 devices
//! (`scripts/jaxref/authoring_collective.py`, run here when the jaxref venv
//! exists), computes on 4 CPU devices of the executor (race detection on, under
//! every DMA timing) what JAX's Pallas TPU
//! interpret mode computes on 4 CPU devices from the script's seeded
//! inputs, and compiles with libtpu for 4 devices (v5e, v6e, v7x). Misused
//! collective idioms are clear errors.

use std::path::PathBuf;
use std::sync::OnceLock;

use super::common;
use crate::compile::{LIBTPU, libtpu, options};
use tpu_custom_call::compile::Compiler;
use tpu_custom_call::diff::DiffOptions;
use tpu_custom_call::exec::{
    Array, Data, DmaTiming, ElemType, Execution, RunOptions, compare, npy,
};
use tpu_custom_call::melior::ir::Type;
use tpu_custom_call::mosaic::attrs::MemorySpace;
use tpu_custom_call::mosaic::pallas::{Arg, DeviceId, KernelSpec};
use tpu_custom_call::target::Chip;
use tpu_custom_call::testing::calls_diff;
use tpu_custom_call::{Context, decode};

#[path = "../../examples/pallas_examples/collective.rs"]
mod collective;

/// The devices of the examples' mesh.
const DEVICES: usize = 4;

/// The script's output (JAX's module per example) and the folder of its
/// inputs and interpret-mode outputs; `None` without the jaxref venv.
fn jax_examples(test: &str) -> Option<&'static (String, PathBuf)> {
    static RUN: OnceLock<Option<(String, PathBuf)>> = OnceLock::new();
    let python = common::jaxref_python(test)?;
    RUN.get_or_init(|| {
        let root = env!("CARGO_MANIFEST_DIR");
        let refs = std::env::temp_dir().join(format!("tcc-collective-{}", std::process::id()));
        std::fs::create_dir_all(&refs).unwrap();
        let output = std::process::Command::new(&python)
            .arg(format!("{root}/scripts/jaxref/authoring_collective.py"))
            .arg("--refs")
            .arg(&refs)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "authoring_collective.py: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        Some((String::from_utf8(output.stdout).unwrap(), refs))
    })
    .as_ref()
}

/// JAX's module of example `name` in the script's output.
fn jax_module<'t>(text: &'t str, name: &str) -> &'t str {
    let start = text
        .find(&format!("// ----- {name}\n"))
        .unwrap_or_else(|| panic!("no `{name}` in the script's output"));
    let rest = &text[start..];
    let body = &rest[rest.find('\n').unwrap() + 1..];
    &body[..body.find("// ----- ").unwrap_or(body.len())]
}

#[test]
fn collective_examples_equal_jax_lowering_of_their_python() {
    let Some((text, _)) = jax_examples("collective_examples_equal_jax_lowering_of_their_python")
    else {
        return;
    };
    // JAX's call sits in the `sdy.manual_computation` of `shard_map`, ours
    // in @main: what feeds the operands is the program's, not the call's.
    let options = DiffOptions {
        ignore: vec!["operands".to_string()],
        ..Default::default()
    };
    let mut failures = common::Failures::new();
    for name in collective::EXAMPLES {
        let ours = collective::lowered_module(name).unwrap();
        match calls_diff(jax_module(text, name), &ours, &options) {
            Ok(report) if report.is_equal() => {}
            Ok(report) => failures.fail(format!("{name}: differs from JAX:\n{report}")),
            Err(e) => failures.fail(format!("{name}: {e}")),
        }
    }
    failures.assert_none();
}

/// Block `d` of `n` of a 2-D f32 array along `axis` (`PartitionSpec("x")`
/// is axis 0, `PartitionSpec(None, "x")` axis 1).
fn shard(a: &Array, axis: usize, d: usize, n: usize) -> Array {
    let (rows, cols) = (a.shape[0], a.shape[1]);
    let values = a.to_f64_vec();
    let (r, c) = if axis == 0 {
        (d * rows / n..(d + 1) * rows / n, 0..cols)
    } else {
        (0..rows, d * cols / n..(d + 1) * cols / n)
    };
    let shape = vec![r.len(), c.len()];
    let data: Vec<f32> = r
        .flat_map(|i| c.clone().map(move |j| (i, j)))
        .map(|(i, j)| values[i * cols + j] as f32)
        .collect();
    Array::new(ElemType::F32, shape, Data::F32(data))
}

#[test]
fn collective_examples_compute_what_interpret_mode_computes_on_4_devices() {
    let Some((_, refs)) =
        jax_examples("collective_examples_compute_what_interpret_mode_computes_on_4_devices")
    else {
        return;
    };
    // (example, the shard axis of each input, of the output)
    for (name, in_axes, out_axis) in [
        ("ring_matmul", &[0, 1][..], 1),
        ("ring_logical", &[0][..], 0),
        ("axis_offset", &[0][..], 0),
    ] {
        let read = |file: String| npy::read(&refs.join(file), ElemType::F32).unwrap();
        let inputs: Vec<Array> = (0..in_axes.len())
            .map(|i| read(format!("{name}_in{i}.npy")))
            .collect();
        let expected = read(format!("{name}_out.npy"));
        let per_device: Vec<Vec<Array>> = (0..DEVICES)
            .map(|d| {
                (inputs.iter().zip(in_axes))
                    .map(|(a, &axis)| shard(a, axis, d, DEVICES))
                    .collect()
            })
            .collect();
        let module = collective::lowered_module(name).unwrap();
        let ctx = Context::new();
        let calls = decode::decode_module(&ctx, module.as_bytes(), name).unwrap();
        let execution = Execution::of_call(&calls[0]).unwrap();
        // Race-free and fully written whenever the DMAs copy.
        for dma in [DmaTiming::AtStart, DmaTiming::AtWait, DmaTiming::Random(51)] {
            let run = RunOptions {
                dma,
                detect_races: true,
                detect_uninitialized: true,
                ..Default::default()
            };
            let results = execution
                .run_devices(&per_device, &run)
                .unwrap_or_else(|e| panic!("{name} ({dma:?}): {e}"));
            for (d, result) in results.iter().enumerate() {
                let want = shard(&expected, out_axis, d, DEVICES);
                // f32 matmuls summed in another order than XLA's.
                compare(&result[0], &want, 1e-5, 1e-4)
                    .unwrap_or_else(|e| panic!("{name}, device {d} ({dma:?}): {e}"));
            }
        }
    }
}

#[test]
fn collective_examples_compile_with_libtpu_for_4_devices() {
    let test = "collective_examples_compile_with_libtpu_for_4_devices";
    let Some(libtpu) = libtpu(test) else {
        return;
    };
    let _guard = LIBTPU.lock().unwrap_or_else(|e| e.into_inner());
    for chip in [Chip::V5e, Chip::V6e, Chip::V7x] {
        let mut compiler = Compiler::new(options(chip, DEVICES, &libtpu)).unwrap();
        for name in collective::EXAMPLES {
            let module = collective::lowered_module(name).unwrap();
            let verdict = compiler.compile(module.as_bytes()).unwrap();
            assert!(verdict.is_ok(), "{name} on {chip}: {verdict:?}");
        }
    }
}

/// An unknown mesh axis, mesh coordinates of the wrong count, a device id
/// without a mesh and a non-positive multiple: errors naming the fix, no
/// module.
#[test]
fn misused_collective_idioms_are_clear_errors() {
    let ctx = Context::new();
    let x = || Arg::memref(&ctx, &[8, 128], Type::float32(&ctx), MemorySpace::Any);
    let dma = tpu_custom_call::mosaic::attrs::dma_semaphore_type(&ctx);
    let sems = || Arg::memref(&ctx, &[2], dma, MemorySpace::SemaphoreMem);
    let spec = |mesh: &[(&str, i64)]| {
        KernelSpec::new("k")
            .mesh(mesh)
            .input(x())
            .output(x())
            .scratch(sems())
    };
    type Mesh<'m> = &'m [(&'m str, i64)];
    let cases: [(Mesh, &str, usize); 4] = [
        (
            &[("x", 4)],
            "no mesh axis `y`: the kernel's mesh axes are [\"x\"]",
            0,
        ),
        (
            &[("x", 2), ("y", 2)],
            "Number of device ids must match the number of mesh axes, but got 1 ids for a 2D mesh",
            1,
        ),
        (
            &[],
            "Number of device ids must match the number of mesh axes, but got 1 ids for a 0D mesh",
            1,
        ),
        (&[("x", 4)], "multiple 0: give a positive multiple", 2),
    ];
    for (mesh, message, case) in cases {
        let err = spec(mesh)
            .build(&ctx, |k| {
                let [x_ref, o_ref, sems] = k.refs()?;
                match case {
                    0 => k.axis_index("y").map(|_| ()),
                    1 => {
                        let copy =
                            k.async_remote_copy(x_ref, &[], o_ref, &[], sems, sems, k.i32(1));
                        copy.start(k)
                    }
                    _ => k.multiple_of(k.i32(8), 0).map(|_| ()),
                }
            })
            .unwrap_err()
            .to_string();
        assert!(err.contains(message), "{mesh:?}: {err}");
    }
    // LOGICAL ids need no mesh.
    let module = spec(&[]).build(&ctx, |k| {
        let [x_ref, o_ref, sems] = k.refs()?;
        let copy = k.async_remote_copy(x_ref, &[], o_ref, &[], sems, sems, DeviceId::logical(1));
        copy.start(k)
    });
    assert!(module.is_ok());
}

/// `diff --run --devices 4 --ignore operands`: JAX's ring module (the `remote_dma_collective`
/// golden: MESH ids, collective id 7) against the collective example's
/// LOGICAL ring, then against its kernel shifting the other way: equal,
/// then a difference naming the device; without `--devices` the ring
/// reaches a device the run lacks (an error suggesting `--devices`).
#[test]
fn diff_run_compares_multi_device_calls_per_device() {
    let golden = common::goldens_dir().join("remote_dma_collective");
    let jax = golden.join("module.mlir");
    let dir = std::env::temp_dir().join(format!("tcc-diff-devices-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    std::fs::write(
        path("ours.mlir"),
        collective::lowered_module("ring_logical").unwrap(),
    )
    .unwrap();
    // The golden's kernel to the left neighbour (+3 mod 4), emitted.
    let kernel = std::fs::read_to_string(golden.join("kernel.mlir")).unwrap();
    let right = "%c1_i32_0 = arith.constant 1 : i32";
    assert!(kernel.contains(right));
    let kernel = kernel.replace(right, "%c1_i32_0 = arith.constant 3 : i32");
    std::fs::write(path("left.kernel.mlir"), kernel).unwrap();
    std::fs::write(
        path("left.json"),
        r#"{"kernel_name": "kernel", "collective_id": 7}"#,
    )
    .unwrap();
    let t = "tensor<8x128xf32>";
    let (code, _, stderr) = common::run_cli(&[
        "emit",
        &path("left.kernel.mlir"),
        "--signature",
        &format!("({t}) -> {t}"),
        "--params",
        &path("left.json"),
        "-o",
        &path("left.mlir"),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let run = |b: &str, devices: Option<&str>| {
        // JAX's call is in shard_map's region, ours in @main.
        let mut args = vec!["diff", "--run", "--ignore", "operands", b];
        args.insert(1, jax.to_str().unwrap());
        args.extend(devices.map(|n| ["--devices", n]).iter().flatten());
        let (code, stdout, stderr) = common::run_cli(&args);
        (code, String::from_utf8(stdout).unwrap(), stderr)
    };
    let (code, stdout, stderr) = run(&path("ours.mlir"), Some("4"));
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stderr.contains("on 4 devices"), "{stderr}");
    let (code, stdout, stderr) = run(&path("left.mlir"), Some("4"));
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("result 0 of device 0 differs"), "{stdout}");
    let (code, stdout, stderr) = run(&path("ours.mlir"), None);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains("device id 1 is out of range: the run has 1 device(s) (`--devices`)"),
        "{stderr}"
    );
    let (code, _, stderr) = run(&path("ours.mlir"), Some("0"));
    assert_eq!(code, 2);
    assert!(stderr.contains("--devices must be at least 1"), "{stderr}");
}
