//! Issue 51's race cases (`tests/data/exec-races`, made by
//! `scripts/jaxref/exec/make_races.py` with JAX 0.12; SparseCore kernels
//! lowered for v7x): vector subcores sharing `VMEM_SHARED` with and
//! without their barriers, indirect DMAs racing a vector store, semaphores
//! left non-zero. Every race case is reported under every DMA schedule;
//! the race-free twins compute the reference numbers under every one.

use std::path::PathBuf;

use tpu_custom_call::Context;
use tpu_custom_call::exec::{Array, DmaTiming, ExecError, RunOptions, host, npy};

use crate::common::*;

/// Every `--dma` schedule (two seeds of the random one).
const SCHEDULES: [DmaTiming; 4] = [
    DmaTiming::AtStart,
    DmaTiming::AtWait,
    DmaTiming::Random(1),
    DmaTiming::Random(2),
];

fn case_dir(name: &str) -> PathBuf {
    data_dir().join("exec-races").join(name)
}

/// Runs a case's call on its inputs.
fn run_case(name: &str, options: &RunOptions) -> Result<Vec<Array>, ExecError> {
    let dir = case_dir(name);
    let ctx = Context::new();
    let bytes = std::fs::read(dir.join("module.mlir")).unwrap();
    let call = host::load_call(&ctx, &bytes, name, None).unwrap_or_else(|e| panic!("{name}: {e}"));
    let n = call.execution.call_shape().operands.len();
    let paths: Vec<_> = (0..n).map(|k| dir.join(format!("in{k}.npy"))).collect();
    let inputs = host::read_operands(&call.execution, &paths, 1).unwrap();
    Ok(call
        .execution
        .run_report(&inputs, options)?
        .results
        .remove(0))
}

fn watched(dma: DmaTiming) -> RunOptions {
    RunOptions {
        detect_races: true,
        detect_uninitialized: true,
        dma,
        ..RunOptions::default()
    }
}

fn want(name: &str) -> Array {
    npy::read(&case_dir(name).join("want0.npy"), None).unwrap()
}

/// The race-free twins: no race under any schedule, and the numbers of the
/// JAX test's assertion (or numpy's).
#[test]
fn race_free_sparsecore_kernels_compute_their_reference_under_every_schedule() {
    for name in ["scatter_add_barriers", "indirect_gather_ok"] {
        let expected = want(name);
        for dma in SCHEDULES {
            let got =
                run_case(name, &watched(dma)).unwrap_or_else(|e| panic!("{name} {dma:?}: {e}"));
            assert_eq!(got[0], expected, "{name} {dma:?}");
        }
    }
}

/// The user's scatter-add of issue 51 without its `plsc.subcore_barrier()`
/// calls: subcore 0's initialisation (a DMA into `VMEM_SHARED`) and its
/// read-back are not ordered against the other subcores' scatter-adds.
/// Reported under every schedule, naming both accesses and both subcores.
#[test]
fn scatter_add_without_barriers_is_a_race_between_subcores() {
    for dma in SCHEDULES {
        let e = run_case("scatter_add_no_barriers", &watched(dma))
            .unwrap_err()
            .message;
        assert!(e.contains("race(s) found"), "{dma:?}: {e}");
        assert!(
            e.contains("the DMA `tpu.enqueue_dma`")
                && e.contains("writes scratch operand 2 (VMEM_SHARED)")
                && e.contains("[grid point (0, 0)]"),
            "{dma:?}: {e}"
        );
        assert!(
            e.contains("the DMA `tpu.enqueue_indirect_dma`") && e.contains("adds into it"),
            "{dma:?}: {e}"
        );
        assert!(
            e.contains("reads scratch operand 2 (VMEM_SHARED)"),
            "the read-back: {dma:?}: {e}"
        );
        assert!(
            e.contains("nothing orders the two") && e.contains("grid points (0, 0) and (0, "),
            "{dma:?}: {e}"
        );
    }
    // Unwatched, the run computes numbers (wrong ones: not the barrier
    // kernel's).
    let got = run_case("scatter_add_no_barriers", &RunOptions::default()).unwrap();
    assert_ne!(got[0], want("scatter_add_barriers"));
}

/// An indirect gather (or scatter) started, then a vector store into its
/// local buffer before the wait: the store writes the gather's target (the
/// scatter's source) while the DMA is in flight, under every schedule.
#[test]
fn an_indirect_dma_in_flight_races_with_a_vector_store() {
    for (name, dir) in [
        ("indirect_gather_store", "into"),
        ("indirect_scatter_store", "out of"),
    ] {
        for dma in SCHEDULES {
            let e = run_case(name, &watched(dma)).unwrap_err().message;
            assert!(e.contains("1 race(s) found"), "{name} {dma:?}: {e}");
            assert!(
                e.contains("`tpu.vector_store`")
                    && e.contains("writes scratch operand 1 (VMEM)")
                    && e.contains("while the DMA `tpu.enqueue_indirect_dma`")
                    && e.contains(&format!("{dir} it is in flight")),
                "{name} {dma:?}: {e}"
            );
        }
    }
}

/// The count interpret mode printed at kernel exit, per DMA execution mode
/// (`case.json`), `None` when it printed nothing.
fn interpret_count(name: &str, mode: &str) -> Option<i64> {
    let text = std::fs::read_to_string(case_dir(name).join("case.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let run = json["interpret_mode"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["dma_execution_mode"] == mode)
        .unwrap();
    let printed = run["printed"].as_str().unwrap();
    let tail = printed.trim().rsplit("at kernel exit: ").next()?;
    if printed.is_empty() {
        return None;
    }
    Some(tail.parse().unwrap())
}

/// A semaphore signalled and never waited: interpret mode prints it at
/// kernel exit (both DMA modes); the executor's race detector fails the
/// run naming it and the count interpret mode printed, under every
/// schedule. Unwatched, the run completes with interpret mode's numbers.
#[test]
fn a_semaphore_left_non_zero_is_reported_as_interpret_mode_reports_it() {
    let name = "sem_signal_left";
    let count = interpret_count(name, "on_wait").unwrap();
    assert_eq!(interpret_count(name, "eager"), Some(count));
    for dma in SCHEDULES {
        let e = run_case(name, &watched(dma)).unwrap_err().message;
        assert!(
            e.starts_with("1 semaphore(s) not back to zero when the kernel returned")
                && e.contains(&format!(
                    "scratch operand 0 (SEMAPHORE_MEM)[0] holds {count}"
                )),
            "{dma:?}: {e}"
        );
    }
    let got = run_case(name, &RunOptions::default()).unwrap();
    let x = npy::read(&case_dir(name).join("in0.npy"), None).unwrap();
    for i in 0..x.len() {
        assert_eq!(got[0].data.get_f64(i), x.data.get_f64(i) + 1.0);
    }
    // A DMA never waited for: interpret mode prints its semaphore's bytes
    // when it copies eagerly (nothing when the copy waits for a wait that
    // never comes); the executor names the bytes under every schedule,
    // watched or not.
    let name = "dma_never_waited";
    assert_eq!(interpret_count(name, "on_wait"), None);
    let bytes = interpret_count(name, "eager").unwrap();
    for dma in SCHEDULES {
        for detect_races in [false, true] {
            let o = RunOptions {
                detect_races,
                dma,
                ..RunOptions::default()
            };
            let e = run_case(name, &o).unwrap_err().message;
            assert!(
                e.contains("a DMA was still in flight")
                    && e.contains(&format!("holds {bytes} byte(s) never waited for")),
                "{dma:?}: {e}"
            );
        }
    }
}
