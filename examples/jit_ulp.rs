//! The compiled engine's `f32` math against the interpreter's, in ulps
//! (`scripts/jit-ulp.sh` runs it; the table is in docs/jit.md, "Measured
//! ulp error"). For each op, a kernel `y = op(x)` over 4096x1024 blocks
//! runs on both engines with `x` every `--stride`-th `f32` bit pattern
//! (1: all 2^32 of them) in batches of 4 Mi elements; per op: the largest
//! distance in ulps and the `x` where it is, a histogram, and how often
//! exactly one engine gives NaN or an infinity, and whether the compiled
//! engine lowered the op natively or ran it through its runtime (the
//! interpreter's code: then 0 ulp by construction). `pow` is `powf(x, y)` with
//! `y` a hash of `x` spread over [-8, 8]. Subnormals are flushed (the
//! engines' default): subnormal inputs act as zeros in both.
//!
//!     cargo run --release --example jit_ulp -- [--stride N] [--ops exp,log,...]

use std::process::ExitCode;

use tpu_custom_call::exec::equality::ulp_distance;
use tpu_custom_call::exec::{
    Array, CallShape, Data, ElemType, Engine, Execution, RunOptions, TensorType,
};
use tpu_custom_call::{Context, Kernel};

const ROWS: usize = 4096;
const COLS: usize = 1024;
const BLOCK_ROWS: usize = 512;
const BATCH: usize = ROWS * COLS;

/// The ops: name, the line computing `%r` from `%v` (and `%w` for pow).
const OPS: &[(&str, &str)] = &[
    ("exp", "%r = math.exp %v : T"),
    ("log", "%r = math.log %v : T"),
    ("tanh", "%r = math.tanh %v : T"),
    ("erf", "%r = math.erf %v : T"),
    ("rsqrt", "%r = math.rsqrt %v : T"),
    ("sqrt", "%r = math.sqrt %v : T"),
    ("logistic", "%r = tpu.logistic %v : T -> T"),
    ("pow", "%r = math.powf %v, %w : T"),
    ("sin", "%r = math.sin %v : T"),
    ("cos", "%r = math.cos %v : T"),
    ("log1p", "%r = math.log1p %v : T"),
    ("exp2", "%r = math.exp2 %v : T"),
];

fn kernel_text(line: &str) -> String {
    let t = format!("vector<{BLOCK_ROWS}x{COLS}xf32>");
    let m = format!("memref<{BLOCK_ROWS}x{COLS}xf32, #tpu.memory_space<vmem>>");
    let win =
        format!("{{transform_indices = @t, window_bounds = array<i64: {BLOCK_ROWS}, {COLS}>}}");
    let grid = ROWS / BLOCK_ROWS;
    let line = line.replace('T', &t);
    format!(
        "module {{\n  func.func @k(%i: i32, %x: {m}, %y: {m}, %o: {m}) attributes {{dimension_semantics = [#tpu.dimension_semantics<parallel>], iteration_bounds = array<i64: {grid}>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{win}, {win}, {win}]}} {{\n    %c0 = arith.constant 0 : index\n    %v = vector.load %x[%c0, %c0] : {m}, {t}\n    %w = vector.load %y[%c0, %c0] : {m}, {t}\n    {line}\n    vector.store %r, %o[%c0, %c0] : {m}, {t}\n    return\n  }}\n  func.func @t(%i: i32) -> (i32, i32) {{\n    %c0 = arith.constant 0 : i32\n    return %i, %c0 : i32, i32\n  }}\n}}\n"
    )
}

/// Per-op figures.
#[derive(Default)]
struct Stats {
    n: u64,
    max: u64,
    at: f32,
    jit_at: f32,
    interp_at: f32,
    /// 0, 1, 2, 3-4, 5-16, 17-256, > 256 ulps (finite, not NaN).
    hist: [u64; 7],
    nan_mismatch: u64,
    inf_mismatch: u64,
}

fn bucket(d: u64) -> usize {
    match d {
        0 => 0,
        1 => 1,
        2 => 2,
        3..=4 => 3,
        5..=16 => 4,
        17..=256 => 5,
        _ => 6,
    }
}

/// `y` for pow: a hash of `x`'s bits spread over [-8, 8].
fn pow_y(bits: u32) -> f32 {
    let h = bits.wrapping_mul(0x9E37_79B1).rotate_left(13) ^ 0x5bd1_e995;
    (h as f32 / u32::MAX as f32) * 16.0 - 8.0
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut stride: u64 = 1;
    let mut only: Option<Vec<String>> = None;
    let mut k = 0;
    while k < args.len() {
        match args[k].as_str() {
            "--stride" => {
                stride = args.get(k + 1).and_then(|s| s.parse().ok()).unwrap_or(0);
                k += 2;
            }
            "--ops" => {
                only = args
                    .get(k + 1)
                    .map(|s| s.split(',').map(str::to_string).collect());
                k += 2;
            }
            a => {
                eprintln!("jit_ulp: unknown argument {a} (--stride N, --ops a,b)");
                return ExitCode::from(2);
            }
        }
    }
    if stride == 0 {
        eprintln!("jit_ulp: --stride takes a positive integer");
        return ExitCode::from(2);
    }
    let total: u64 = (1u64 << 32).div_ceil(stride);
    println!("jit_ulp: {total} f32 bit patterns per op (stride {stride}), batches of {BATCH}");
    println!(
        "| op | compiled | max ulp | at x | jit | interpreter | 0 | 1 | 2 | 3-4 | 5-16 | 17-256 | >256 | NaN mismatch | inf mismatch |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    // Each emitted module is written here: whether the op was lowered
    // natively or runs through the runtime (the interpreter's code) is
    // read from it (a call of `tcc_jit_op`).
    let dump = std::env::temp_dir().join(format!("tcc-jit-ulp-{}", std::process::id()));
    if std::fs::create_dir_all(&dump).is_err() {
        eprintln!("jit_ulp: cannot make {}", dump.display());
        return ExitCode::FAILURE;
    }
    // SAFETY: no other thread runs yet.
    unsafe { std::env::set_var("TCC_JIT_DUMP", &dump) };
    let t = TensorType::parse(&format!("tensor<{ROWS}x{COLS}xf32>")).unwrap();
    let mut kernels = 0;
    for (name, line) in OPS {
        if only.as_ref().is_some_and(|o| !o.iter().any(|x| x == name)) {
            continue;
        }
        let ctx = Context::new();
        let kernel = match Kernel::from_text(&ctx, &kernel_text(line), name) {
            Ok(k) => k,
            Err(e) => {
                eprintln!("{name}: the kernel does not load: {e}");
                return ExitCode::FAILURE;
            }
        };
        let call = CallShape {
            operands: vec![t.clone(), t.clone()],
            results: vec![t.clone()],
            aliases: Vec::new(),
        };
        let e = match Execution::new(&kernel, call) {
            Ok(e) => e,
            Err(err) => {
                eprintln!("{name}: {err}");
                return ExitCode::FAILURE;
            }
        };
        let mut s = Stats::default();
        let mut compiled = String::new();
        let mut done: u64 = 0;
        while done < total {
            let mut xs = Vec::with_capacity(BATCH);
            let mut ys = Vec::with_capacity(BATCH);
            for j in 0..BATCH as u64 {
                let idx = (done + j).min(total - 1);
                let bits = (idx * stride) as u32;
                xs.push(f32::from_bits(bits));
                ys.push(pow_y(bits));
            }
            let n = (total - done).min(BATCH as u64) as usize;
            let x = Array::new(ElemType::F32, vec![ROWS, COLS], Data::F32(xs));
            let y = Array::new(ElemType::F32, vec![ROWS, COLS], Data::F32(ys));
            let inputs = vec![vec![x.clone(), y]];
            let run = |engine| {
                let options = RunOptions {
                    engine,
                    ..RunOptions::default()
                };
                e.run_report(&inputs, &options)
            };
            let (j, i) = match (run(Engine::Jit), run(Engine::Interpreter)) {
                (Ok(j), Ok(i)) => (j, i),
                (a, b) => {
                    eprintln!("{name}: a run failed: {:?} / {:?}", a.err(), b.err());
                    return ExitCode::FAILURE;
                }
            };
            if compiled.is_empty() {
                compiled = match &j.engine.fallback {
                    None => {
                        let text =
                            std::fs::read_to_string(dump.join(format!("kernel{kernels}.mlir")))
                                .unwrap_or_default();
                        kernels += 1;
                        if text.contains("call @tcc_jit_op") {
                            "runtime".into()
                        } else {
                            "native".into()
                        }
                    }
                    Some(why) => format!("no ({why})"),
                };
            }
            let (Data::F32(jv), Data::F32(iv), Data::F32(xv)) =
                (&j.results[0][0].data, &i.results[0][0].data, &x.data)
            else {
                eprintln!("{name}: results are not f32");
                return ExitCode::FAILURE;
            };
            for k in 0..n {
                let (a, b) = (jv[k], iv[k]);
                s.n += 1;
                if a.is_nan() != b.is_nan() {
                    s.nan_mismatch += 1;
                    continue;
                }
                if a.is_infinite() != b.is_infinite() {
                    s.inf_mismatch += 1;
                }
                let d = ulp_distance(a, b);
                s.hist[bucket(d)] += 1;
                if d > s.max {
                    s.max = d;
                    s.at = xv[k];
                    s.jit_at = a;
                    s.interp_at = b;
                }
            }
            done += n as u64;
        }
        let at = if s.max == 0 {
            "-".to_string()
        } else {
            format!("{:e} ({:#010x})", s.at, s.at.to_bits())
        };
        let (ja, ia) = if s.max == 0 {
            ("-".to_string(), "-".to_string())
        } else {
            (format!("{:e}", s.jit_at), format!("{:e}", s.interp_at))
        };
        println!(
            "| {name} | {compiled} | {} | {at} | {ja} | {ia} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            s.max,
            s.hist[0],
            s.hist[1],
            s.hist[2],
            s.hist[3],
            s.hist[4],
            s.hist[5],
            s.hist[6],
            s.nan_mismatch,
            s.inf_mismatch
        );
    }
    let _ = std::fs::remove_dir_all(&dump);
    ExitCode::SUCCESS
}
