//! TPU targets: the chip table against the reference and real JAX, name parsing,
//! the target checks (against JAX's own messages where JAX has them, and on the
//! golden kernels), the chip-independent policies, and `tpu-custom-call targets`.

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use tpu_custom_call::analysis::KernelFacts;
use tpu_custom_call::config::{DeviceType, MemorySpace};
use tpu_custom_call::target::{
    CHIPS, SparseCoreInfo, TpuMemorySpace, needs_layout_passes, use_core_ids,
};
use tpu_custom_call::{Chip, ChipInfo, Context, Kernel, TargetError, TargetQuery};

use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;

use crate::common::*;

const MIB: u64 = 1024 * 1024;
const KIB: u64 = 1024;

// ---------------------------------------------------------------- reference data

/// The committed dump of JAX's table (`scripts/jaxref/dump_tpu_info.py`).
fn jax_dump() -> Value {
    let path = fixtures_dir().join("targets/jax_tpu_info.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// Our row in JAX's field names, as the dump writes a chip.
fn as_jax(c: &ChipInfo) -> Value {
    serde_json::json!({
        "chip_version": c.jax_chip_version,
        "num_physical_tensor_cores_per_chip": c.tensor_cores_per_chip,
        "supports_megacore": c.megacore,
        "is_lite": c.lite,
        "generation": c.generation,
        "num_lanes": c.lanes,
        "num_sublanes": c.sublanes,
        "mxu_column_size": c.mxu_column_size,
        "num_mxus": c.mxus,
        "num_accumulators": c.accumulators,
        "vmem_capacity_bytes": c.vmem_bytes,
        "cmem_capacity_bytes": c.cmem_bytes,
        "smem_capacity_bytes": c.smem_bytes,
        "hbm_capacity_bytes": c.hbm_bytes,
        "mem_bw_bytes_per_second": c.hbm_bandwidth_bytes_per_second,
        "bf16_ops_per_second": c.bf16_ops_per_second,
        "int8_ops_per_second": c.int8_ops_per_second,
        "fp8_ops_per_second": c.fp8_ops_per_second,
        "int4_ops_per_second": c.int4_ops_per_second,
        "sparse_core": c.sparse_core.map(|sc| serde_json::json!({
            "num_cores": sc.cores,
            "num_subcores": sc.subcores,
            "num_lanes": sc.lanes,
            "vmem_capacity_bytes": sc.vmem_bytes_per_subcore,
            "dma_granule_size_bytes": sc.dma_granule_bytes,
        })),
    })
}

fn assert_table_matches(dump: &Value, what: &str) {
    let chips = dump["chips"].as_array().expect("chips");
    assert_eq!(
        chips.len(),
        CHIPS.len(),
        "{what}: JAX knows {} chips, we {}",
        chips.len(),
        CHIPS.len()
    );
    let mut failures = Failures::new();
    for (ours, jax) in CHIPS.iter().zip(chips) {
        failures.eq(format!("{what}: chip {}", ours.name), &as_jax(ours), jax);
    }
    failures.assert_none();
}

#[test]
fn table_matches_committed_jax_dump() {
    let dump = jax_dump();
    assert!(
        dump["_generated_by"]
            .as_str()
            .unwrap()
            .contains("dump_tpu_info.py")
    );
    assert_table_matches(&dump, "committed dump");
}

#[test]
fn table_matches_live_jax() {
    let Some(python) = jaxref_python("table_matches_live_jax") else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/jaxref/dump_tpu_info.py");
    let out = Command::new(python)
        .arg(&script)
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let live: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_table_matches(&live, "live JAX");
    assert_eq!(
        live,
        jax_dump(),
        "the committed dump is stale: rerun {}",
        script.display()
    );
}

// ---------------------------------------------------------------- names

#[test]
fn canonical_names_in_order() {
    let names: Vec<String> = Chip::ALL.iter().map(|c| c.to_string()).collect();
    assert_eq!(
        names,
        [
            "v2", "v3", "v4i", "v4", "v5e", "v5p", "v6e", "v7", "v7x", "v8i", "v8t"
        ]
    );
    let mut failures = Failures::new();
    for (i, chip) in Chip::ALL.into_iter().enumerate() {
        failures.eq(format!("CHIPS[{i}].chip"), CHIPS[i].chip, chip);
        failures.eq(format!("{chip}.info().chip"), chip.info().chip, chip);
    }
    failures.assert_none();
}

#[test]
fn every_name_and_alias_round_trips() {
    let mut failures = Failures::new();
    let mut seen: Vec<String> = Vec::new();
    for chip in Chip::ALL {
        let names: Vec<&str> = chip.info().names().collect();
        failures.eq(
            format!("{chip}: first name"),
            names[0].to_string(),
            chip.to_string(),
        );
        for name in names {
            for spelling in [
                name.to_string(),
                name.to_ascii_uppercase(),
                name.to_ascii_lowercase(),
            ] {
                let Some(parsed) = failures.ok(&spelling, spelling.parse::<Chip>()) else {
                    continue;
                };
                failures.eq(&spelling, parsed, chip);
                failures.eq(
                    format!("{spelling}: canonical name parsed again"),
                    parsed.to_string().parse::<Chip>(),
                    Ok(chip),
                );
            }
            let key = name.to_ascii_lowercase();
            failures.check(!seen.contains(&key), || format!("{name} names two chips"));
            seen.push(key);
        }
    }
    failures.assert_none();
}

#[test]
fn device_kinds_are_jaxs() {
    let dump = jax_dump();
    let kinds = dump["device_kinds"].as_object().unwrap();
    let mut failures = Failures::new();
    for (kind, jax) in kinds {
        // Exact rule: JAX's chip_version_from_device_kind.
        let exact = Chip::from_device_kind(kind).map(|c| c.info().jax_chip_version);
        failures.eq(format!("from_device_kind({kind:?})"), exact, jax.as_str());
        // Lenient rule: everything JAX maps parses to the same chip.
        if let Some(version) = jax.as_str()
            && let Some(chip) = failures.ok(format!("{kind:?}"), kind.parse::<Chip>())
        {
            failures.eq(
                format!("{kind:?}: parsed chip's version"),
                chip.info().jax_chip_version,
                version,
            );
        }
    }
    // Every device kind we list is one JAX maps, and the JAX ChipVersion values are ours.
    for c in &CHIPS {
        for kind in c.device_kinds {
            failures.eq(
                format!("JAX's chip version of {kind:?}"),
                kinds.get(*kind).and_then(Value::as_str),
                Some(c.jax_chip_version),
            );
        }
    }
    failures.assert_none();
    let versions: Vec<&str> = dump["chips"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["chip_version"].as_str().unwrap())
        .collect();
    assert_eq!(versions, CHIPS.map(|c| c.jax_chip_version));
}

#[test]
fn respellings_parse_by_our_case_rule_only() {
    // JAX maps none of these (see the dump); we ignore ASCII case and nothing else.
    let mut failures = Failures::new();
    for (name, chip) in [
        ("tpu v5 lite", Some(Chip::V5e)),
        ("TPU V5E", Some(Chip::V5e)),
        ("tpu7x", Some(Chip::V7x)),
    ] {
        failures.eq(
            format!("from_device_kind({name:?})"),
            Chip::from_device_kind(name),
            None,
        );
        failures.eq(format!("{name:?} parsed"), name.parse::<Chip>().ok(), chip);
    }
    for name in [
        "TPU v7x", "TPU v4i", "TPU  v5e", " TPU v5e", "v5e ", "", "v5", "tpu-v5e",
    ] {
        let parsed = name.parse::<Chip>();
        failures.check(
            matches!(parsed, Err(TargetError::UnknownChip { .. })),
            || format!("{name:?}: {parsed:?}"),
        );
    }
    failures.assert_none();
}

#[test]
fn unknown_name_lists_the_known_ones() {
    let err = "v9".parse::<Chip>().unwrap_err();
    assert_eq!(
        err,
        TargetError::UnknownChip {
            name: "v9".to_string()
        }
    );
    let message = err.to_string();
    assert!(
        message.starts_with("unknown TPU target `v9`: known chips are v2, v3,"),
        "{message}"
    );
    let mut failures = Failures::new();
    for chip in Chip::ALL {
        failures.check(message.contains(chip.name()), || {
            format!("{message} lacks {chip}")
        });
    }
    failures.assert_none();
    // The crate error wraps it unchanged.
    let wrapped: tpu_custom_call::Error = err.into();
    assert_eq!(wrapped.to_string(), message);
}

// ---------------------------------------------------------------- per chip, from reference §9.2

/// One row of the reference's §9.2 table, typed in.
struct Row {
    generation: u32,
    tensor_cores: u64,
    megacore: bool,
    lite: bool,
    sublanes: u64,
    mxu_column_size: u64,
    mxus: u64,
    accumulators: u64,
    vmem: u64,
    cmem: u64,
    smem: u64,
    hbm: u64,
    sparse_core: Option<(u64, u64, u64, u64, u64)>,
    device_kinds: &'static [&'static str],
}

fn assert_row(chip: Chip, row: Row) {
    let c = chip.info();
    assert_eq!(c.generation, row.generation, "{chip} generation");
    assert_eq!(
        c.tensor_cores_per_chip, row.tensor_cores,
        "{chip} TensorCores"
    );
    assert_eq!(c.megacore, row.megacore, "{chip} megacore");
    assert_eq!(c.lite, row.lite, "{chip} lite");
    assert_eq!(c.lanes, 128, "{chip} lanes");
    assert_eq!(c.sublanes, row.sublanes, "{chip} sublanes");
    assert_eq!(
        c.mxu_column_size, row.mxu_column_size,
        "{chip} MXU column size"
    );
    assert_eq!(c.mxus, row.mxus, "{chip} MXUs");
    assert_eq!(c.accumulators, row.accumulators, "{chip} accumulators");
    assert_eq!(c.vmem_bytes, row.vmem, "{chip} VMEM");
    assert_eq!(c.cmem_bytes, row.cmem, "{chip} CMEM");
    assert_eq!(c.smem_bytes, row.smem, "{chip} SMEM");
    assert_eq!(c.hbm_bytes, row.hbm, "{chip} HBM");
    let sc = c.sparse_core.map(|s: SparseCoreInfo| {
        (
            s.cores,
            s.subcores,
            s.lanes,
            s.vmem_bytes_per_subcore,
            s.dma_granule_bytes,
        )
    });
    assert_eq!(sc, row.sparse_core, "{chip} SparseCore");
    assert_eq!(c.device_kinds, row.device_kinds, "{chip} device kinds");
    assert_eq!(chip.has_sparse_cores(), row.sparse_core.is_some());
}

#[test]
fn chip_v2() {
    assert_row(
        Chip::V2,
        Row {
            generation: 2,
            tensor_cores: 2,
            megacore: false,
            lite: false,
            sublanes: 8,
            mxu_column_size: 128,
            mxus: 1,
            accumulators: 0,
            vmem: 16 * MIB,
            cmem: 0,
            smem: 16 * KIB,
            hbm: 16_000_000_000 / 2,
            sparse_core: None,
            device_kinds: &["TPU v2"],
        },
    );
}

#[test]
fn chip_v3() {
    assert_row(
        Chip::V3,
        Row {
            generation: 3,
            tensor_cores: 2,
            megacore: false,
            lite: false,
            sublanes: 8,
            mxu_column_size: 128,
            mxus: 2,
            accumulators: 0,
            vmem: 16 * MIB,
            cmem: 0,
            smem: 16 * KIB,
            hbm: 34_400_000_000 / 2,
            sparse_core: None,
            device_kinds: &["TPU v3"],
        },
    );
}

#[test]
fn chip_v4i() {
    assert_row(
        Chip::V4i,
        Row {
            generation: 4,
            tensor_cores: 1,
            megacore: false,
            lite: true,
            sublanes: 8,
            mxu_column_size: 128,
            mxus: 4,
            accumulators: 0,
            vmem: 16 * MIB,
            cmem: 134_000_000,
            smem: MIB,
            hbm: 8_590_000_000,
            sparse_core: None,
            device_kinds: &["TPU v4 lite"],
        },
    );
}

#[test]
fn chip_v4() {
    assert_row(
        Chip::V4,
        Row {
            generation: 4,
            tensor_cores: 2,
            megacore: true,
            lite: false,
            sublanes: 8,
            mxu_column_size: 128,
            mxus: 4,
            accumulators: 0,
            vmem: 16 * MIB,
            cmem: 134_000_000 / 2,
            smem: MIB,
            hbm: 34_400_000_000 / 2,
            sparse_core: None,
            device_kinds: &["TPU v4"],
        },
    );
}

#[test]
fn chip_v5e() {
    assert_row(
        Chip::V5e,
        Row {
            generation: 5,
            tensor_cores: 1,
            megacore: false,
            lite: true,
            sublanes: 8,
            mxu_column_size: 128,
            mxus: 4,
            accumulators: 0,
            vmem: 128 * MIB,
            cmem: 0,
            smem: MIB,
            hbm: 17_200_000_000,
            sparse_core: None,
            device_kinds: &["TPU v5e", "TPU v5 lite"],
        },
    );
}

#[test]
fn chip_v5p() {
    assert_row(
        Chip::V5p,
        Row {
            generation: 5,
            tensor_cores: 2,
            megacore: true,
            lite: false,
            sublanes: 8,
            mxu_column_size: 128,
            mxus: 4,
            accumulators: 0,
            vmem: 64 * MIB,
            cmem: 0,
            smem: MIB,
            hbm: 103_000_000_000 / 2,
            sparse_core: Some((4, 16, 8, 512 * KIB, 32)),
            device_kinds: &["TPU v5", "TPU v5p"],
        },
    );
}

#[test]
fn chip_v6e() {
    assert_row(
        Chip::V6e,
        Row {
            generation: 6,
            tensor_cores: 1,
            megacore: false,
            lite: true,
            sublanes: 8,
            mxu_column_size: 256,
            mxus: 2,
            accumulators: 0,
            vmem: 128 * MIB,
            cmem: 0,
            smem: MIB,
            hbm: 34_400_000_000,
            sparse_core: Some((2, 16, 8, 256 * KIB, 32)),
            device_kinds: &["TPU v6e", "TPU v6 lite"],
        },
    );
}

#[test]
fn chip_v7() {
    assert_row(
        Chip::V7,
        Row {
            generation: 7,
            tensor_cores: 2,
            megacore: false,
            lite: false,
            sublanes: 8,
            mxu_column_size: 256,
            mxus: 2,
            accumulators: 128,
            vmem: 64 * MIB,
            cmem: 0,
            smem: MIB,
            hbm: 206_000_000_000 / 2,
            sparse_core: Some((2, 16, 16, 512 * KIB, 32)),
            device_kinds: &["TPU7"],
        },
    );
}

#[test]
fn chip_v7x() {
    assert_row(
        Chip::V7x,
        Row {
            generation: 7,
            tensor_cores: 2,
            megacore: false,
            lite: false,
            sublanes: 8,
            mxu_column_size: 256,
            mxus: 2,
            accumulators: 128,
            vmem: 64 * MIB,
            cmem: 0,
            smem: MIB,
            hbm: 206_000_000_000 / 2,
            sparse_core: Some((2, 16, 16, 512 * KIB, 32)),
            device_kinds: &["TPU7x"],
        },
    );
}

#[test]
fn chip_v8i() {
    assert_row(
        Chip::V8i,
        Row {
            generation: 8,
            tensor_cores: 2,
            megacore: false,
            lite: false,
            sublanes: 8,
            mxu_column_size: 256,
            mxus: 2,
            accumulators: 256,
            vmem: 192 * MIB,
            cmem: 0,
            smem: MIB,
            hbm: 309_000_000_000 / 2,
            sparse_core: Some((1, 4, 16, 512 * KIB, 64)),
            device_kinds: &["TPU8i"],
        },
    );
}

#[test]
fn chip_v8t() {
    assert_row(
        Chip::V8t,
        Row {
            generation: 8,
            tensor_cores: 1,
            megacore: false,
            lite: false,
            sublanes: 16,
            mxu_column_size: 256,
            mxus: 2,
            accumulators: 256,
            vmem: 128 * MIB,
            cmem: 0,
            smem: MIB,
            hbm: 231_000_000_000,
            sparse_core: Some((2, 16, 16, 256 * KIB, 64)),
            device_kinds: &["TPU8t"],
        },
    );
}

// ---------------------------------------------------------------- checks

fn sparse(cores: Option<u64>, subcores: Option<u64>) -> TargetQuery {
    TargetQuery {
        device_type: Some(DeviceType::SparseCore),
        core_count: cores,
        subcore_count: subcores,
        ..TargetQuery::default()
    }
}

/// Every SparseCore mesh JAX built or refused on every chip (the dump's
/// `mesh_errors`): our check accepts what JAX accepted and refuses the rest
/// with JAX's message.
#[test]
fn sparse_core_checks_match_jax_mesh_errors() {
    let dump = jax_dump();
    let mut failures = Failures::new();
    let mut compared = 0;
    for chip in Chip::ALL {
        let rows = dump["mesh_errors"][chip.info().jax_chip_version]
            .as_array()
            .unwrap();
        for row in rows {
            let query = sparse(row["num_cores"].as_u64(), row["num_subcores"].as_u64());
            let ours = chip.check(&query);
            match row["ok"].as_bool().unwrap() {
                true => failures.eq(format!("{chip}: {row}"), ours, Ok(())),
                false => failures.eq(
                    format!("{chip}: {row}"),
                    ours.map_err(|e| e.to_string()),
                    Err(row["message"].as_str().unwrap().to_string()),
                ),
            }
            compared += 1;
        }
    }
    failures.assert_none();
    assert!(compared >= 60, "{compared} rows");
}

#[test]
fn no_sparse_cores_fails_and_passes() {
    let query = sparse(Some(1), Some(16));
    assert_eq!(
        Chip::V5e.check(&query),
        Err(TargetError::NoSparseCores { chip: Chip::V5e })
    );
    // Reference §9.3: "v5e SC -> RuntimeError The current TPU does not have SparseCores".
    assert_eq!(
        Chip::V5e.check(&query).unwrap_err().to_string(),
        "The current TPU does not have SparseCores"
    );
    // Counts are not compared on a chip without SparseCores: one error only.
    assert_eq!(Chip::V4.check_all(&sparse(Some(9), Some(99))).len(), 1);
    assert_eq!(Chip::V5p.check(&query), Ok(()));
    assert_eq!(Chip::V7x.check(&query), Ok(()));
}

#[test]
fn too_many_sparse_cores_fails_and_passes() {
    let err = Chip::V7x.check(&sparse(Some(3), None)).unwrap_err();
    assert_eq!(
        err,
        TargetError::TooManySparseCores {
            chip: Chip::V7x,
            requested: 3,
            available: 2
        }
    );
    // Reference §9.3, observed on an abstract TPU7x.
    assert_eq!(
        err.to_string(),
        "Mesh has 3 cores, but the current TPU chip has only 2 SparseCores"
    );
    assert_eq!(Chip::V7x.check(&sparse(Some(2), None)), Ok(()));
    assert_eq!(Chip::V5p.check(&sparse(Some(4), None)), Ok(()));
}

#[test]
fn too_many_subcores_fails_and_passes() {
    let err = Chip::V7x.check(&sparse(Some(1), Some(17))).unwrap_err();
    assert_eq!(
        err,
        TargetError::TooManySubcores {
            chip: Chip::V7x,
            requested: 17,
            available: 16
        }
    );
    assert_eq!(
        err.to_string(),
        "Mesh has 17 subcores, but the current TPU chip has only 16 subcores"
    );
    assert_eq!(Chip::V7x.check(&sparse(Some(1), Some(16))), Ok(()));
    // Both too many: JAX reports the cores first; check_all reports both.
    let all = Chip::V8i.check_all(&sparse(Some(2), Some(16)));
    assert_eq!(
        all,
        [
            TargetError::TooManySparseCores {
                chip: Chip::V8i,
                requested: 2,
                available: 1
            },
            TargetError::TooManySubcores {
                chip: Chip::V8i,
                requested: 16,
                available: 4
            },
        ]
    );
}

#[test]
fn too_many_tensor_cores_fails_and_passes() {
    let query = TargetQuery {
        core_count: Some(2),
        ..TargetQuery::default()
    };
    let err = Chip::V5e.check(&query).unwrap_err();
    assert_eq!(
        err,
        TargetError::TooManyTensorCores {
            chip: Chip::V5e,
            requested: 2,
            available: 1
        }
    );
    assert_eq!(
        err.to_string(),
        "core_parallel dimension has 2 cores, but v5e has only 1 TensorCore: lower the iteration bound of the \
         core_parallel dimension to at most 1"
    );
    assert_eq!(Chip::V5p.check(&query), Ok(()));
    assert_eq!(Chip::V7x.check(&query), Ok(()));
    let three = TargetQuery {
        core_count: Some(3),
        device_type: Some(DeviceType::TensorCore),
        ..query
    };
    assert!(
        Chip::V5p
            .check(&three)
            .unwrap_err()
            .to_string()
            .contains("v5p has only 2 TensorCores")
    );
}

/// JAX's `get_tpu_info_for_chip(chip, n)` for n = 1, 2, 3 on every chip (the
/// dump's `cores_per_device_errors`): same verdicts, same messages.
#[test]
fn tensor_cores_per_device_match_jax() {
    let dump = jax_dump();
    let mut failures = Failures::new();
    let mut compared = 0;
    for chip in Chip::ALL {
        let rows = dump["cores_per_device_errors"][chip.info().jax_chip_version]
            .as_array()
            .unwrap();
        for row in rows {
            let query = TargetQuery {
                tensor_cores_per_device: row["num_tensor_cores_per_logical_device"].as_u64(),
                ..TargetQuery::default()
            };
            match row["ok"].as_bool().unwrap() {
                true => failures.eq(format!("{chip}: {row}"), chip.check(&query), Ok(())),
                false => failures.eq(
                    format!("{chip}: {row}"),
                    chip.check(&query).map_err(|e| e.to_string()),
                    Err(row["message"].as_str().unwrap().to_string()),
                ),
            }
            compared += 1;
        }
    }
    failures.assert_none();
    assert_eq!(compared, 33);
}

#[test]
fn tensor_cores_per_device_fails_and_passes() {
    let two = TargetQuery {
        tensor_cores_per_device: Some(2),
        ..TargetQuery::default()
    };
    assert_eq!(
        Chip::V7x.check(&two),
        Err(TargetError::TensorCoresPerDevice {
            chip: Chip::V7x,
            requested: 2
        })
    );
    assert_eq!(Chip::V5p.check(&two), Ok(()));
    // The tensorcore_mesh_kernel golden was lowered for a megacore v5p device (num_cores = 2).
    let case = case_json(&goldens_dir().join("tensorcore_mesh_kernel"));
    let kind = case["params"]["device_kind"].as_str().unwrap();
    let cores = case["params"]["num_cores"].as_u64();
    let query = TargetQuery {
        tensor_cores_per_device: cores,
        ..TargetQuery::default()
    };
    assert_eq!(Chip::from_device_kind(kind).unwrap().check(&query), Ok(()));
    let on_v5e = Chip::V5e.check(&query);
    assert!(
        matches!(on_v5e, Err(TargetError::TensorCoresPerDevice { .. })),
        "{on_v5e:?}"
    );
}

/// A `vmem_limit_bytes` above the chip's VMEM is no target error: libtpu
/// compiles it (and fails only when the kernel uses more), so
/// `tpu_custom_call::libtpu` warns instead.
#[test]
fn vmem_limit_above_the_chip_is_not_a_target_error() {
    let query = |bytes: i64| TargetQuery {
        vmem_limit_bytes: Some(bytes),
        ..TargetQuery::default()
    };
    assert_eq!(Chip::V6e.check(&query(300 << 20)), Ok(()));
    assert_eq!(Chip::V6e.check(&query(128 << 20)), Ok(()));
    assert_eq!(Chip::V4.check(&query(16 * (1 << 20) + 1)), Ok(()));
    // Negative values are parameter validation's business, not the target's.
    assert_eq!(Chip::V4.check(&query(-1)), Ok(()));
}

#[test]
fn internal_scratch_fails_and_passes() {
    let query = |bytes: i64| TargetQuery {
        internal_scratch_in_bytes: Some(bytes),
        ..TargetQuery::default()
    };
    assert_eq!(
        Chip::V4i.check(&query(32 << 20)).unwrap_err().to_string(),
        "`internal_scratch_in_bytes` = 32 MiB exceeds the 16 MiB of VMEM on v4i"
    );
    assert_eq!(Chip::V5e.check(&query(32 << 20)), Ok(()));
}

#[test]
fn config_memory_spaces_fail_and_pass() {
    let query = TargetQuery {
        memory_spaces: vec![
            MemorySpace::Vmem,
            MemorySpace::ScVectorSmem,
            MemorySpace::Smem,
            MemorySpace::ScVectorSmem,
        ],
        ..TargetQuery::default()
    };
    let all = Chip::V5e.check_all(&query);
    assert_eq!(
        all,
        [TargetError::MemorySpaceUnavailable {
            chip: Chip::V5e,
            memory_space: MemorySpace::ScVectorSmem
        }]
    );
    assert_eq!(
        all[0].to_string(),
        "memory space SC_VECTOR_SMEM (color 12) needs SparseCores, which v5e does not have"
    );
    assert_eq!(Chip::V5p.check(&query), Ok(()));
    let plain = TargetQuery {
        memory_spaces: vec![
            MemorySpace::Hbm,
            MemorySpace::Vmem,
            MemorySpace::Smem,
            MemorySpace::SemaphoreMem,
            MemorySpace::Host,
        ],
        ..TargetQuery::default()
    };
    let mut failures = Failures::new();
    for chip in Chip::ALL {
        failures.eq(format!("{chip}: plain spaces"), chip.check(&plain), Ok(()));
    }
    for space in [
        MemorySpace::ScScalarSemaphoreMem,
        MemorySpace::ScVectorSemaphoreMem,
        MemorySpace::ScScalarSmem,
    ] {
        let q = TargetQuery {
            memory_spaces: vec![space],
            ..TargetQuery::default()
        };
        let on_v2 = Chip::V2.check(&q);
        failures.check(
            matches!(on_v2, Err(TargetError::MemorySpaceUnavailable { .. })),
            || format!("{space:?} on v2: {on_v2:?}"),
        );
        failures.eq(format!("{space:?} on v6e"), Chip::V6e.check(&q), Ok(()));
    }
    failures.assert_none();
}

#[test]
fn kernel_memory_spaces_fail_and_pass() {
    let q = |s: &str| TargetQuery {
        kernel_memory_spaces: vec![s.parse().unwrap()],
        ..TargetQuery::default()
    };
    let err = Chip::V5e.check(&q("#tpu.memory_space<cmem>")).unwrap_err();
    assert_eq!(
        err,
        TargetError::KernelMemorySpaceUnavailable {
            chip: Chip::V5e,
            memory_space: TpuMemorySpace::Cmem
        }
    );
    assert_eq!(
        err.to_string(),
        "kernel memory space `#tpu.memory_space<cmem>` needs CMEM (v4 and v4i have it), which v5e does not have"
    );
    assert_eq!(Chip::V4.check(&q("cmem")), Ok(()));
    assert_eq!(Chip::V4i.check(&q("cmem")), Ok(()));
    assert_eq!(
        Chip::V4.check(&q("vmem_shared")).unwrap_err().to_string(),
        "kernel memory space `#tpu.memory_space<vmem_shared>` needs SparseCores, which v4 does not have"
    );
    assert_eq!(Chip::V7x.check(&q("vmem_shared")), Ok(()));
}

#[test]
fn tpu_memory_spaces_round_trip() {
    let mut failures = Failures::new();
    for space in TpuMemorySpace::ALL {
        failures.eq(
            format!("{space} parsed"),
            space.to_string().parse::<TpuMemorySpace>(),
            Ok(space),
        );
        failures.eq(
            format!("{} parsed", space.keyword()),
            space.keyword().parse::<TpuMemorySpace>(),
            Ok(space),
        );
    }
    failures.assert_none();
    assert_eq!(
        "#tpu.memory_space<vmem2>".parse::<TpuMemorySpace>(),
        Err(TargetError::UnknownMemorySpace {
            text: "#tpu.memory_space<vmem2>".to_string()
        })
    );
}

#[test]
fn check_reports_the_first_of_check_all() {
    let query = TargetQuery {
        device_type: Some(DeviceType::SparseCore),
        vmem_limit_bytes: Some(1 << 30),
        memory_spaces: vec![MemorySpace::ScScalarSmem],
        kernel_memory_spaces: vec![TpuMemorySpace::VmemShared],
        ..TargetQuery::default()
    };
    let all = Chip::V5e.check_all(&query);
    assert_eq!(all.len(), 3, "{all:?}");
    assert_eq!(Chip::V5e.check(&query), Err(all[0].clone()));
    assert_eq!(all[0], TargetError::NoSparseCores { chip: Chip::V5e });
    assert_eq!(
        TargetQuery::default(),
        TargetQuery::from_facts(&KernelFacts::default())
    );
    let mut failures = Failures::new();
    for chip in Chip::ALL {
        failures.eq(
            format!("{chip}: the empty query"),
            chip.check(&TargetQuery::default()),
            Ok(()),
        );
    }
    failures.assert_none();
}

// ---------------------------------------------------------------- the goldens

/// What the target checks need, read from a golden: the kernel's top-level
/// funcs (core type, core- and subcore-parallel bounds, memref memory
/// spaces) and the config JAX wrote (VMEM limit, internal scratch, colors).
fn golden_query(case: &Path) -> TargetQuery {
    let text = std::fs::read_to_string(case.join("kernel_pre_serde.generic.mlir")).unwrap();
    let ctx = Context::new();
    let kernel = Kernel::from_text(&ctx, &text, "golden").unwrap();
    let mut query = TargetQuery::default();
    let mut op = kernel.module().body().first_operation();
    while let Some(func) = op {
        let attr = |name: &str| func.attribute(name).ok().map(|a| a.to_string());
        if let Some(core_type) = attr("tpu.core_type")
            && core_type.starts_with("#tpu.core_type<sc_")
        {
            query.device_type = Some(DeviceType::SparseCore);
        }
        if let (Some(bounds), Some(semantics)) =
            (attr("iteration_bounds"), attr("dimension_semantics"))
        {
            let bounds: Vec<i64> = bounds
                .trim_start_matches("array<i64:")
                .trim_end_matches('>')
                .split(',')
                .map(|b| b.trim().parse().unwrap())
                .collect();
            let semantics: Vec<&str> = semantics.trim_matches(['[', ']']).split(", ").collect();
            assert_eq!(bounds.len(), semantics.len());
            for (bound, semantic) in bounds.into_iter().zip(semantics) {
                match semantic {
                    "#tpu.dimension_semantics<core_parallel>" => {
                        query.core_count = Some(bound as u64)
                    }
                    "#tpu.dimension_semantics<subcore_parallel>" => {
                        query.subcore_count = Some(bound as u64)
                    }
                    _ => {}
                }
            }
        }
        op = func.next_in_block();
    }
    for piece in text.split("#tpu.memory_space<").skip(1) {
        let keyword = &piece[..piece.find('>').unwrap()];
        let space: TpuMemorySpace = keyword.parse().unwrap();
        if !query.kernel_memory_spaces.contains(&space) {
            query.kernel_memory_spaces.push(space);
        }
    }
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(case.join("backend_config.json")).unwrap())
            .unwrap();
    if let Some(scoped) = config["scoped_memory_configs"].as_array() {
        for c in scoped.iter().filter(|c| c["memory_space"] == 1) {
            query.vmem_limit_bytes = c["size"].as_i64();
        }
    }
    let ccc = &config["custom_call_config"];
    query.internal_scratch_in_bytes = ccc["internal_scratch_in_bytes"].as_i64();
    for key in ["input_memory_space_colors", "output_memory_space_colors"] {
        for entry in ccc[key].as_array().into_iter().flatten() {
            let color = entry["color"].as_u64().unwrap();
            let space = [
                MemorySpace::Hbm,
                MemorySpace::Vmem,
                MemorySpace::SemaphoreMem,
                MemorySpace::Smem,
                MemorySpace::Host,
                MemorySpace::ScScalarSemaphoreMem,
                MemorySpace::ScVectorSemaphoreMem,
                MemorySpace::ScScalarSmem,
                MemorySpace::ScVectorSmem,
            ]
            .into_iter()
            .find(|s| u64::from(s.color()) == color)
            .unwrap();
            query.memory_spaces.push(space);
        }
    }
    query
}

fn case_json(case: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(case.join("case.json")).unwrap()).unwrap()
}

/// JAX lowered each golden that names a chip on that chip: it passes there.
#[test]
fn goldens_pass_on_the_chip_jax_lowered_them_for() {
    let mut failures = Failures::new();
    let mut checked = 0;
    for case in golden_cases() {
        let Some(kind) = case_json(&case)["params"]["device_kind"]
            .as_str()
            .map(str::to_string)
        else {
            continue;
        };
        checked += 1;
        let name = case_name(&case);
        let Some(chip) = Chip::from_device_kind(&kind) else {
            failures.fail(format!("{name}: unknown device kind {kind:?}"));
            continue;
        };
        let query = golden_query(&case);
        failures.eq(format!("{name} on {chip}"), chip.check_all(&query), vec![]);
    }
    failures.assert_none();
    assert!(checked >= 9, "{checked}");
}

#[test]
fn sparse_core_goldens_pass_on_v5p_and_v7x_and_fail_on_v5e() {
    let mut failures = Failures::new();
    let mut checked = 0;
    for case in golden_cases() {
        let query = golden_query(&case);
        if query.device_type != Some(DeviceType::SparseCore) {
            continue;
        }
        let name = case_name(&case);
        failures.check(query.core_count.is_some(), || {
            format!("{name}: no core count")
        });
        failures.eq(format!("{name} on v5p"), Chip::V5p.check(&query), Ok(()));
        failures.eq(format!("{name} on v7x"), Chip::V7x.check(&query), Ok(()));
        // As JAX on v5e (reference §9.3: "v5e SC -> RuntimeError The current TPU does not have SparseCores").
        failures.eq(
            format!("{name} on v5e"),
            Chip::V5e.check(&query).map_err(|e| e.to_string()),
            Err("The current TPU does not have SparseCores".to_string()),
        );
        checked += 1;
    }
    failures.assert_none();
    assert!(checked >= 8, "{checked}");
}

#[test]
fn sparse_core_goldens_on_v8i_fail_on_cores_then_subcores() {
    let two = golden_query(&goldens_dir().join("sparsecore_vector_2cores_sc_tiling"));
    assert_eq!(
        Chip::V8i.check(&two).unwrap_err().to_string(),
        "Mesh has 2 cores, but the current TPU chip has only 1 SparseCores"
    );
    let one = golden_query(&goldens_dir().join("sparsecore_vector_1core"));
    assert_eq!((one.core_count, one.subcore_count), (Some(1), Some(16)));
    assert_eq!(
        Chip::V8i.check(&one).unwrap_err().to_string(),
        "Mesh has 16 subcores, but the current TPU chip has only 4 subcores"
    );
    let scalar = golden_query(&goldens_dir().join("sparsecore_scalar_opt_level_O0_sc_tiling"));
    assert_eq!((scalar.core_count, scalar.subcore_count), (Some(1), None));
    assert_eq!(Chip::V8i.check(&scalar), Ok(()));
}

#[test]
fn vmem_limit_golden_against_targets() {
    let query = golden_query(&goldens_dir().join("vmem_limit"));
    assert_eq!(query.vmem_limit_bytes, Some(64 << 20));
    assert_eq!(Chip::V5p.check(&query), Ok(()), "64 MiB fits exactly");
    // Above v4's 16 MiB: a warning of `libtpu`, not a target error.
    assert_eq!(Chip::V4.check(&query), Ok(()));
}

#[test]
fn tensor_core_mesh_golden_is_not_a_core_parallel_kernel() {
    // A TensorCoreMesh lowers to a `parallel` dimension: not checkable, passes everywhere.
    let query = golden_query(&goldens_dir().join("tensorcore_mesh_kernel"));
    assert_eq!((query.device_type, query.core_count), (None, None));
    let mut failures = Failures::new();
    for chip in Chip::ALL {
        failures.eq(chip, chip.check(&query), Ok(()));
    }
    failures.assert_none();
}

// ---------------------------------------------------------------- policies

/// JAX picks `core_ids` vs `megachip_parallelism_config` from forward
/// compatibility alone; the goldens (all lowered on TPU7x) show both.
#[test]
fn use_core_ids_follows_forward_compatibility_as_in_the_goldens() {
    let mut failures = Failures::new();
    let mut checked = 0;
    for case in golden_cases() {
        let config = std::fs::read_to_string(case.join("backend_config.json")).unwrap();
        let has_core_ids = config.contains("\"core_ids\"");
        let has_megachip = config.contains("megachip_parallelism_config");
        if !has_core_ids && !has_megachip {
            continue;
        }
        let export = case_json(&case)["lowering_path"]
            .as_str()
            .unwrap()
            .starts_with("jax.export");
        let name = case_name(&case);
        failures.eq(
            format!("{name}: use_core_ids vs core_ids"),
            use_core_ids(export),
            has_core_ids,
        );
        failures.eq(
            format!("{name}: !use_core_ids vs megachip_parallelism_config"),
            !use_core_ids(export),
            has_megachip,
        );
        checked += 1;
    }
    failures.assert_none();
    assert!(checked >= 6, "{checked}");
}

#[test]
fn needs_layout_passes_as_in_the_goldens() {
    let mut failures = Failures::new();
    for case in golden_cases() {
        let config: Value = serde_json::from_str(
            &std::fs::read_to_string(case.join("backend_config.json")).unwrap(),
        )
        .unwrap();
        let golden = config["custom_call_config"]["needs_layout_passes"]
            .as_bool()
            .unwrap_or(false);
        let device_type = golden_query(&case).device_type;
        let name = case_name(&case);
        if device_type.is_none() {
            // TensorCore kernels: true whatever was asked.
            for requested in [None, Some(false), Some(true)] {
                failures.check(needs_layout_passes(requested, None), || {
                    format!("{name}: needs_layout_passes({requested:?}, None)")
                });
            }
            failures.check(golden, || {
                format!("{name}: TensorCore golden without needs_layout_passes")
            });
        } else {
            // SparseCore goldens come from Pallas, whose default is true.
            failures.eq(
                format!("{name}: needs_layout_passes"),
                needs_layout_passes(Some(true), device_type),
                golden,
            );
        }
    }
    failures.assert_none();
    assert!(!needs_layout_passes(None, Some(DeviceType::SparseCore)));
    assert!(!needs_layout_passes(
        Some(false),
        Some(DeviceType::TensorCore)
    ));
}

// ---------------------------------------------------------------- CLI

fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tpu-custom-call"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn cli_targets_prints_an_aligned_table() {
    let (code, out, err) = cli(&["targets"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let lines: Vec<&str> = out.lines().collect();
    let header = lines[0];
    assert!(header.starts_with("chip  gen  TCs  megacore"), "{header}");
    let rows = &lines[1..=CHIPS.len()];
    // Columns start where the header's do (after two spaces; names have single spaces).
    let h = header.as_bytes();
    let column_starts: Vec<usize> = (0..h.len())
        .filter(|&i| i == 0 || (i >= 2 && h[i] != b' ' && h[i - 1] == b' ' && h[i - 2] == b' '))
        .collect();
    assert_eq!(column_starts.len(), 15, "{column_starts:?}");
    let mut failures = Failures::new();
    for (row, c) in rows.iter().zip(&CHIPS) {
        failures.check(row.starts_with(&format!("{} ", c.name)), || {
            format!("{}: row {row:?}", c.name)
        });
        for &start in &column_starts[1..] {
            let bytes = row.as_bytes();
            failures.check(
                bytes.get(start).is_some_and(|&b| b != b' ')
                    && bytes.get(start - 1) == Some(&b' ')
                    && bytes.get(start - 2) == Some(&b' '),
                || format!("{}: no column at {start} in {row:?}", c.name),
            );
        }
        failures.check(row.ends_with(&c.device_kinds.join(", ")), || {
            format!("{}: device kinds in {row:?}", c.name)
        });
    }
    failures.assert_none();
    let v6e = rows[Chip::V6e as usize];
    assert!(
        v6e.contains("128 MiB") && v6e.contains("2x16 (8 lanes, 256 KiB, 32 B)"),
        "{v6e}"
    );
    assert!(lines[CHIPS.len() + 1].is_empty());
}

/// Records where the JSON `j` of one chip differs from its row `c`.
fn check_chip_json(failures: &mut Failures, j: &Value, c: &ChipInfo) {
    let name = c.name;
    let aliases: Vec<&str> = c.aliases().collect();
    failures.eq(
        format!("{name} name"),
        &j["name"],
        &serde_json::json!(c.name),
    );
    failures.eq(
        format!("{name} jax_chip_version"),
        &j["jax_chip_version"],
        &serde_json::json!(c.jax_chip_version),
    );
    failures.eq(
        format!("{name} aliases"),
        &j["aliases"],
        &serde_json::json!(aliases),
    );
    failures.eq(
        format!("{name} device_kinds"),
        &j["device_kinds"],
        &serde_json::json!(c.device_kinds),
    );
    for (key, value) in [
        ("generation", u64::from(c.generation)),
        ("tensor_cores_per_chip", c.tensor_cores_per_chip),
        ("lanes", c.lanes),
        ("sublanes", c.sublanes),
        ("mxu_column_size", c.mxu_column_size),
        ("mxus", c.mxus),
        ("accumulators", c.accumulators),
        ("vmem_bytes", c.vmem_bytes),
        ("smem_bytes", c.smem_bytes),
        ("cmem_bytes", c.cmem_bytes),
        ("hbm_bytes", c.hbm_bytes),
        (
            "hbm_bandwidth_bytes_per_second",
            c.hbm_bandwidth_bytes_per_second,
        ),
        ("bf16_ops_per_second", c.bf16_ops_per_second),
        ("int8_ops_per_second", c.int8_ops_per_second),
        ("fp8_ops_per_second", c.fp8_ops_per_second),
        ("int4_ops_per_second", c.int4_ops_per_second),
    ] {
        failures.eq(format!("{name} {key}"), j[key].as_u64(), Some(value));
    }
    failures.eq(
        format!("{name} megacore"),
        &j["megacore"],
        &serde_json::json!(c.megacore),
    );
    failures.eq(
        format!("{name} lite"),
        &j["lite"],
        &serde_json::json!(c.lite),
    );
    match c.sparse_core {
        None => failures.check(j["sparse_core"].is_null(), || {
            format!("{name} sparse_core: {}, not null", j["sparse_core"])
        }),
        Some(sc) => {
            let s = &j["sparse_core"];
            for (key, value) in [
                ("cores", sc.cores),
                ("subcores", sc.subcores),
                ("lanes", sc.lanes),
                ("vmem_bytes_per_subcore", sc.vmem_bytes_per_subcore),
                ("dma_granule_bytes", sc.dma_granule_bytes),
            ] {
                failures.eq(
                    format!("{name} sparse_core.{key}"),
                    s[key].as_u64(),
                    Some(value),
                );
            }
        }
    }
    failures.eq(
        format!("{name}: number of fields (one the test does not check?)"),
        j.as_object().map(serde_json::Map::len),
        Some(23),
    );
}

#[test]
fn cli_targets_json_is_the_table_and_jaxs() {
    let (code, out, err) = cli(&["targets", "--json"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let chips: Value = serde_json::from_str(&out).unwrap();
    let chips = chips.as_array().unwrap();
    assert_eq!(chips.len(), CHIPS.len());
    let dump = jax_dump();
    let mut failures = Failures::new();
    for ((j, c), jax) in chips
        .iter()
        .zip(&CHIPS)
        .zip(dump["chips"].as_array().unwrap())
    {
        check_chip_json(&mut failures, j, c);
        // The same numbers as JAX's, by JAX's names.
        let name = c.name;
        for (ours, theirs) in [
            ("vmem_bytes", "vmem_capacity_bytes"),
            ("hbm_bytes", "hbm_capacity_bytes"),
            (
                "tensor_cores_per_chip",
                "num_physical_tensor_cores_per_chip",
            ),
        ] {
            failures.eq(
                format!("{name}: {ours} vs JAX's {theirs}"),
                &j[ours],
                &jax[theirs],
            );
        }
        failures.eq(
            format!("{name}: sparse_core null, as JAX's"),
            j["sparse_core"].is_null(),
            jax["sparse_core"].is_null(),
        );
    }
    failures.assert_none();
}

#[test]
fn cli_targets_one_chip() {
    let (code, out, err) = cli(&["targets", "v5p"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let mut failures = Failures::new();
    for line in [
        "chip                         v5p",
        "aliases                      TPU v5, TPU v5p",
        "VMEM per TensorCore          64 MiB (67108864 bytes)",
        "HBM per TensorCore           51.5 GB (51500000000 bytes)",
        "SparseCores                  4",
        "SparseCore subcores          16",
        "SparseCore VMEM per subcore  512 KiB (524288 bytes)",
    ] {
        failures.check(out.lines().any(|l| l == line), || {
            format!("missing {line:?}")
        });
    }
    if !failures.is_empty() {
        failures.fail(format!("in:\n{out}"));
    }
    failures.assert_none();
    // Aliases select the same chip; JSON of one chip is its element of the array.
    assert_eq!(cli(&["targets", "TPU v5"]).1, out);
    let (_, one, _) = cli(&["targets", "tpu7x", "--json"]);
    let one: Value = serde_json::from_str(&one).unwrap();
    let mut failures = Failures::new();
    check_chip_json(&mut failures, &one, Chip::V7x.info());
    failures.assert_none();
    let (_, none, _) = cli(&["targets", "v5e"]);
    assert!(
        none.lines()
            .any(|l| l.starts_with("SparseCores ") && l.ends_with(" none")),
        "{none}"
    );
}

#[test]
fn cli_targets_unknown_name_exits_1_with_the_list() {
    let (code, out, err) = cli(&["targets", "v9"]);
    assert_eq!(code, 1);
    assert_eq!(out, "");
    assert_eq!(
        err,
        format!(
            "error: {}\n",
            TargetError::UnknownChip {
                name: "v9".to_string()
            }
        )
    );
    assert!(
        err.contains("v2, v3, v4i, v4, v5e, v5p, v6e, v7, v7x, v8i, v8t"),
        "{err}"
    );
    let (code, _, err) = cli(&["targets", "--help"]);
    assert_eq!(code, 0);
    assert!(err.is_empty());
}
