//! The whole-program corpus (`tests/data/programs`, made by
//! `scripts/jaxref/programs/make_programs.py`) is well formed: every
//! `program.json` parses, the inputs and expected results are `.npy` files of
//! the types and shapes of `@main`'s arguments and results (read from the
//! module with the crate's readers), the `tpu_custom_call`s are those the
//! program names, and the sharding annotations parse and fit the arrays.
//! And `program::sharding`'s split equals the shards `jax.device_put` made
//! (`tests/data/program-shardings`).

use std::path::{Path, PathBuf};

use melior::ir::BlockLike;
use melior::ir::attribute::{StringAttribute, TypeAttribute};
use melior::ir::operation::OperationLike;
use melior::ir::r#type::FunctionType;
use serde_json::Value;
use tpu_custom_call::exec::{Array, ElemType, TensorType, npy};
use tpu_custom_call::program::sharding::{MainShardings, Mesh, Sharding};
use tpu_custom_call::{Context, decode};

use crate::common::*;

fn programs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(data_dir().join("programs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}

fn elem(dtype: &str) -> ElemType {
    match dtype {
        "float32" => ElemType::F32,
        "bfloat16" => ElemType::BF16,
        "int32" => ElemType::Int(32),
        "uint8" => ElemType::UInt(8),
        "bool" => ElemType::Int(1),
        d => panic!("dtype {d} not in the corpus' list"),
    }
}

/// `@main`'s argument and result types, from the module read as a pipeline
/// reads it (JAX's pretty StableHLO, Shardy and CHLO included).
fn main_types(ctx: &Context, bytes: &[u8], name: &str) -> (Vec<String>, Vec<String>) {
    let module = tpu_custom_call::interop::read_module(ctx, bytes, name)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut op = module.body().first_operation();
    while let Some(o) = op {
        let is_main = o
            .attribute("sym_name")
            .ok()
            .and_then(|a| StringAttribute::try_from(a).ok())
            .is_some_and(|s| s.value() == "main");
        if o.name().as_string_ref().as_str().unwrap() == "func.func" && is_main {
            let ty = TypeAttribute::try_from(o.attribute("function_type").unwrap())
                .unwrap()
                .value();
            let f = FunctionType::try_from(ty).unwrap();
            let ins = (0..f.input_count())
                .map(|i| f.input(i).unwrap().to_string())
                .collect();
            let outs = (0..f.result_count())
                .map(|i| f.result(i).unwrap().to_string())
                .collect();
            return (ins, outs);
        }
        op = o.next_in_block();
    }
    panic!("{name}: no func.func @main");
}

/// The declared type fits the array: same element type, same rank, equal
/// static dimensions (a dynamic `?` takes any size).
fn fits(declared: &str, a: &Array) -> bool {
    let t = TensorType::parse(declared).unwrap_or_else(|| panic!("`{declared}` is not a tensor"));
    t.elem == a.elem
        && t.shape.len() == a.shape.len()
        && t.shape
            .iter()
            .zip(&a.shape)
            .all(|(&d, &n)| d == tpu_custom_call::exec::DYNAMIC_DIM || d == n)
}

fn read_arrays(dir: &Path, list: &Value, failures: &mut Failures, name: &str) -> Vec<Array> {
    let mut out = Vec::new();
    for (i, e) in list.as_array().unwrap().iter().enumerate() {
        let file = e["file"].as_str().unwrap();
        let a = npy::read(&dir.join(file), elem(e["dtype"].as_str().unwrap())).unwrap();
        let shape: Vec<usize> = e["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_u64().unwrap() as usize)
            .collect();
        failures.check(a.shape == shape, || {
            format!(
                "{name}: {file} has shape {:?}, program.json {shape:?}",
                a.shape
            )
        });
        if let Some(r) = e.get("rtol") {
            let ok = |v: &Value| v.as_f64().is_some_and(|x| (0.0..1.0).contains(&x));
            failures.check(ok(r) && ok(&e["atol"]), || {
                format!("{name}: result {i}'s tolerances are not in [0, 1)")
            });
        }
        out.push(a);
    }
    out
}

#[test]
fn every_program_is_well_formed() {
    let ctx = Context::new();
    let mut failures = Failures::default();
    let all = programs();
    assert!(all.len() >= 15, "{} programs", all.len());
    let mut total = 0u64;
    for dir in &all {
        let name = dir.file_name().unwrap().to_str().unwrap().to_string();
        let meta: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("program.json")).unwrap())
                .unwrap_or_else(|e| panic!("{name}/program.json: {e}"));
        failures.check(meta["name"] == name.as_str(), || {
            format!("{name}: program.json names {}", meta["name"])
        });
        failures.check(meta["generator_version"].as_u64() == Some(1), || {
            format!("{name}: generator_version")
        });
        let devices = meta["devices"].as_u64().unwrap() as usize;
        let text = std::fs::read_to_string(dir.join("module.mlir")).unwrap();
        let (arg_types, result_types) = main_types(&ctx, text.as_bytes(), &name);
        let inputs = read_arrays(dir, &meta["inputs"], &mut failures, &name);
        let results = read_arrays(dir, &meta["results"], &mut failures, &name);
        for (what, declared, arrays) in [
            ("argument", &arg_types, &inputs),
            ("result", &result_types, &results),
        ] {
            failures.check(declared.len() == arrays.len(), || {
                format!(
                    "{name}: @main has {} {what}s, the corpus {} files",
                    declared.len(),
                    arrays.len()
                )
            });
            for (i, (t, a)) in declared.iter().zip(arrays).enumerate() {
                failures.check(fits(t, a), || {
                    format!(
                        "{name}: {what} {i} is {t}, its file {} {:?}",
                        a.elem, a.shape
                    )
                });
            }
        }
        total += inputs
            .iter()
            .chain(&results)
            .map(|a| npy::to_bytes(a).unwrap().len() as u64)
            .sum::<u64>();
        // The kernels program.json lists are the module's tpu_custom_calls.
        let calls = decode::find_calls(&ctx, text.as_bytes(), &name).unwrap();
        let names: Vec<String> = calls
            .iter()
            .map(|c| c.kernel_name.clone().unwrap_or_default())
            .collect();
        let listed: Vec<String> = meta["kernels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap().to_string())
            .collect();
        failures.check(names == listed, || {
            format!("{name}: the module's calls are {names:?}, program.json lists {listed:?}")
        });
        // Shardings parse, and each argument's splits over the program's devices.
        match MainShardings::from_text(&text) {
            Err(e) => failures.check(false, || format!("{name}: {e}")),
            Ok(m) => {
                failures.check(m.num_partitions == devices, || {
                    format!(
                        "{name}: mhlo.num_partitions {} vs devices {devices}",
                        m.num_partitions
                    )
                });
                failures.check(
                    m.args.len() == inputs.len() && m.results.len() == results.len(),
                    || {
                        format!(
                            "{name}: annotations of {} args / {} results",
                            m.args.len(),
                            m.results.len()
                        )
                    },
                );
                let annotated = m
                    .args
                    .iter()
                    .chain(&m.results)
                    .filter(|s| s.is_some())
                    .count();
                failures.check(
                    annotated as u64 == meta["shardings"]["annotations"].as_u64().unwrap(),
                    || format!("{name}: {annotated} annotations read"),
                );
                for (s, a) in m
                    .args
                    .iter()
                    .zip(&inputs)
                    .chain(m.results.iter().zip(&results))
                {
                    let s = s.clone().unwrap_or(Sharding::Replicated);
                    match s.split(a, devices) {
                        Ok(parts) => failures.check(
                            s.assemble(&parts, &a.shape, "value").as_ref() == Ok(a),
                            || format!("{name}: split then assembled differs"),
                        ),
                        Err(e) => failures.check(false, || format!("{name}: {e}")),
                    }
                }
            }
        }
    }
    failures.assert_none();
    assert!(total < 10 << 20, "corpus data {total} bytes");
}

/// One shard `jax.device_put` made: physical device, index range per
/// dimension, file.
type JaxShard = (usize, Vec<(usize, usize)>, String);

fn shards_of_case(case: &Value) -> Vec<JaxShard> {
    case["device_put_shards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["device"].as_u64().unwrap() as usize,
                s["index"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| {
                        (
                            r[0].as_u64().unwrap() as usize,
                            r[1].as_u64().unwrap() as usize,
                        )
                    })
                    .collect(),
                s["file"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Our split against `jax.device_put`'s shards: for the texts JAX writes on
/// `@main` (logical device = position in the mesh, physical device
/// `mesh.device_ids[position]`) and for XLA's text in physical device ids.
#[test]
fn split_equals_jax_device_put() {
    let dir = data_dir().join("program-shardings");
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("cases.json")).unwrap()).unwrap();
    let devices = doc["devices"].as_u64().unwrap() as usize;
    let mut failures = Failures::default();
    let cases = doc["cases"].as_array().unwrap();
    assert!(cases.len() >= 12);
    let mut checked = 0;
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let x = npy::read(
            &dir.join(case["global"].as_str().unwrap()),
            ElemType::Int(32),
        )
        .unwrap();
        let ids: Vec<usize> = case["mesh"]["device_ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_u64().unwrap() as usize)
            .collect();
        let meshes = Mesh::all_in_text(
            &case["sdy_meshes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap().to_string() + "\n")
                .collect::<String>(),
        )
        .unwrap();
        let forms: Vec<(&str, Sharding, bool)> = vec![
            (
                "mhlo.sharding on @main",
                Sharding::parse_hlo(case["mhlo_sharding_lowered"].as_str().unwrap()).unwrap(),
                false,
            ),
            (
                "sdy.sharding on @main",
                Sharding::parse_sdy(case["sdy_sharding_lowered"].as_str().unwrap(), &meshes)
                    .unwrap(),
                false,
            ),
            (
                "XLA's text in physical ids",
                Sharding::parse_hlo(case["mhlo_sharding_physical"].as_str().unwrap()).unwrap(),
                true,
            ),
        ];
        let jax = shards_of_case(case);
        for (form, s, physical) in forms {
            let parts = s.split(&x, devices).unwrap();
            let placed = s.shards(&x.shape, devices).unwrap();
            for (logical, (part, shard)) in parts.iter().zip(&placed).enumerate() {
                let device = if physical { logical } else { ids[logical] };
                let (_, index, file) = jax.iter().find(|(d, _, _)| *d == device).unwrap();
                let want = npy::read(&dir.join(file), ElemType::Int(32)).unwrap();
                failures.check(*part == want, || {
                    format!(
                        "{name} ({form}): device {device}'s shard differs from jax.device_put's"
                    )
                });
                let ours: Vec<(usize, usize)> = shard
                    .offsets
                    .iter()
                    .zip(&shard.shape)
                    .map(|(&o, &n)| (o, o + n))
                    .collect();
                failures.check(ours == *index, || {
                    format!("{name} ({form}): device {device} index {ours:?}, JAX's {index:?}")
                });
                checked += 1;
            }
            failures.check(s.assemble(&parts, &x.shape, "x").as_ref() == Ok(&x), || {
                format!("{name} ({form}): assembled differs")
            });
        }
    }
    failures.assert_none();
    assert_eq!(checked, cases.len() * 3 * devices);
    assert_eq!(
        Sharding::parse_hlo(doc["printed_by_xla"]["maximal_device_2"].as_str().unwrap()).unwrap(),
        Sharding::Maximal { device: 2 }
    );
}
