//! The call contract against what JAX 0.12 really lowers (`tests/data/contract-jax/`, recorded by the
//! scripts of `scripts/contract/`): element types as Mosaic sees them (unsigned, boolean, packed and fp8
//! arrays), semaphores passed between calls, dynamic grid bounds, pinned buffers, and blocks addressed
//! outside their operand; with libtpu's verdicts on the same modules (`libtpu-v6e.jsonl`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;
use tpu_custom_call::contract::{self, TypeShape};
use tpu_custom_call::decode;
use tpu_custom_call::{Chip, Context, Kernel, Params};

use crate::common::*;

fn jax_dir() -> PathBuf {
    data_dir().join("contract-jax")
}

/// The recorded modules of one folder of `contract-jax`, sorted.
fn modules(folder: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(jax_dir().join(folder))
        .unwrap_or_else(|e| panic!("{folder}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    out.sort();
    out
}

/// One decoded call: kernel, params, operand types (shape operands left out), result types.
struct Call<'c> {
    kernel: Kernel<'c>,
    params: Params,
    operands: Vec<String>,
    results: Vec<String>,
}

fn calls<'c>(ctx: &'c Context, path: &Path) -> Vec<Call<'c>> {
    let bytes = std::fs::read(path).unwrap();
    decode::decode_module(ctx, &bytes, &path.display().to_string())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .into_iter()
        .map(|call| {
            let results = call.found.result_types.clone();
            let operands = call.found.data_operand_types().to_vec();
            Call {
                kernel: call.kernel,
                params: call.params,
                operands,
                results,
            }
        })
        .collect()
}

/// (place, call type, kernel argument type) of every operand and result that is a kernel buffer
/// (dynamic grid bounds left out).
fn buffers(call: &Call<'_>) -> Vec<(String, String, TypeShape)> {
    let sig = contract::kernel_signature(&call.kernel).expect("a Pallas main function");
    let (d, g, p) = (sig.dynamic_bounds(), sig.grid.len(), sig.scalar_prefetch);
    let inputs = call.operands.len() - d - p;
    let mut out = Vec::new();
    for (k, ty) in call.operands.iter().enumerate().skip(d) {
        out.push((
            format!("operand {k}"),
            ty.clone(),
            sig.arguments[g + k - d].clone(),
        ));
    }
    for (r, ty) in call.results.iter().enumerate() {
        out.push((
            format!("result {r}"),
            ty.clone(),
            sig.arguments[g + p + inputs + r].clone(),
        ));
    }
    out
}

fn short(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// Every call JAX lowered passes the contract (no chip): every dtype, semaphores, dynamic grids, pinned
/// buffers, blocks outside their operand (warned). Returns the (call, kernel) element pairs seen.
#[test]
fn every_call_jax_lowers_passes_the_contract() {
    let ctx = Context::new();
    let mut failures = Failures::new();
    let mut pairs: BTreeMap<(String, String), usize> = BTreeMap::new();
    let (mut n, mut warned) = (0, 0);
    for folder in ["dtypes", "suite", "block-index"] {
        for path in modules(folder) {
            for call in calls(&ctx, &path) {
                n += 1;
                match contract::check_call(
                    &call.kernel,
                    &call.operands,
                    &call.results,
                    &call.params,
                    None,
                ) {
                    Ok(report) => {
                        failures.check(report.function.is_some(), || {
                            format!("{}: no main function", short(&path))
                        });
                        warned += usize::from(!report.warnings.is_empty());
                    }
                    Err(errors) => failures.fail(format!("{}: {errors:?}", short(&path))),
                }
                for (_, call_ty, kernel_ty) in buffers(&call) {
                    let c = TypeShape::parse(&call_ty).element;
                    *pairs.entry((c, kernel_ty.element)).or_default() += 1;
                }
            }
        }
    }
    failures.assert_none();
    let differing: Vec<_> = pairs.iter().filter(|((c, k), _)| c != k).collect();
    eprintln!(
        "{n} calls, {warned} with blocks outside (warned); element pairs that differ: {differing:?}"
    );
    // The pairs that made the 485 + 134 false refusals of issue 27.
    for pair in [
        ("ui8", "i8"),
        ("ui16", "i16"),
        ("ui32", "i32"),
        ("ui4", "i4"),
        ("i32", "!tpu.dma_semaphore"),
        ("i32", "!tpu.semaphore"),
    ] {
        assert!(
            pairs.contains_key(&(pair.0.to_string(), pair.1.to_string())),
            "{pair:?} not measured"
        );
    }
    assert!(n >= 150, "{n} calls");
}

/// The element pairs JAX makes, and no other: each buffer's element type replaced by others (signed,
/// other widths, floats for integers, ...) is refused unless JAX itself lowers that pair somewhere in the
/// recorded modules.
#[test]
fn element_pairs_jax_does_not_make_are_refused() {
    let ctx = Context::new();
    let mut measured: BTreeSet<(String, String)> = BTreeSet::new();
    let mut all = Vec::new();
    for folder in ["dtypes", "suite"] {
        for path in modules(folder) {
            for call in calls(&ctx, &path) {
                for (_, call_ty, kernel_ty) in buffers(&call) {
                    measured.insert((TypeShape::parse(&call_ty).element, kernel_ty.element));
                }
                all.push((short(&path), call));
            }
        }
    }
    let candidates = [
        "i1", "i4", "ui4", "si4", "i8", "ui8", "si8", "i16", "ui16", "si16", "i32", "ui32", "si32",
        "i64", "ui64", "f32", "bf16", "f16", "f8E4M3FN", "f8E5M2", "index",
    ];
    let mut failures = Failures::new();
    let (mut refused, mut accepted) = (0, 0);
    for (name, call) in &all {
        for (place, call_ty, kernel_ty) in buffers(call) {
            let shape = TypeShape::parse(&call_ty);
            for other in candidates {
                if other == shape.element {
                    continue;
                }
                let ty = if shape.dims.is_empty() {
                    format!("tensor<{other}>")
                } else {
                    format!("tensor<{}x{other}>", shape.dims_text())
                };
                let (mut ops, mut res) = (call.operands.clone(), call.results.clone());
                let index: usize = place.rsplit(' ').next().unwrap().parse().unwrap();
                if place.starts_with("operand") {
                    ops[index] = ty.clone();
                } else {
                    res[index] = ty.clone();
                }
                let jax_makes = measured.contains(&(other.to_string(), kernel_ty.element.clone()));
                match contract::check_call(&call.kernel, &ops, &res, &call.params, None) {
                    Ok(_) => {
                        accepted += 1;
                        failures.check(jax_makes, || {
                            format!("{name}: {place} = {ty} for `{}` accepted", kernel_ty.text)
                        });
                    }
                    Err(errors) => {
                        refused += 1;
                        let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
                        failures.check(!jax_makes, || {
                            format!("{name}: {place} = {ty} refused though JAX makes it: {text:?}")
                        });
                        failures.check(
                            text.iter().any(|t| {
                                t.contains(&format!("{place} (`{ty}`)"))
                                    && t.contains("element types differ")
                            }),
                            || format!("{name}: {place} = {ty}: {text:?}"),
                        );
                    }
                }
            }
        }
    }
    failures.assert_none();
    eprintln!("{refused} refused, {accepted} accepted (pairs JAX makes)");
    assert!(refused > 5000, "{refused}");
}

/// libtpu's errors on the recorded modules that are not about the call contract, each with why (the test
/// fails on any other): libtpu's own limits on element types, vector loads and DMA sizes on v6e, modules the offline
/// compile cannot take (shard_map's `xla.sdy` ops) and the stateful async-copy test kernels, on which
/// libtpu's compile aborts or fails an internal check (semaphores returned by a call with no inputs).
const OUTSIDE_THE_CONTRACT: [(&str, &str); 6] = [
    (
        "Bytes transferred by InitiateDmaOperation must be a multiple of",
        "libtpu's DMA granule (a SparseCore DMA of 16 bytes)",
    ),
    (
        "Only arguments with float8e5m2",
        "element types libtpu does not take for SMEM/ANY arguments",
    ),
    (
        "Invalid vector type for load",
        "f16 and fp8 kinds libtpu does not load on v6e",
    ),
    (
        "Custom emitter for xla.sdy",
        "shard_map modules the offline compile cannot partition",
    ),
    (
        "libtpu crashed",
        "libtpu aborts (stateful async copy: lowering_util.cc:2457)",
    ),
    (
        "LLO_CHECK failure",
        "libtpu's internal check (stateful async copy: sync_flag memory space)",
    ),
];

/// libtpu 0.0.50.1's verdicts on the recorded modules (compiled once for v6e by
/// `/work/shared/jaxref/tpu_compile.py --chip v6e --json`, kept in `libtpu-v6e.jsonl`) against the
/// contract's with the chip: every module libtpu compiles passes (blocks outside an operand included),
/// every module libtpu refuses for VMEM (the VMEM-OOM test kernels of `tpu_pallas_test.py`) is refused;
/// libtpu's other errors are listed in [`OUTSIDE_THE_CONTRACT`].
#[test]
fn contract_verdicts_on_v6e_equal_libtpus() {
    let ctx = Context::new();
    let text = std::fs::read_to_string(jax_dir().join("libtpu-v6e.jsonl")).unwrap();
    let mut failures = Failures::new();
    let (mut compiled, mut oom, mut outside) = (0, 0, BTreeMap::<&str, usize>::new());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap();
        let rel = v["path"].as_str().unwrap();
        let error = v["error"].as_str().unwrap_or("");
        let path = jax_dir().join(rel);
        let mut ours: Result<(), String> = Ok(());
        for call in calls(&ctx, &path) {
            if let Err(errors) = contract::check_call(
                &call.kernel,
                &call.operands,
                &call.results,
                &call.params,
                Some(Chip::V6e),
            ) {
                ours = Err(errors[0].to_string());
                break;
            }
        }
        if v["ok"].as_bool().unwrap() {
            compiled += 1;
            failures.check(ours.is_ok(), || {
                format!("{rel}: libtpu compiles it, ours {ours:?}")
            });
        } else if error.contains("Ran out of memory") || error.contains("E1001") {
            oom += 1;
            failures.check(
                ours.as_ref().is_err_and(|e| e.contains("of scoped VMEM")),
                || format!("{rel}: libtpu `{error}`, ours {ours:?}"),
            );
        } else if let Some((needle, why)) =
            OUTSIDE_THE_CONTRACT.iter().find(|(n, _)| error.contains(n))
        {
            let _ = needle;
            *outside.entry(why).or_default() += 1;
        } else {
            failures.fail(format!(
                "{rel}: libtpu `{error}` not classified; ours {ours:?}"
            ));
        }
    }
    failures.assert_none();
    eprintln!(
        "v6e: {compiled} compiled (ours: all pass), {oom} out of VMEM (ours: all refused), outside the \
         contract: {outside:?}"
    );
    assert!(compiled >= 100 && oom >= 3, "{compiled} {oom}");
}

/// The block-tiling sweep (`scripts/contract/tiling_sweep.py`: copy kernels with a grid, 1-D, 2-D and 3-D
/// blocks x 8 dtypes, lowered by JAX 0.12 with its block check turned off and judged by it, compiled by
/// libtpu 0.0.50.1; `tiling.jsonl` and the modules in `tiling/`): our verdict is JAX's on every point
/// (with JAX's message), we refuse every block libtpu refuses with `E2002`, and accept every block both
/// JAX and libtpu take. Where JAX and libtpu differ we follow JAX (its rule refuses first); those points
/// are counted.
#[test]
fn block_tiling_verdicts_equal_jaxs_and_libtpus() {
    let ctx = Context::new();
    let text = std::fs::read_to_string(jax_dir().join("tiling.jsonl")).unwrap();
    let mut failures = Failures::new();
    let mut n = 0;
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap();
        let name = v["name"].as_str().unwrap();
        let path = jax_dir().join("tiling").join(format!("{name}.mlir"));
        let mut ours: Option<String> = None;
        for call in calls(&ctx, &path) {
            if let Err(errors) = contract::check_call(
                &call.kernel,
                &call.operands,
                &call.results,
                &call.params,
                None,
            ) {
                ours = Some(errors[0].to_string());
                break;
            }
        }
        n += 1;
        let jax = v["jax"].as_str();
        failures.check(ours.is_some() == jax.is_some(), || {
            format!("{name}: JAX {jax:?}, ours {ours:?}")
        });
        if let (Some(jax), Some(ours)) = (jax, &ours) {
            // JAX's rule, verbatim (its details name Python objects; ours the call's).
            let rule = jax.split("Block spec").next().unwrap();
            // bool arrays are i32 in the call: JAX's rank-1 message says `32 // 8` (bool's own
            // width) where the rule uses 32 bits.
            let bool_rank_1 =
                name.starts_with("bool_") && v["block"].as_array().unwrap().len() == 1;
            failures.check(ours.starts_with(rule) || bool_rank_1, || {
                format!("{name}: JAX `{rule}`, ours `{ours}`")
            });
        }
        for (chip, error) in v["libtpu"].as_object().unwrap() {
            let libtpu = match error.as_str() {
                None => "ok",
                Some(e) if e.contains("E2002") => "E2002",
                Some(_) => "other",
            };
            let verdict = format!(
                "{chip}: JAX {}, libtpu {libtpu}, ours {}",
                if jax.is_some() { "refuses" } else { "ok" },
                if ours.is_some() { "refuses" } else { "ok" }
            );
            if libtpu == "E2002" {
                failures.check(ours.is_some(), || {
                    format!("{name}: false accept: {verdict}")
                });
            }
            if libtpu == "ok" && jax.is_none() {
                failures.check(ours.is_none(), || {
                    format!("{name}: false refusal: {verdict}")
                });
            }
            *counts.entry(verdict).or_default() += 1;
        }
    }
    failures.assert_none();
    eprintln!("{n} points: {counts:#?}");
    assert!(n >= 700, "{n}");
}

/// The block-tiling rule is JAX's, so it holds with JAX's rules only: the 12x512 f32 block (of a
/// 64x512 array, as JAX lowered it with its check turned off) is refused by `validate_with` with
/// `jax_rules_only` and by `emit --jax-rules-only`, with JAX's message; the 8x512 block of the same sweep
/// passes both.
#[test]
fn block_tiling_is_a_jax_rule() {
    let ctx = Context::new();
    let jax_rule = "The Pallas TPU lowering currently requires that the last two dimensions of your \
                    block shape are divisible by 8 and 128 respectively, or be equal to the respective \
                    dimensions of the overall array. Block spec for operand 0 in pallas_call _lambda_ \
                    has block shape (12, 512), array shape (64, 512), and index_map transform_0, in \
                    memory space vmem.";
    for (name, refused) in [
        ("float32_a64x512_b12x512", true),
        ("float32_a64x512_b8x512", false),
    ] {
        let path = jax_dir().join("tiling").join(format!("{name}.mlir"));
        let call = calls(&ctx, &path).remove(0);
        let parse = |types: &[String]| -> Vec<tpu_custom_call::melior::ir::Type<'_>> {
            types
                .iter()
                .map(|t| tpu_custom_call::melior::ir::Type::parse(&ctx, t).unwrap())
                .collect()
        };
        let signature =
            tpu_custom_call::Signature::new(parse(&call.operands), parse(&call.results));
        let result = tpu_custom_call::validate_with(
            &call.kernel,
            signature,
            &call.params,
            None,
            &tpu_custom_call::ValidateOptions::jax_rules_only(),
        );
        match result {
            Ok(_) => assert!(!refused, "{name}: accepted"),
            Err(errors) => {
                assert!(refused, "{name}: {errors:?}");
                assert!(errors[0].to_string().contains(jax_rule), "{}", errors[0]);
            }
        }
        // The CLI, from the decoded call.
        let dir = std::env::temp_dir().join(format!("tcc-tiling-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (code, kernel, _) = run_cli(&["inspect", path.to_str().unwrap(), "--kernel"]);
        assert_eq!(code, 0);
        let kernel_path = dir.join("kernel.mlir");
        std::fs::write(&kernel_path, kernel).unwrap();
        let (code, json, _) = run_cli(&["inspect", path.to_str().unwrap(), "--json"]);
        assert_eq!(code, 0);
        let v: Value = serde_json::from_slice(&json).unwrap();
        let params = v
            .pointer("/calls/0/params")
            .or_else(|| v.pointer("/0/params"))
            .expect("params")
            .to_string();
        let params_path = dir.join("params.json");
        std::fs::write(&params_path, params).unwrap();
        let signature = format!(
            "({}) -> ({})",
            call.operands.join(", "),
            call.results.join(", ")
        );
        let (code, _, stderr) = run_cli(&[
            "emit",
            kernel_path.to_str().unwrap(),
            "--signature",
            &signature,
            "--params",
            params_path.to_str().unwrap(),
            "--jax-rules-only",
            "-o",
            dir.join("out.mlir").to_str().unwrap(),
        ]);
        assert_eq!(code, i32::from(refused), "{name}: {stderr}");
        assert_eq!(stderr.contains(jax_rule), refused, "{name}: {stderr}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// A dynamic grid bound is a one-element `i32` array, as JAX passes it (`tensor<i32>`, or the
/// `tensor<1xi32>` of `test_dynamic_grid_with_smem_output`); other types stay refused.
#[test]
fn dynamic_grid_bounds_as_jax_passes_them() {
    let ctx = Context::new();
    let path = jax_dir()
        .join("suite")
        .join("test.MiscellaneousTest.test_dynamic_grid_with_smem_output_1.mlir");
    let call = calls(&ctx, &path).remove(0);
    assert_eq!(call.operands[0], "tensor<1xi32>");
    for (bound, ok) in [
        ("tensor<1xi32>", true),
        ("tensor<i32>", true),
        ("tensor<1x1xi32>", true),
        ("tensor<2xi32>", false),
        ("tensor<1xui32>", false),
        ("tensor<1xi64>", false),
        ("tensor<f32>", false),
    ] {
        let mut ops = call.operands.clone();
        ops[0] = bound.to_string();
        let result = contract::check_call(&call.kernel, &ops, &call.results, &call.params, None);
        match result {
            Ok(_) => assert!(ok, "{bound} accepted"),
            Err(errors) => {
                assert!(!ok, "{bound}: {errors:?}");
                assert!(
                    errors[0].to_string().starts_with(&format!(
                        "operand 0 (`{bound}`) is the dynamic grid bound 0"
                    )),
                    "{bound}: {errors:?}"
                );
            }
        }
    }
}
