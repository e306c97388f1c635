//! `tpu-custom-call diff`: the tpu_custom_calls of two modules, compared by
//! meaning. Exit 0 equal, 1 different (report on stdout), 2 on errors, like
//! `diff`.

use std::path::PathBuf;
use std::process::ExitCode;

use tpu_custom_call::Context;
use tpu_custom_call::diff::{self, DiffOptions, MatchBy};

use super::{read_input, source_name};

/// How calls are paired.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Match {
    /// The n-th call of A with the n-th call of B.
    Order,
    /// Each call of A with the next call of B with the same kernel_name.
    Name,
    /// By name when a module has several calls and every call is named,
    /// else in order.
    Auto,
}

/// Arguments of `diff`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Exit status: 0 equal, 1 different (the report on stdout), 2 on errors.\n\n\
Fields (for --ignore): the backend_config fields by their JAX names (vmem_limit_bytes, flags, cost_estimate, \
lowered_module_asm for the whole kernel, lowered_module_asm_version, ...), the kernel function's attributes \
(lowered_module_asm.dimension_semantics, or bare: dimension_semantics, iteration_bounds, window_params, \
scalar_prefetch, scratch_operands, tpu.core_type, function_type), op attributes (operand_layouts, \
output_operand_aliases, has_side_effect, mhlo.frontend_attributes[.KEY], ...), operand_types, result_types, \
debug_locations.\n\n\
Calls are paired by kernel_name when a module has several calls and all are named (--match auto), else in \
order.\n\n\
Examples:\n  \
tpu-custom-call diff jax.mlir ours.mlir                 # JAX's Lowered.as_text() vs our emission\n  \
tpu-custom-call diff a.mlir b.mlirbc --match name       # pair calls by kernel name\n  \
tpu-custom-call diff a.mlir b.mlir --ignore vmem_limit_bytes --ignore mhlo.frontend_attributes\n  \
tpu-custom-call diff a.mlir b.mlir --locations --json\n  \
tpu-custom-call diff jax.mlir ours.mlir --run --rtol 1e-6   # same numbers on the same random inputs (executed on the CPU)\n  \
tpu-custom-call diff jax.mlir ours.mlir --run --devices 4 --ignore operands   # a collective kernel (JAX's under shard_map) on 4 CPU devices, per device"
)]
pub struct Args {
    /// First module (text in generic or pretty form, or bytecode; `-` for stdin).
    pub a: PathBuf,
    /// Second module.
    pub b: PathBuf,
    /// Print the report as one JSON object (always printed, equal or not).
    #[arg(long)]
    pub json: bool,
    /// A field not to compare (repeatable); a prefix ending before `.` or `[` ignores its entries.
    /// With --run only `operands` applies (the operand wiring: a call in
    /// `shard_map`'s `sdy.manual_computation` against one in @main).
    #[arg(long, value_name = "FIELD")]
    pub ignore: Vec<String>,
    /// How calls are paired.
    #[arg(
        long = "match",
        value_name = "auto|order|name",
        value_enum,
        default_value = "auto"
    )]
    pub match_by: Match,
    /// Compare the kernels' debug locations too.
    #[arg(long)]
    pub locations: bool,
    /// Compare by behaviour: execute each pair of calls on the same seeded
    /// random inputs (on the CPU) and compare their results, not their text.
    #[arg(long)]
    pub run: bool,
    /// Seed of the inputs of --run.
    #[arg(long, default_value_t = 0, requires = "run")]
    pub seed: u64,
    /// Relative tolerance of --run.
    #[arg(long, default_value_t = 0.0, requires = "run", allow_hyphen_values = true, value_parser = super::values::parse_tolerance)]
    pub rtol: f64,
    /// Absolute tolerance of --run.
    #[arg(long, default_value_t = 0.0, requires = "run", allow_hyphen_values = true, value_parser = super::values::parse_tolerance)]
    pub atol: f64,
    /// Devices of --run: each call runs on this many CPU devices at once
    /// (SPMD partitions: remote DMAs, signals, `tpu.device_id`), device d on
    /// the inputs of seed + d, and the results are compared per device.
    #[arg(long, default_value_t = 1, requires = "run")]
    pub devices: usize,
}

/// Runs `diff`; returns the exit code itself (0, 1 or 2).
pub fn run(args: Args) -> ExitCode {
    match compare(&args) {
        Ok((equal, out)) => {
            if let Err(e) = super::write_output(None, out.as_bytes()) {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
            ExitCode::from(if equal { 0 } else { 1 })
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// `--run`: the calls of A and B, paired in order, executed on the same inputs.
fn compare_run(args: &Args) -> Result<(bool, String), String> {
    use tpu_custom_call::exec::{self, Execution, RunOptions};
    if args.devices == 0 {
        return Err("--devices must be at least 1".into());
    }
    // One thread a device: bounded as `run --devices` is.
    let most = tpu_custom_call::compile::max_devices(None);
    if args.devices > most {
        return Err(format!(
            "--devices {} exceeds the {most} devices of the largest TPU topology libtpu compiles for \
             (each device runs on a thread of its own here); give at most {most}",
            args.devices
        ));
    }
    let (a_name, b_name) = (source_name(&args.a), source_name(&args.b));
    let a = read_input(&args.a)?;
    let b = read_input(&args.b)?;
    let ctx = Context::new();
    let ca =
        tpu_custom_call::decode::decode_module(&ctx, &a, &a_name).map_err(|e| e.to_string())?;
    let cb =
        tpu_custom_call::decode::decode_module(&ctx, &b, &b_name).map_err(|e| e.to_string())?;
    let mut out = String::new();
    // Each call runs alone, on inputs made for its operands: what feeds the
    // operands in each module (swapped arguments) is compared first.
    let mut compared = vec![if args.devices == 1 {
        "each pair of calls run alone on the same seeded inputs, results within --rtol/--atol"
            .to_string()
    } else {
        format!(
            "each pair of calls run alone on {} devices, the same seeded inputs per device, results within --rtol/--atol per device",
            args.devices
        )
    }];
    let mut not_compared = Vec::new();
    let wiring = if args.ignore.iter().any(|f| f == "operands") {
        not_compared.push("operand wiring (--ignore operands)".to_string());
        None
    } else {
        Some((
            diff::wiring::operand_wiring(&ctx, &a, &a_name),
            diff::wiring::operand_wiring(&ctx, &b, &b_name),
        ))
    };
    match wiring {
        None => {}
        Some((Ok(wa), Ok(wb))) => {
            compared.push(diff::wiring::COMPARED.to_string());
            for (i, (x, y)) in wa.iter().zip(&wb).enumerate() {
                for d in diff::wiring_differences(x, y) {
                    out.push_str(&format!(
                        "tpu_custom_call #{i}: {} is fed by `{}` in {a_name} but by `{}` in {b_name}: \
                         the calls get different inputs in their modules\n",
                        d.field,
                        d.a.unwrap_or_default(),
                        d.b.unwrap_or_default()
                    ));
                }
            }
        }
        Some((Err(e), _) | (_, Err(e))) => {
            not_compared.push(format!("operand wiring: a module was not read whole ({e})"))
        }
    }
    if ca.len() != cb.len() {
        out.push_str(&format!(
            "{a_name} has {} tpu_custom_call(s), {b_name} has {}\n",
            ca.len(),
            cb.len()
        ));
    }
    for (i, (x, y)) in ca.iter().zip(&cb).enumerate() {
        let ex =
            Execution::of_call(x).map_err(|e| format!("{a_name}: tpu_custom_call #{i}: {e}"))?;
        let ey =
            Execution::of_call(y).map_err(|e| format!("{b_name}: tpu_custom_call #{i}: {e}"))?;
        match exec::compare_behaviour_on_devices(
            &ex,
            &ey,
            args.seed,
            &RunOptions::default(),
            args.rtol,
            args.atol,
            args.devices,
        ) {
            Ok(None) => {}
            Ok(Some(why)) => out.push_str(&format!("tpu_custom_call #{i}: {why}\n")),
            Err(e) => return Err(format!("tpu_custom_call #{i}: {e}")),
        }
    }
    let equal = out.is_empty();
    if args.json {
        let doc = serde_json::json!({"equal": equal, "by": "behaviour", "seed": args.seed, "devices": args.devices, "differences": out.lines().collect::<Vec<_>>(), "compared": compared, "not_compared": not_compared});
        return Ok((
            equal,
            format!(
                "{}\n",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            ),
        ));
    }
    if !equal {
        out.push_str(&format!("compared: {}\n", compared.join("; ")));
    } else {
        eprintln!("note: compared: {}", compared.join("; "));
    }
    for n in &not_compared {
        eprintln!("note: not compared: {n}");
    }
    Ok((equal, out))
}

fn compare(args: &Args) -> Result<(bool, String), String> {
    if args.run {
        return compare_run(args);
    }
    let options = DiffOptions {
        match_by: match args.match_by {
            Match::Order => MatchBy::Order,
            Match::Name => MatchBy::Name,
            Match::Auto => MatchBy::Auto,
        },
        ignore: args.ignore.clone(),
        locations: args.locations,
    };
    diff::check_options(&options).map_err(|e| e.to_string())?;
    let (a_name, b_name) = (source_name(&args.a), source_name(&args.b));
    if a_name == "<stdin>" && b_name == "<stdin>" {
        return Err("only one of the two modules can be read from stdin (`-`)".to_string());
    }
    let a = read_input(&args.a)?;
    let b = read_input(&args.b)?;
    let ctx = Context::new();
    let report = diff::diff_modules(&ctx, (&a, &a_name), (&b, &b_name), &options)
        .map_err(|e| e.to_string())?;
    let equal = report.is_equal();
    let out = if args.json {
        let mut text =
            serde_json::to_string_pretty(&report.to_json()).map_err(|e| e.to_string())?;
        text.push('\n');
        text
    } else if equal {
        // Nothing on stdout (as `diff`); what was compared on stderr.
        eprintln!(
            "note: {} and {}: {} tpu_custom_call(s) equal; compared: {}",
            report.a_name,
            report.b_name,
            report.a_calls,
            report.compared.join("; ")
        );
        for n in &report.not_compared {
            eprintln!("note: not compared: {n}");
        }
        String::new()
    } else {
        report.to_string()
    };
    Ok((equal, out))
}
