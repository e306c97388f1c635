//! Whole programs on XLA's CPU compiler through the PJRT CPU plugin
//! (`tpu_custom_call::pjrt`): JAX 0.12's kernel-free programs
//! (`tests/data/pjrt-cpu`, made by `scripts/pjrt/make_refs.py`) compiled and
//! run, their results against JAX's CPU results; a 4-partition SPMD program;
//! every element type through host buffers; bad arguments; XLA's refusals;
//! a custom call running a Rust FFI handler. Without the plugin (`make refs`
//! installs it) every test prints `SKIPPED` and passes.

use std::ffi::c_void;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use tpu_custom_call::exec::{self, Array, ElemType, npy};
use tpu_custom_call::pjrt::{self, CpuClient, PjrtError, ProgramOptions, ffi};

use crate::common::data_dir;

/// The plugin, or `None` after printing why the test is skipped.
fn plugin(test: &str) -> Option<PathBuf> {
    match pjrt::find_cpu_plugin(None) {
        Ok(path) => Some(path),
        Err(e) => {
            eprintln!("SKIPPED {test}: {e}");
            None
        }
    }
}

fn refs() -> PathBuf {
    data_dir().join("pjrt-cpu")
}

/// One reference program: its module, global inputs and JAX's results.
struct Case {
    name: String,
    module: Vec<u8>,
    partitions: usize,
    inputs: Vec<Array>,
    outputs: Vec<Array>,
    in_axes: Vec<Option<usize>>,
    out_axes: Vec<Option<usize>>,
}

fn cases() -> Vec<Case> {
    let dir = refs();
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("cases.json")).unwrap()).unwrap();
    let axes = |v: &serde_json::Value, n: usize| -> Vec<Option<usize>> {
        match v.as_array() {
            Some(list) => list
                .iter()
                .map(|a| a.as_u64().map(|a| a as usize))
                .collect(),
            None => vec![None; n],
        }
    };
    index["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let name = c["name"].as_str().unwrap().to_string();
            let read = |kind: &str, types: &serde_json::Value| -> Vec<Array> {
                types
                    .as_array()
                    .unwrap()
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        let elem = ElemType::parse(t.as_str().unwrap()).unwrap();
                        npy::read(&dir.join(format!("{name}.{kind}{i}.npy")), elem).unwrap()
                    })
                    .collect()
            };
            let inputs = read("in", &c["inputs"]);
            let outputs = read("out", &c["outputs"]);
            Case {
                module: std::fs::read(dir.join(format!("{name}.mlir"))).unwrap(),
                partitions: c["partitions"].as_u64().unwrap() as usize,
                in_axes: axes(&c["in_axes"], inputs.len()),
                out_axes: axes(&c["out_axes"], outputs.len()),
                inputs,
                outputs,
                name,
            }
        })
        .collect()
}

fn case(name: &str) -> Case {
    cases().into_iter().find(|c| c.name == name).unwrap()
}

/// Block `d` of `n` along axis 0 (row-major: a contiguous run).
fn block(a: &Array, d: usize, n: usize) -> Array {
    let rows = a.shape[0] / n;
    let per: usize = a.shape[1..].iter().product();
    let idx: Vec<usize> = (d * rows * per..(d + 1) * rows * per).collect();
    let mut shape = a.shape.clone();
    shape[0] = rows;
    let mut out = Array::filled(a.elem, &shape, 0.0);
    for (k, &i) in idx.iter().enumerate() {
        if a.elem.is_float() {
            out.data.set_f64(k, a.data.get_f64(i));
        } else {
            out.data.set_f64(k, a.data.get_i64(i) as f64);
        }
    }
    out
}

/// Per-device argument lists of a case: split along its axes, or whole.
fn device_args(c: &Case) -> Vec<Vec<Array>> {
    (0..c.partitions)
        .map(|d| {
            c.inputs
                .iter()
                .zip(&c.in_axes)
                .map(|(a, axis)| match axis {
                    Some(0) => block(a, d, c.partitions),
                    None => a.clone(),
                    Some(other) => panic!("split along axis {other} is not used here"),
                })
                .collect()
        })
        .collect()
}

/// The tolerance of a result type: XLA's CPU code of the plugin and of
/// jaxlib are built apart, so transcendental functions may differ by an
/// ulp or two; integers exact.
fn tolerance(elem: ElemType) -> (f64, f64) {
    match elem {
        ElemType::F64 => (1e-12, 1e-12),
        ElemType::F32 => (2e-6, 1e-6),
        ElemType::F16 => (1e-3, 1e-3),
        ElemType::BF16 => (8e-3, 8e-3),
        t if t.is_float() => (0.0, 0.0),
        _ => (0.0, 0.0),
    }
}

/// Compares a case's per-device results with JAX's global results.
fn check(c: &Case, results: &[Vec<Array>]) -> Vec<String> {
    let mut problems = Vec::new();
    assert_eq!(results.len(), c.partitions);
    for (o, want) in c.outputs.iter().enumerate() {
        for (d, device) in results.iter().enumerate() {
            let Some(got) = device.get(o) else {
                problems.push(format!("{}: device {d} has no output {o}", c.name));
                continue;
            };
            let want = match c.out_axes[o] {
                Some(0) => block(want, d, c.partitions),
                _ => want.clone(),
            };
            let (rtol, atol) = tolerance(want.elem);
            if let Err(m) = exec::compare(got, &want, rtol, atol) {
                problems.push(format!("{}: output {o} of device {d}: {m:?}", c.name));
            }
        }
    }
    problems
}

/// Every reference program (single-device and 4-partition SPMD, integers,
/// bf16, 0-d arrays, CHLO, control flow, every dtype) equals JAX's CPU result.
#[test]
fn programs_equal_jax_cpu_results() {
    let Some(plugin) = plugin("programs_equal_jax_cpu_results") else {
        return;
    };
    let mut problems = Vec::new();
    let all = cases();
    assert!(all.len() >= 9, "{} cases", all.len());
    for c in &all {
        let client = CpuClient::shared(&plugin, c.partitions.max(1)).unwrap();
        let options = ProgramOptions {
            num_partitions: c.partitions,
            ..ProgramOptions::default()
        };
        let executable = match client.compile(&c.module, &options) {
            Ok(e) => e,
            Err(e) => {
                problems.push(format!("{}: {e}", c.name));
                continue;
            }
        };
        assert_eq!(executable.num_outputs(), c.outputs.len(), "{}", c.name);
        assert_eq!(
            executable.num_parameters(),
            Some(c.inputs.len()),
            "{}",
            c.name
        );
        match executable.execute(&device_args(c)) {
            Ok(results) => problems.extend(check(c, &results)),
            Err(e) => problems.push(format!("{}: {e}", c.name)),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The plugin's device `d` runs partition `d`: JAX's `axis_index` program
/// (`stablehlo.partition_id` inside a manual computation) adds each
/// device's index to its block, as on JAX's CPU devices.
#[test]
fn device_order_is_partition_order() {
    let Some(plugin) = plugin("device_order_is_partition_order") else {
        return;
    };
    let c = case("partition_ids");
    let client = CpuClient::shared(&plugin, 4).unwrap();
    assert_eq!(client.device_ids(), &[0, 1, 2, 3]);
    let options = ProgramOptions {
        num_partitions: 4,
        ..ProgramOptions::default()
    };
    let results = client
        .compile(&c.module, &options)
        .unwrap()
        .execute(&device_args(&c))
        .unwrap();
    let problems = check(&c, &results);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    for (d, r) in results.iter().enumerate() {
        assert_eq!(r[0].data.get_i64(0), d as i64);
    }
}

/// One executable runs from several threads at once (`Executable` is
/// `Send + Sync`), each run with its own results.
#[test]
fn concurrent_executions() {
    let Some(plugin) = plugin("concurrent_executions") else {
        return;
    };
    let c = case("elementwise");
    let client = CpuClient::shared(&plugin, 1).unwrap();
    let executable = client
        .compile(&c.module, &ProgramOptions::default())
        .unwrap();
    std::thread::scope(|scope| {
        let runs: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(|| {
                    (0..10)
                        .map(|_| executable.execute(&device_args(&c)).unwrap())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for run in runs {
            for results in run.join().unwrap() {
                let problems = check(&c, &results);
                assert!(problems.is_empty(), "{}", problems.join("\n"));
            }
        }
    });
}

/// Every element type the executor has goes to XLA and back bit-exactly
/// (f64, f32, bf16, f16, three f8s, signed and unsigned integers, bool).
#[test]
fn every_dtype_round_trips() {
    let Some(plugin) = plugin("every_dtype_round_trips") else {
        return;
    };
    let c = case("dtypes");
    assert_eq!(c.inputs.len(), 16);
    let client = CpuClient::shared(&plugin, 1).unwrap();
    let results = client
        .compile(&c.module, &ProgramOptions::default())
        .unwrap()
        .execute(&device_args(&c))
        .unwrap();
    for (o, (got, want)) in results[0].iter().zip(&c.outputs).enumerate() {
        assert_eq!(got, want, "output {o} ({})", want.elem);
    }
}

/// Wrong argument count, shape, element type and device count are errors
/// that name the argument; nothing runs.
#[test]
fn bad_arguments_name_the_argument() {
    let Some(plugin) = plugin("bad_arguments_name_the_argument") else {
        return;
    };
    let c = case("elementwise");
    let client = CpuClient::shared(&plugin, 1).unwrap();
    let executable = client
        .compile(&c.module, &ProgramOptions::default())
        .unwrap();
    let message = |args: Vec<Vec<Array>>| match executable.execute(&args) {
        Err(PjrtError::Argument(m)) => m,
        other => panic!("expected an argument error, got {other:?}"),
    };
    let (x, y) = (c.inputs[0].clone(), c.inputs[1].clone());
    assert_eq!(
        message(vec![vec![x.clone()]]),
        "1 argument(s) given, the program takes 2"
    );
    let narrow = Array::filled(ElemType::F32, &[8, 127], 1.0);
    assert_eq!(
        message(vec![vec![x.clone(), narrow]]),
        "argument 1: f32[8,127] given, the program takes f32[8,128]"
    );
    let ints = Array::filled(ElemType::Int(32), &[8, 128], 1.0);
    assert_eq!(
        message(vec![vec![ints, y.clone()]]),
        "argument 0: i32[8,128] given, the program takes f32[8,128]"
    );
    assert_eq!(
        message(vec![vec![x.clone(), y.clone()], vec![x.clone(), y.clone()]]),
        "2 argument list(s) for a program on 1 device(s): give one list per device"
    );
    let semaphore = Array::filled(ElemType::Semaphore, &[8, 128], 0.0);
    match executable.execute(&[vec![semaphore, y.clone()]]) {
        Err(PjrtError::Unsupported(m)) => assert!(m.starts_with("argument 0: "), "{m}"),
        other => panic!("{other:?}"),
    }
    // The sharded program: per-device shapes, named with the device.
    let s = case("sharded");
    let client4 = CpuClient::shared(&plugin, 4).unwrap();
    let options = ProgramOptions {
        num_partitions: 4,
        ..ProgramOptions::default()
    };
    let sharded = client4.compile(&s.module, &options).unwrap();
    let types = sharded.parameter_types().unwrap();
    assert_eq!(types[0].text(), "tensor<4x8xf32>");
    assert_eq!(types[1].text(), "tensor<8x8xf32>");
    let results: Vec<String> = sharded
        .result_types()
        .unwrap()
        .iter()
        .map(|t| t.text())
        .collect();
    assert_eq!(results, ["tensor<4x8xf32>", "tensor<8xf32>"]);
    let mut args = device_args(&s);
    args[2][0] = s.inputs[0].clone();
    match sharded.execute(&args) {
        Err(PjrtError::Argument(m)) => assert_eq!(
            m,
            "argument 0 of device 2: f32[16,8] given, the program takes f32[4,8]"
        ),
        other => panic!("{other:?}"),
    }
    // Still runs after the refusals.
    let results = executable.execute(&[vec![x, y]]).unwrap();
    assert!(check(&c, &results).is_empty());
    match client.compile(&s.module, &options) {
        Err(PjrtError::Argument(m)) => assert_eq!(m, "4 partitions on a client of 1 CPU devices"),
        other => panic!("{other:?}"),
    }
}

/// JAX's serialized export of a program (StableHLO bytecode, a portable
/// artifact) compiles and computes what the text form does.
#[test]
fn exported_bytecode_runs() {
    let Some(plugin) = plugin("exported_bytecode_runs") else {
        return;
    };
    let c = case("elementwise");
    let bytecode = std::fs::read(refs().join("elementwise.mlirbc")).unwrap();
    assert!(bytecode.starts_with(b"ML\xefR"));
    let client = CpuClient::shared(&plugin, 1).unwrap();
    let results = client
        .compile(&bytecode, &ProgramOptions::default())
        .unwrap()
        .execute(&device_args(&c))
        .unwrap();
    let problems = check(&c, &results);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A program whose results include a tuple is refused with a clear
/// message (JAX's `@main` returns arrays; XLA flattens a tuple result into
/// outputs, measured: 2 for `tuple<tensor, tensor>`, and refuses a nested
/// one).
#[test]
fn tuple_results_are_refused() {
    let Some(plugin) = plugin("tuple_results_are_refused") else {
        return;
    };
    let client = CpuClient::shared(&plugin, 1).unwrap();
    let module = "func.func @main(%x: tensor<2xf32>) -> (tuple<tensor<2xf32>, tensor<2xf32>>, tensor<2xf32>) {\n\
        %0 = stablehlo.tuple %x, %x : tuple<tensor<2xf32>, tensor<2xf32>>\n\
        return %0, %x : tuple<tensor<2xf32>, tensor<2xf32>>, tensor<2xf32>\n}";
    let single = "func.func @main(%x: tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>> {\n\
        %0 = stablehlo.tuple %x, %x : tuple<tensor<2xf32>, tensor<2xf32>>\n\
        return %0 : tuple<tensor<2xf32>, tensor<2xf32>>\n}";
    for module in [module, single] {
        match client.compile(module.as_bytes(), &ProgramOptions::default()) {
            Err(PjrtError::Unsupported(m)) => assert_eq!(
                m,
                "@main returns a tuple: not supported (JAX's @main returns arrays; XLA would \
                 flatten a tuple result into separate outputs)"
            ),
            other => panic!("{other:?}"),
        }
    }
}

/// A module XLA refuses is an error with XLA's message, not an abort.
#[test]
fn refused_modules_give_xlas_message() {
    let Some(plugin) = plugin("refused_modules_give_xlas_message") else {
        return;
    };
    let client = CpuClient::shared(&plugin, 1).unwrap();
    let refusal = |module: &str| match client.compile(module.as_bytes(), &ProgramOptions::default())
    {
        Err(PjrtError::Compile(m)) => m,
        other => panic!("expected XLA's refusal, got {other:?}"),
    };
    // Not MLIR.
    let m = refusal("func.func @main( {");
    assert!(!m.is_empty());
    // A shape error the StableHLO verifier finds.
    let m = refusal(
        "func.func @main(%x: tensor<4xf32>, %y: tensor<5xf32>) -> tensor<4xf32> {\n\
         %0 = stablehlo.add %x, %y : (tensor<4xf32>, tensor<5xf32>) -> tensor<4xf32>\n\
         return %0 : tensor<4xf32>\n}",
    );
    assert!(m.contains("stablehlo.add"), "{m}");
    // A custom call nothing implements.
    let m = refusal(
        "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n\
         %0 = stablehlo.custom_call @tcc_test_nothing_registered(%x) {api_version = 4 : i32} : (tensor<4xf32>) -> tensor<4xf32>\n\
         return %0 : tensor<4xf32>\n}",
    );
    assert!(m.contains("tcc_test_nothing_registered"), "{m}");
    let display = PjrtError::Compile(m.clone()).to_string();
    assert_eq!(display, format!("XLA refused the module: {m}"));
}

static ADD_ONE_CALLS: AtomicUsize = AtomicUsize::new(0);

/// The test handler: `y = x + 1` on an f32 buffer (a panic becomes an error).
unsafe extern "C" fn add_one(frame: *mut c_void) -> *mut c_void {
    let frame = frame.cast::<ffi::CallFrame>();
    // SAFETY: XLA passes a live call frame.
    if unsafe { ffi::answer_metadata(frame) } {
        return std::ptr::null_mut();
    }
    let result = std::panic::catch_unwind(|| {
        // SAFETY: a live frame of a running call.
        let frame = unsafe { &*frame };
        // SAFETY: as above.
        let (Some(x), Some(y)) = (unsafe { frame.arg(0) }, unsafe { frame.ret(0) }) else {
            return Err("add_one: one operand and one result".to_string());
        };
        if x.dtype != ffi::DataType::F32 || y.dtype != ffi::DataType::F32 {
            return Err(format!("add_one: f32 only, got {:?}", x.dtype));
        }
        // SAFETY: XLA's buffers, live for the call; the result is ours to write.
        let mut array = unsafe { x.to_array() }?;
        for i in 0..array.len() {
            array.data.set_f64(i, array.data.get_f64(i) + 1.0);
        }
        // SAFETY: as above.
        unsafe { y.write_array(&array) }?;
        ADD_ONE_CALLS.fetch_add(1, Ordering::SeqCst);
        Ok(())
    });
    let message = match result {
        Ok(Ok(())) => return std::ptr::null_mut(),
        Ok(Err(m)) => m,
        Err(_) => "add_one panicked".to_string(),
    };
    // SAFETY: the live frame.
    unsafe { ffi::error(frame, ffi::ErrorCode::Internal, &message) }
}

/// A handler that always fails, naming itself.
unsafe extern "C" fn always_fails(frame: *mut c_void) -> *mut c_void {
    let frame = frame.cast::<ffi::CallFrame>();
    // SAFETY: XLA passes a live call frame.
    unsafe {
        if ffi::answer_metadata(frame) {
            return std::ptr::null_mut();
        }
        ffi::error(
            frame,
            ffi::ErrorCode::InvalidArgument,
            "tcc_test_fails: refused on purpose",
        )
    }
}

/// A typed FFI handler written in Rust and registered through the plugin's
/// FFI extension runs for `stablehlo.custom_call @name(...) {api_version =
/// 4}`, on XLA's buffers, once per execution; its error becomes the
/// execution's error with its message.
#[test]
fn ffi_handlers_run_custom_calls() {
    let Some(plugin) = plugin("ffi_handlers_run_custom_calls") else {
        return;
    };
    let client = CpuClient::shared(&plugin, 1).unwrap();
    client
        .register_ffi_handler("tcc_test_add_one", add_one)
        .unwrap();
    // Registering again with the same handler is a no-op.
    client
        .register_ffi_handler("tcc_test_add_one", add_one)
        .unwrap();
    client
        .register_ffi_handler("tcc_test_fails", always_fails)
        .unwrap();
    let module = "func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {\n\
        %0 = stablehlo.custom_call @tcc_test_add_one(%x) {api_version = 4 : i32} : (tensor<2x4xf32>) -> tensor<2x4xf32>\n\
        %1 = stablehlo.multiply %0, %0 : tensor<2x4xf32>\n\
        return %1 : tensor<2x4xf32>\n}";
    let executable = client
        .compile(module.as_bytes(), &ProgramOptions::default())
        .unwrap();
    let mut x = Array::filled(ElemType::F32, &[2, 4], 0.0);
    for i in 0..8 {
        x.data.set_f64(i, i as f64 * 0.5 - 1.0);
    }
    let before = ADD_ONE_CALLS.load(Ordering::SeqCst);
    let results = executable.execute(&[vec![x.clone()]]).unwrap();
    assert_eq!(ADD_ONE_CALLS.load(Ordering::SeqCst), before + 1);
    for i in 0..8 {
        let v = x.data.get_f64(i) + 1.0;
        assert_eq!(results[0][0].data.get_f64(i), v * v, "element {i}");
    }
    let failing = "func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {\n\
        %0 = stablehlo.custom_call @tcc_test_fails(%x) {api_version = 4 : i32} : (tensor<3xf32>) -> tensor<3xf32>\n\
        return %0 : tensor<3xf32>\n}";
    let executable = client
        .compile(failing.as_bytes(), &ProgramOptions::default())
        .unwrap();
    match executable.execute(&[vec![Array::filled(ElemType::F32, &[3], 1.0)]]) {
        Err(PjrtError::Execute(m)) => {
            assert!(m.contains("tcc_test_fails: refused on purpose"), "{m}")
        }
        other => panic!("{other:?}"),
    }
}

static RUN_IDS: std::sync::Mutex<Vec<(i64, i32)>> = std::sync::Mutex::new(Vec::new());

/// A handler that adds its device's ordinal to its operand and records
/// (run id, ordinal).
unsafe extern "C" fn add_ordinal(frame: *mut c_void) -> *mut c_void {
    let frame = frame.cast::<ffi::CallFrame>();
    // SAFETY: XLA passes a live call frame.
    unsafe {
        if ffi::answer_metadata(frame) {
            return std::ptr::null_mut();
        }
        let (Some(ordinal), Some(run)) = (ffi::device_ordinal(frame), ffi::run_id(frame)) else {
            return ffi::error(frame, ffi::ErrorCode::Internal, "no ordinal or run id");
        };
        RUN_IDS.lock().unwrap().push((run, ordinal));
        let (Some(x), Some(y)) = ((*frame).arg(0), (*frame).ret(0)) else {
            return ffi::error(frame, ffi::ErrorCode::Internal, "one operand, one result");
        };
        let mut a = match x.to_array() {
            Ok(a) => a,
            Err(m) => return ffi::error(frame, ffi::ErrorCode::Internal, &m),
        };
        for i in 0..a.len() {
            a.data
                .set_f64(i, a.data.get_i64(i) as f64 + f64::from(ordinal));
        }
        match y.write_array(&a) {
            Ok(()) => std::ptr::null_mut(),
            Err(m) => ffi::error(frame, ffi::ErrorCode::Internal, &m),
        }
    }
}

/// In a 4-partition program a custom call runs once per device, each call
/// knowing its device (the partition) and sharing one run id per
/// execution, different across executions.
#[test]
fn ffi_handlers_know_their_device_and_run() {
    let Some(plugin) = plugin("ffi_handlers_know_their_device_and_run") else {
        return;
    };
    let client = CpuClient::shared(&plugin, 4).unwrap();
    client
        .register_ffi_handler("tcc_test_add_ordinal", add_ordinal)
        .unwrap();
    let module = "module attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {\n\
        func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n\
        %0 = stablehlo.custom_call @tcc_test_add_ordinal(%x) {api_version = 4 : i32} : (tensor<3xi32>) -> tensor<3xi32>\n\
        return %0 : tensor<3xi32>\n}\n}";
    let options = ProgramOptions {
        num_partitions: 4,
        ..ProgramOptions::default()
    };
    let executable = client.compile(module.as_bytes(), &options).unwrap();
    let mut x = Array::filled(ElemType::Int(32), &[3], 0.0);
    x.data.set_f64(1, 10.0);
    let args = vec![vec![x]; 4];
    RUN_IDS.lock().unwrap().clear();
    for _ in 0..2 {
        let results = executable.execute(&args).unwrap();
        for (d, r) in results.iter().enumerate() {
            let got: Vec<i64> = (0..3).map(|i| r[0].data.get_i64(i)).collect();
            assert_eq!(got, [d as i64, 10 + d as i64, d as i64], "device {d}");
        }
    }
    let mut seen = RUN_IDS.lock().unwrap().clone();
    seen.sort();
    assert_eq!(seen.len(), 8, "{seen:?}");
    let ordinals: Vec<i32> = seen.iter().map(|&(_, o)| o).collect();
    assert_eq!(ordinals, [0, 1, 2, 3, 0, 1, 2, 3], "{seen:?}");
    assert!(seen[..4].iter().all(|&(r, _)| r == seen[0].0), "{seen:?}");
    assert!(seen[4..].iter().all(|&(r, _)| r == seen[4].0), "{seen:?}");
    assert_ne!(seen[0].0, seen[4].0);
}

/// A missing plugin says how to install it; a file that is not a plugin is
/// an error naming it.
#[test]
fn missing_plugin_says_how_to_install() {
    let missing = Path::new("/nonexistent/xla_cpu_pjrt.so");
    let e = pjrt::find_cpu_plugin(Some(missing)).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("/nonexistent/xla_cpu_pjrt.so"), "{text}");
    assert!(
        text.contains("scripts/pjrt/install-cpu-plugin.sh"),
        "{text}"
    );
    let not_a_plugin = refs().join("cases.json");
    match CpuClient::new(&not_a_plugin, 1) {
        Err(PjrtError::Plugin(m)) => assert!(m.contains("cases.json"), "{m}"),
        other => panic!("{other:?}"),
    }
    match CpuClient::new(&not_a_plugin, 0) {
        Err(PjrtError::Argument(m)) => assert_eq!(m, "0 CPU devices: a client has 1 to 1024"),
        other => panic!("{other:?}"),
    }
}

/// The costs, printed: plugin load and client creation, XLA's compile of a
/// small module, and the overhead of one execution of it.
#[test]
fn timings() {
    let Some(plugin) = plugin("timings") else {
        return;
    };
    let start = Instant::now();
    let client = CpuClient::new(&plugin, 1).unwrap();
    let create = start.elapsed();
    let c = case("elementwise");
    let executable = client
        .compile(&c.module, &ProgramOptions::default())
        .unwrap();
    let args = device_args(&c);
    executable.execute(&args).unwrap();
    let runs = 50;
    let start = Instant::now();
    for _ in 0..runs {
        executable.execute(&args).unwrap();
    }
    let per_run = start.elapsed() / runs;
    let sc = case("scalars");
    let scalars = client
        .compile(&sc.module, &ProgramOptions::default())
        .unwrap();
    let sargs = device_args(&sc);
    scalars.execute(&sargs).unwrap();
    let start = Instant::now();
    for _ in 0..runs {
        scalars.execute(&sargs).unwrap();
    }
    let per_scalar_run = start.elapsed() / runs;
    let start = Instant::now();
    let client4 = CpuClient::new(&plugin, 4).unwrap();
    let create4 = start.elapsed();
    let s = case("sharded");
    let options = ProgramOptions {
        num_partitions: 4,
        ..ProgramOptions::default()
    };
    let sharded = client4.compile(&s.module, &options).unwrap();
    let args4 = device_args(&s);
    sharded.execute(&args4).unwrap();
    let start = Instant::now();
    for _ in 0..runs {
        sharded.execute(&args4).unwrap();
    }
    let per_run4 = start.elapsed() / runs;
    eprintln!(
        "pjrt cpu (plugin API {:?}, FFI handlers report {:?}): plugin load + client create {:.1} ms \
         (4 devices: {:.1} ms), compile {:.1} ms (4-partition: {:.1} ms), execute (8x128 f32 \
         elementwise, 2 inputs) {:.0} us per run (two 0-d inputs: {:.0} us; 4-partition 16x8 matmul: {:.0} us)",
        client.plugin_api_version(),
        ffi::reported_version(),
        create.as_secs_f64() * 1e3,
        create4.as_secs_f64() * 1e3,
        executable.compile_time().as_secs_f64() * 1e3,
        sharded.compile_time().as_secs_f64() * 1e3,
        per_run.as_secs_f64() * 1e6,
        per_scalar_run.as_secs_f64() * 1e6,
        per_run4.as_secs_f64() * 1e6
    );
}

/// Resident memory of this process, in bytes (`/proc/self/statm`).
fn resident() -> Option<usize> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: usize = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// Executions free what they make: resident memory does not grow with the
/// number of runs (a leaked input or output buffer would add 12 KiB a run,
/// 12 MiB over the runs here), nor with executables compiled and dropped.
/// Measured in a process of its own (this test binary running only
/// [`leak_probe`]): resident memory is the whole process's, and other tests
/// run beside this one.
#[test]
fn runs_do_not_leak() {
    if plugin("runs_do_not_leak").is_none() {
        return;
    }
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "pjrt_cpu::leak_probe",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(LEAK_PROBE_ENV, "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{stderr}");
    let line = stderr
        .lines()
        .chain(stdout.lines())
        .find(|l| l.starts_with("resident: "));
    eprintln!("{}", line.expect("the probe did not measure"));
}

const LEAK_PROBE_ENV: &str = "TCC_PJRT_LEAK_PROBE";

/// The measurement of [`runs_do_not_leak`]; does nothing unless that test
/// started it.
#[test]
fn leak_probe() {
    if std::env::var_os(LEAK_PROBE_ENV).is_none() {
        return;
    }
    let Some(plugin) = plugin("leak_probe") else {
        return;
    };
    let c = case("elementwise");
    let client = CpuClient::new(&plugin, 1).unwrap();
    let executable = client
        .compile(&c.module, &ProgramOptions::default())
        .unwrap();
    let args = device_args(&c);
    for _ in 0..100 {
        executable.execute(&args).unwrap();
    }
    let Some(before) = resident() else {
        eprintln!("SKIPPED runs_do_not_leak: no /proc/self/statm");
        return;
    };
    for _ in 0..1000 {
        executable.execute(&args).unwrap();
    }
    let after_runs = resident().unwrap();
    // The first compiles fill XLA's caches (3 MiB, measured); later ones
    // add nothing (88 KiB over 60, measured).
    for _ in 0..10 {
        drop(
            client
                .compile(&c.module, &ProgramOptions::default())
                .unwrap(),
        );
    }
    let warm = resident().unwrap();
    for _ in 0..20 {
        drop(
            client
                .compile(&c.module, &ProgramOptions::default())
                .unwrap(),
        );
    }
    let after_compiles = resident().unwrap();
    eprintln!(
        "resident: {} KiB, +{} KiB after 1000 runs, +{} KiB after 20 compiles (warm)",
        before / 1024,
        after_runs.saturating_sub(before) / 1024,
        after_compiles.saturating_sub(warm) / 1024
    );
    assert!(after_runs < before + 4 * 1024 * 1024);
    assert!(after_compiles < warm + 4 * 1024 * 1024);
}
