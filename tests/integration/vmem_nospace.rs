//! Kernels as a hand-written client writes them (a plain `func @main` over
//! memrefs without memory space, `dimension_semantics = []`, no grid, no
//! windows): our scoped-VMEM verdict against libtpu 0.0.50.1's
//! (`tests/data/vmem-sweep/nospace.json`, made by
//! `scripts/vmem-sweep/nospace_sweep.py`; compiled again here where libtpu is
//! installed), and what `validate` says it checked.

use serde_json::Value;
use tpu_custom_call::melior::ir::Type;
use tpu_custom_call::validate::{self, Signature, ValidateOptions};
use tpu_custom_call::{Chip, Context, Kernel, Params};

use crate::common::*;

/// The sweep's kernel (`nospace_sweep.py`'s `kernel`, the same text).
fn kernel(body: &str, dtype: &str, rows: i64) -> String {
    let grid = body == "add_grid";
    let ty = format!("memref<{rows}x1024x{dtype}>");
    let vec = format!("vector<{rows}x1024x{dtype}>");
    let n = if body == "copy" { 4 } else { 3 };
    let (pre, pre_ty) = if grid {
        ("%i: i32, ", "i32, ")
    } else {
        ("", "")
    };
    let args: Vec<String> = (0..n).map(|k| format!("%a{k}: {ty}")).collect();
    let load = |k: usize| {
        format!("    %v{k} = \"vector.load\"(%a{k}, %c, %c) : ({ty}, index, index) -> {vec}\n")
    };
    let store = |v: &str, k: usize| {
        format!("    \"vector.store\"(%{v}, %a{k}, %c, %c) : ({vec}, {ty}, index, index) -> ()\n")
    };
    let ops = if body == "copy" {
        format!("{}{}{}{}", load(0), load(1), store("v0", 2), store("v1", 3))
    } else {
        format!(
            "{}{}    %s = \"arith.addf\"(%v0, %v1) <{{fastmath = #arith.fastmath<none>}}> : ({vec}, {vec}) -> {vec}\n{}",
            load(0),
            load(1),
            store("s", 2)
        )
    };
    let (attrs, module) = match body {
        "bare" => (String::new(), "\"builtin.module\"() ({"),
        "add_grid" => {
            let win = format!(
                "{{transform_indices = @transform_0, window_bounds = array<i64: {rows}, 1024>}}"
            );
            (
                format!(
                    " {{dimension_semantics = [#tpu.dimension_semantics<parallel>], iteration_bounds = \
                     array<i64: 4>, window_params = [{win}, {win}, {win}]}}"
                ),
                "\"builtin.module\"() <{sym_name = \"main\"}> ({",
            )
        }
        _ => (
            " {dimension_semantics = []}".to_string(),
            "\"builtin.module\"() <{sym_name = \"main\"}> ({",
        ),
    };
    let transform = if grid {
        "  \"func.func\"() <{function_type = (i32) -> (i32, i32), sym_name = \"transform_0\"}> ({\n  \
         ^bb0(%g: i32):\n    %z = \"arith.constant\"() <{value = 0 : i32}> : () -> i32\n    \
         \"func.return\"(%g, %z) : (i32, i32) -> ()\n  }) : () -> ()\n"
    } else {
        ""
    };
    format!(
        "{module}\n  \"func.func\"() <{{function_type = ({pre_ty}{}) -> (), sym_name = \"main\"}}> ({{\n  \
         ^bb0({pre}{}):\n    %c = \"arith.constant\"() <{{value = 0 : index}}> : () -> index\n{ops}    \
         \"func.return\"() : () -> ()\n  }}){attrs} : () -> ()\n{transform}}}) : () -> ()\n",
        vec![ty.clone(); n].join(", "),
        args.join(", ")
    )
}

/// The call's operand and result types.
fn call_types(body: &str, dtype: &str, rows: i64) -> (Vec<String>, Vec<String>) {
    let t = format!(
        "tensor<{}x1024x{dtype}>",
        rows * if body == "add_grid" { 4 } else { 1 }
    );
    let results = if body == "copy" { 2 } else { 1 };
    (vec![t.clone(); 2], vec![t; results])
}

fn rows() -> Vec<Value> {
    let text = std::fs::read_to_string(data_dir().join("vmem-sweep/nospace.json")).unwrap();
    let data: Value = serde_json::from_str(&text).unwrap();
    data["verdicts"].as_array().unwrap().clone()
}

/// Where the model does not claim libtpu's verdict: v7x with a grid or a
/// `vmem_limit_bytes` below its usable VMEM (XLA keeps operands out of
/// scoped VMEM there by rules not modelled).
fn not_modelled(v: &Value, chip: Chip) -> bool {
    chip == Chip::V7x
        && (v["body"] == "add_grid"
            || v["vmem_limit_bytes"]
                .as_u64()
                .is_some_and(|l| l < chip.usable_vmem_bytes()))
}

/// Our verdict on one row: `Ok(vmem checked)` or the errors.
fn ours(ctx: &Context, v: &Value) -> Result<bool, String> {
    let (body, dtype) = (v["body"].as_str().unwrap(), v["dtype"].as_str().unwrap());
    let n = v["rows"].as_i64().unwrap();
    let chip: Chip = v["chip"].as_str().unwrap().parse().unwrap();
    let kernel =
        Kernel::from_text(ctx, &kernel(body, dtype, n), "nospace").map_err(|e| e.to_string())?;
    let mut params = serde_json::json!({"kernel_name": "main"});
    if let Some(limit) = v["vmem_limit_bytes"].as_u64() {
        params["vmem_limit_bytes"] = limit.into();
    }
    let params = Params::from_json(params.to_string().as_bytes()).map_err(|e| e.to_string())?;
    let (operands, results) = call_types(body, dtype, n);
    let parse =
        |ts: &[String]| -> Vec<Type> { ts.iter().map(|t| Type::parse(ctx, t).unwrap()).collect() };
    let signature = Signature::new(parse(&operands), parse(&results));
    let found = validate::report(
        Some(&kernel),
        Some(&signature),
        &params,
        Some(chip),
        &ValidateOptions::all_rules(),
    );
    if found.errors.is_empty() {
        Ok(found.contract.is_some_and(|c| c.vmem_checked))
    } else {
        Err(found
            .errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; "))
    }
}

#[test]
fn nospace_vmem_verdicts_equal_libtpus() {
    let ctx = Context::new();
    let rows = rows();
    assert!(rows.len() >= 300, "{} rows", rows.len());
    let mut failures = Failures::new();
    let (mut compared, mut refused, mut unchecked) = (0, 0, 0);
    for v in &rows {
        let chip: Chip = v["chip"].as_str().unwrap().parse().unwrap();
        let libtpu_ok = v["ok"].as_bool().unwrap();
        // `vmem_limit_bytes` above the chip's VMEM: the target table refuses
        // it (issue 21's rule), where libtpu compiles what fits.
        if v["vmem_limit_bytes"]
            .as_u64()
            .is_some_and(|l| l > chip.info().vmem_bytes)
        {
            continue;
        }
        let ours = ours(&ctx, v);
        if not_modelled(v, chip) {
            // Never stricter than libtpu, and never "ok": not checked.
            failures.check(ours.is_ok() || !libtpu_ok, || {
                format!("{v}: we refuse what libtpu compiles: {ours:?}")
            });
            failures.check(ours != Ok(true), || {
                format!("{v}: the budget claims a check it cannot make")
            });
            continue;
        }
        match ours {
            // Checked: the verdict is libtpu's.
            Ok(true) => failures.check(libtpu_ok, || format!("{v}: ours ok, libtpu refuses")),
            Err(e) => failures.check(!libtpu_ok, || format!("{v}: ours refuses ({e})")),
            // Not checked (v7x's operand kept out of VMEM): honest, never ok.
            Ok(false) => {
                unchecked += 1;
                continue;
            }
        }
        compared += 1;
        refused += usize::from(!libtpu_ok);
    }
    failures.assert_none();
    assert!(
        compared >= 250 && refused >= 150 && unchecked <= 20,
        "{compared} compared, {refused} refused, {unchecked} not checked"
    );
}

/// The client's decode-layer kernels (64 MiB of buffers) are refused on v5e
/// and v6e with libtpu's figure, as libtpu refuses them (E1001).
#[test]
fn nospace_decode_layer_kernel_is_refused_with_libtpus_figure() {
    let ctx = Context::new();
    for (chip, figure) in [("v5e", "64.12M"), ("v6e", "64.12M"), ("v7x", "48.09M")] {
        let row = rows()
            .into_iter()
            .find(|v| {
                v["body"] == "copy" && v["dtype"] == "f32" && v["rows"] == 4104 && v["chip"] == chip
            })
            .unwrap();
        assert_eq!(row["ok"], false, "{row}");
        let error = row["error"].as_str().unwrap();
        assert!(error.contains(figure), "{error}");
        let ours = ours(&ctx, &row).unwrap_err();
        assert!(
            ours.contains(&format!("needs {figure} of scoped VMEM")),
            "{ours}"
        );
    }
}

/// The kernel without any attribute, in a module without a name: it
/// verifies, the contract finds `@main` and checks the call.
#[test]
fn nospace_bare_main_is_the_checked_function() {
    let ctx = Context::new();
    let text = kernel("bare", "f32", 64);
    let kernel = Kernel::from_text(&ctx, &text, "bare").unwrap();
    tpu_custom_call::mosaic::verify::verify_operation(kernel.operation())
        .unwrap_or_else(|e| panic!("{e:?}"));
    let sig = tpu_custom_call::contract::kernel_signature(&kernel).unwrap();
    assert_eq!(sig.function, "main");
    assert!(
        sig.arguments
            .iter()
            .all(|a| a.placed_in_vmem() && !a.in_vmem())
    );
    let (operands, results) = call_types("bare", "f32", 64);
    let report = tpu_custom_call::contract::check_call(
        &kernel,
        &operands,
        &results,
        &Params::default(),
        Some(Chip::V5e),
    )
    .unwrap();
    assert!(report.vmem_checked, "{report:?}");
    assert_eq!(report.vmem.unwrap().total(), 3 * 64 * 1024 * 4);
    // A wrong call is refused, not passed over.
    let bad = vec!["tensor<64x512xf32>".to_string(); 2];
    assert!(
        tpu_custom_call::contract::check_call(&kernel, &bad, &results, &Params::default(), None)
            .is_err()
    );
}

/// Emitted through our CLI and compiled by libtpu where it is installed: the
/// table's verdicts hold, and `validate` agrees (its ok line says what it
/// checked of a grid-less kernel).
#[test]
fn nospace_kernels_compile_as_the_table_says() {
    let dir = std::env::temp_dir().join(format!("tcc-nospace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let params = dir.join("params.json");
    std::fs::write(&params, r#"{"kernel_name": "main"}"#).unwrap();
    let mut failures = Failures::new();
    for (body, dtype, n, chip) in [
        ("add", "f32", 2728, "v6e"),
        ("add", "f32", 2736, "v6e"),
        ("copy", "bf16", 2048, "v5e"),
        ("copy", "bf16", 2056, "v5e"),
        ("copy", "i8", 8192, "v6e"),
        ("bare", "f32", 1368, "v5p"),
    ] {
        let row = rows()
            .into_iter()
            .find(|v| {
                v["body"] == body
                    && v["dtype"] == dtype
                    && v["rows"] == n
                    && v["chip"] == chip
                    && v["vmem_limit_bytes"].is_null()
            })
            .unwrap();
        let table_ok = row["ok"].as_bool().unwrap();
        let kpath = dir.join(format!("{body}{dtype}{n}.kernel.mlir"));
        let mpath = dir.join(format!("{body}{dtype}{n}.mlir"));
        std::fs::write(&kpath, kernel(body, dtype, n)).unwrap();
        let (operands, results) = call_types(body, dtype, n);
        let signature = format!("({}) -> ({})", operands.join(", "), results.join(", "));
        let (code, _, stderr) = run_cli(&[
            "emit",
            kpath.to_str().unwrap(),
            "--signature",
            &signature,
            "--params",
            params.to_str().unwrap(),
            "-o",
            mpath.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{stderr}");
        let (code, stdout, stderr) =
            run_cli(&["validate", mpath.to_str().unwrap(), "--target", chip]);
        let stdout = String::from_utf8_lossy(&stdout);
        failures.check((code == 0) == table_ok, || {
            format!("{row}: validate exit {code}: {stdout}{stderr}")
        });
        if code == 0 {
            failures.check(
                stdout.contains("no grid and no window_params: no blocks or index maps to check")
                    && stdout.contains("scoped VMEM "),
                || format!("{row}: {stdout}"),
            );
        } else {
            failures.check(stderr.contains("of scoped VMEM"), || stderr.clone());
        }
        if crate::compile::libtpu("nospace_kernels_compile_as_the_table_says").is_some() {
            let (code, _, stderr) =
                run_cli(&["compile", mpath.to_str().unwrap(), "--target", chip]);
            failures.check((code == 0) == table_ok, || {
                format!("{row}: libtpu now says exit {code}: {stderr}")
            });
        }
    }
    failures.assert_none();
}
