//! The scoped-VMEM budget of kernels with VMEM scratch against libtpu's
//! verdicts (`tests/data/vmem-sweep/scratch.json`, made by
//! `scripts/vmem-sweep/scratch_sweep.py`: Pallas kernels lowered by JAX 0.12,
//! compiled by libtpu 0.0.50.1 for v4, v5e, v5p, v6e and v7x).

use serde_json::Value;
use tpu_custom_call::contract::{self, ContractError};
use tpu_custom_call::decode;
use tpu_custom_call::{Chip, Context};

use crate::common::*;

/// Our verdict on one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ours {
    Fits,
    Refused,
    NotChecked,
}

/// libtpu's verdict: compiled, refused for VMEM, or refused otherwise
/// (`None`: a Mosaic limitation of the chip, not the budget's business).
fn libtpu_ok(verdict: &Value) -> Option<bool> {
    if verdict["ok"].as_bool().unwrap() {
        return Some(true);
    }
    let error = verdict["error"].as_str().unwrap_or_default();
    let vmem = error.contains("Scoped allocation with size")
        || error.contains("Ran out of memory in memory space vmem")
        || (error.contains("would exceed memory") && error.contains("space=vmem"));
    vmem.then_some(false)
}

/// Every (kernel, chip) of the sweep through `contract::check_call`: no
/// kernel libtpu compiles is refused, none it refuses for VMEM is said to
/// fit; the rest is reported as not checked, naming `--compile-check`.
#[test]
fn vmem_scratch_verdicts_agree_with_libtpu() {
    let ctx = Context::new();
    let text = std::fs::read_to_string(data_dir().join("vmem-sweep/scratch.json")).unwrap();
    let data: Value = serde_json::from_str(&text).unwrap();
    let kernels = data["kernels"].as_array().unwrap();
    assert!(kernels.len() >= 90, "{} kernels", kernels.len());
    let mut failures = Failures::new();
    // (libtpu ok, ours) counts.
    let mut counts = std::collections::BTreeMap::<(bool, &str), usize>::new();
    let mut other = 0;
    for k in kernels {
        let name = k["name"].as_str().unwrap();
        let calls = decode::decode_module(&ctx, k["module"].as_str().unwrap().as_bytes(), name)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let [call] = &calls[..] else {
            panic!("{name}: {} calls", calls.len());
        };
        for (chip, verdict) in k["verdicts"].as_object().unwrap() {
            let Some(libtpu) = libtpu_ok(verdict) else {
                other += 1;
                continue;
            };
            let c: Chip = chip.parse().unwrap();
            let ours = match contract::check_call(
                &call.kernel,
                &call.found.operand_types,
                &call.found.result_types,
                &call.params,
                Some(c),
            ) {
                Ok(report) => {
                    let note = report
                        .not_checked
                        .iter()
                        .find(|n| n.contains("scoped-VMEM budget"));
                    if let Some(note) = note {
                        failures.check(note.contains("--compile-check"), || {
                            format!("{name} on {chip}: {note}")
                        });
                    }
                    if let Some(n) = note
                        && std::env::var("VMEM_DEBUG").is_ok()
                    {
                        eprintln!("NC {libtpu} {chip} {name}: {n}");
                    }
                    if note.is_some() {
                        Ours::NotChecked
                    } else {
                        Ours::Fits
                    }
                }
                Err(errors) => {
                    failures.check(
                        errors
                            .iter()
                            .all(|e| matches!(e, ContractError::ScopedVmem { .. })),
                        || format!("{name} on {chip}: {errors:?}"),
                    );
                    Ours::Refused
                }
            };
            let what = match ours {
                Ours::Fits => "fits",
                Ours::Refused => "refused",
                Ours::NotChecked => "not checked",
            };
            *counts.entry((libtpu, what)).or_default() += 1;
            failures.check(!(libtpu && ours == Ours::Refused), || {
                format!("false refusal: {name} on {chip} (libtpu compiles it)")
            });
            failures.check(!(!libtpu && ours == Ours::Fits), || {
                format!(
                    "false fit: {name} on {chip}: libtpu says {}",
                    verdict["error"]
                )
            });
        }
    }
    eprintln!("(libtpu ok, ours): {counts:?}; {other} refused for other reasons");
    failures.assert_none();
    // The definite verdicts (the sweep sits on the limits, so many are not).
    let n = |ok: bool, what: &str| counts.get(&(ok, what)).copied().unwrap_or(0);
    assert!(
        n(true, "fits") >= 70 && n(false, "refused") >= 100,
        "{counts:?}"
    );
}
