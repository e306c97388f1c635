//! Executing mutated kernels on random inputs (`tpu_custom_call::exec`).
//! Input: a signature line `(tensor<...>, ...) -> (tensor<...>, ...)`, then
//! a Mosaic kernel's text (seeds: the JAX goldens' kernels with their
//! calls' types). A kernel that loads and compiles runs with seeded random
//! inputs under op and memory limits (races, uninitialised reads, DMA
//! schedules and two cores in some runs): the only acceptable outcomes are
//! results or errors, never a panic, an abort, a hang or undefined behaviour.

use libfuzzer_sys::fuzz_target;
use tpu_custom_call::exec::{
    CallShape, DmaTiming, Execution, RunOptions, TensorType, random_inputs,
};
use tpu_custom_call::{Context, Kernel};

/// Every `tensor<...>` of a text, in order.
fn tensors(text: &str) -> Option<Vec<TensorType>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("tensor<") {
        let tail = &rest[at..];
        let end = tail.find('>')?;
        out.push(TensorType::parse(&tail[..=end])?);
        rest = &tail[end + 1..];
    }
    Some(out)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Some((signature, kernel)) = text.split_once('\n') else { return };
    let Some((ins, outs)) = signature.split_once("->") else { return };
    let (Some(operands), Some(results)) = (tensors(ins), tensors(outs)) else { return };
    // Keep the host arrays small: the limits below bound the kernel's own.
    if operands.iter().chain(&results).any(|t| t.shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d)).is_none_or(|n| n > 1 << 20)) {
        return;
    }
    let ctx = Context::new();
    let Ok(kernel) = Kernel::from_text(&ctx, kernel, "fuzz") else { return };
    let shape = CallShape { operands, results, aliases: Vec::new() };
    let Ok(execution) = Execution::new(&kernel, shape) else { return };
    let Ok(inputs) = random_inputs(execution.call_shape(), data.len() as u64) else { return };
    // The detectors, DMA schedules and core counts too, chosen by the input's
    // length (the same input always runs the same way).
    let n = data.len();
    let options = RunOptions {
        max_ops: Some(100_000),
        max_bytes: Some(64 << 20),
        seed: Some(1),
        dma: [DmaTiming::AtStart, DmaTiming::AtWait, DmaTiming::Random(n as u64)][n % 3],
        detect_races: n % 2 == 0,
        detect_uninitialized: n % 5 < 2,
        cores: 1 + n % 2,
        ..RunOptions::default()
    };
    if let Ok(results) = execution.run(&inputs, &options) {
        assert_eq!(results.len(), execution.call_shape().results.len());
        for (r, t) in results.iter().zip(&execution.call_shape().results) {
            assert_eq!(r.shape, t.shape);
            assert_eq!(r.len(), r.data.len());
        }
    }
});

fn main() {
    tpu_custom_call_fuzz::main()
}
