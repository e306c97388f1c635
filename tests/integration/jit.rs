//! The compiled engine (`exec::Engine::Jit`) against the interpreter: the
//! same results bit for bit on the exec cases (within a few ulp where a
//! kernel computes approximated transcendentals), and a kernel with an op it
//! does not compile runs on the interpreter, saying so with the op's name.

use std::path::{Path, PathBuf};

use tpu_custom_call::exec::{
    Array, CallShape, Data, ElemType, Engine, Execution, RunOptions, TensorType, npy,
};
use tpu_custom_call::{Context, Kernel, decode};

use crate::common::*;

fn case(name: &str) -> PathBuf {
    data_dir().join("exec").join(name)
}

/// Runs a case's first call with `engine`: results and the engine report.
fn run(dir: &Path, engine: Engine) -> (Vec<Array>, tpu_custom_call::exec::EngineReport) {
    let ctx = Context::new();
    let module = dir.join("module.mlir");
    let bytes = std::fs::read(&module).unwrap();
    let calls = decode::decode_module(&ctx, &bytes, &module.display().to_string()).unwrap();
    let e = Execution::of_call(&calls[0]).unwrap();
    let inputs: Vec<Array> = e
        .call_shape()
        .operands
        .iter()
        .enumerate()
        .map(|(k, t)| npy::read(&dir.join(format!("in{k}.npy")), t.elem).unwrap())
        .collect();
    let options = RunOptions {
        engine,
        ..RunOptions::default()
    };
    let report = e.run_report(&[inputs], &options).unwrap();
    (report.results.into_iter().next().unwrap(), report.engine)
}

fn bits(a: &Array) -> Vec<u64> {
    a.to_f64_vec()
        .iter()
        .map(|v| if v.is_nan() { u64::MAX } else { v.to_bits() })
        .collect()
}

/// The distance in units in the last place of two results of the same
/// element type (f32 and bf16 are held as f32, f64 as f64; NaNs equal each
/// other; integers: their difference).
fn max_ulps(a: &Array, b: &Array) -> u64 {
    let key32 = |v: f64| {
        let b = (v as f32).to_bits() as i64;
        if b < 0 { -(b & 0x7fff_ffff) } else { b }
    };
    let key64 = |v: f64| {
        let b = v.to_bits() as i128;
        if v.is_sign_negative() {
            -(b & 0x7fff_ffff_ffff_ffff)
        } else {
            b
        }
    };
    let f64s = a.elem == tpu_custom_call::exec::ElemType::F64;
    a.to_f64_vec()
        .iter()
        .zip(b.to_f64_vec())
        .map(|(&x, y)| {
            if x.is_nan() && y.is_nan() {
                0
            } else if x.is_nan() || y.is_nan() {
                u64::MAX
            } else if a.elem.is_float() && !f64s {
                key32(x).abs_diff(key32(y))
            } else if f64s {
                key64(x).abs_diff(key64(y)) as u64
            } else {
                (x as i64).abs_diff(y as i64)
            }
        })
        .max()
        .unwrap_or(0)
}

/// The exec cases whose kernels compute f32 transcendentals (`math.exp`,
/// `log`, `tanh`, `erf`): the compiled engine uses MLIR's polynomial
/// approximations for them (docs/jit.md, "Math"), so their results are
/// compared within [`KERNEL_ULPS`], every other case bit for bit.
const TRANSCENDENTAL_CASES: [&str; 2] = ["sem_transcendentals", "erf_special"];

/// The largest distance allowed between the engines' results of a kernel
/// computing approximated transcendentals (one approximated op, then at
/// most a few exact ops on its result): docs/jit.md's table.
const KERNEL_ULPS: u64 = 8;

#[test]
fn jit_equals_interpreter_bit_for_bit() {
    for name in [
        "add_basic",
        "matmul_f32",
        "matmul_grid",
        "scalar_prefetch",
        "sem_program_id_2d",
        "sem_int_wraparound",
        "sem_when_accumulator",
        "sem_transcendentals",
        "subnormal_f32",
        "uint32_signed",
        "isfinite",
        "sem_fori_loop",
        "sem_reductions_keepdims",
    ] {
        let dir = case(name);
        let (j, je) = run(&dir, Engine::Jit);
        let (i, ie) = run(&dir, Engine::Interpreter);
        assert_eq!(je.engine, Engine::Jit, "{name}: {:?}", je.fallback);
        assert_eq!(ie.engine, Engine::Interpreter);
        assert_eq!(j.len(), i.len());
        for (k, (a, b)) in j.iter().zip(&i).enumerate() {
            assert_eq!(a.shape, b.shape, "{name} result {k}");
            if TRANSCENDENTAL_CASES.contains(&name) {
                let d = max_ulps(a, b);
                eprintln!("{name} result {k}: {d} ulp");
                assert!(d <= KERNEL_ULPS, "{name} result {k}: {d} ulp apart");
            } else {
                assert_eq!(bits(a), bits(b), "{name} result {k} differs");
            }
        }
    }
}

/// `math.erf` runs compiled as the f32 function (the interpreter computes it
/// in f64): equal within 4 ulps on the erf case's special inputs.
#[test]
fn jit_erf_within_ulps() {
    let dir = case("erf_special");
    let (j, je) = run(&dir, Engine::Jit);
    let (i, _) = run(&dir, Engine::Interpreter);
    assert_eq!(je.engine, Engine::Jit, "{:?}", je.fallback);
    for (a, b) in j.iter().zip(&i) {
        for (e, (p, q)) in a.to_f64_vec().into_iter().zip(b.to_f64_vec()).enumerate() {
            assert!(ulps(p, q) <= 4, "erf at {e}: jit {p:e}, interpreter {q:e}");
        }
    }
}

#[test]
fn jit_falls_back_naming_the_op() {
    let (_, e) = run(&case("masked_store_edge"), Engine::Jit);
    assert_eq!(e.engine, Engine::Interpreter);
    let why = e.fallback.expect("a reason");
    assert!(why.contains("`tpu.vector_store`"), "{why}");
}

/// Issue 52's 256x1024 softmax (JAX 0.12's lowering, whole-block vectors:
/// 1 MiB each) runs compiled: `tcc-bufferize-vectors` turns its vectors into
/// loops and its runtime ops' whole-block operands live on the heap, so it
/// runs on a test thread (2 MiB of stack), equal to the interpreter within
/// [`KERNEL_ULPS`] (its `exp` is approximated).
#[test]
fn jit_runs_whole_block_kernels_bit_for_bit() {
    let ctx = Context::new();
    let module = data_dir().join("bench/softmax_256x1024/module.mlir");
    let bytes = std::fs::read(&module).unwrap();
    let calls = decode::decode_module(&ctx, &bytes, &module.display().to_string()).unwrap();
    let e = Execution::of_call(&calls[0]).unwrap();
    let inputs = tpu_custom_call::exec::random_inputs(e.call_shape(), 7).unwrap();
    let run = |engine| {
        let options = RunOptions {
            engine,
            ..RunOptions::default()
        };
        e.run_report(std::slice::from_ref(&inputs), &options)
            .unwrap()
    };
    let (j, i) = (run(Engine::Jit), run(Engine::Interpreter));
    assert_eq!(j.engine.engine, Engine::Jit, "{:?}", j.engine.fallback);
    // `exp` is approximated, then summed over 1024 lanes and divided.
    let d = max_ulps(&j.results[0][0], &i.results[0][0]);
    eprintln!("softmax 256x1024: {d} ulp");
    assert!(d <= KERNEL_ULPS, "softmax: {d} ulp apart");
}

// ----- ops lowered natively (no runtime call) -------------------------------

/// A small deterministic generator (xorshift64*).
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// An f32 in [-4, 4), or one time in `1/special` a special value (NaN,
    /// infinities, signed zeros, subnormals, extremes, bf16 rounding ties).
    fn f32(&mut self, special: u64) -> f32 {
        const SPECIAL: [u32; 12] = [
            0x7fc0_0000, // NaN
            0x7f80_0000, // inf
            0xff80_0000, // -inf
            0x0000_0000, // +0
            0x8000_0000, // -0
            0x0000_0001, // smallest subnormal
            0x807f_ffff, // largest negative subnormal
            0x0080_0000, // smallest normal
            0x7f7f_ffff, // largest finite
            0x3f80_8000, // bf16 tie (rounds to even: down)
            0x3f81_8000, // bf16 tie (rounds up)
            0x7f7f_8000, // rounds to inf in bf16
        ];
        let r = self.next();
        if special > 0 && r.is_multiple_of(special) {
            return f32::from_bits(SPECIAL[(r >> 32) as usize % SPECIAL.len()]);
        }
        ((r >> 40) as f32 / (1u64 << 24) as f32) * 8.0 - 4.0
    }
}

fn f32s(g: &mut Gen, shape: &[usize], special: u64) -> Array {
    let n = shape.iter().product();
    let v = (0..n).map(|_| g.f32(special)).collect();
    Array::new(ElemType::F32, shape.to_vec(), Data::F32(v))
}

/// bf16 values (stored as f32 with the low half zero).
fn bf16s(g: &mut Gen, shape: &[usize], special: u64) -> Array {
    let n = shape.iter().product();
    let v = (0..n)
        .map(|_| f32::from_bits(g.f32(special).to_bits() & 0xffff_0000))
        .collect();
    Array::new(ElemType::BF16, shape.to_vec(), Data::F32(v))
}

/// i32 values: random bits, one in 4 a small value (shift amounts and
/// counts: -8..=40 covers negatives and amounts of the width or more).
fn i32s(g: &mut Gen, shape: &[usize]) -> Array {
    let n = shape.iter().product();
    let v = (0..n)
        .map(|_| {
            let r = g.next();
            if r.is_multiple_of(4) {
                (r >> 32) as i64 % 49 - 8
            } else {
                i64::from((r >> 32) as u32 as i32)
            }
        })
        .collect();
    Array::new(ElemType::Int(32), shape.to_vec(), Data::I64(v))
}

/// Runs a text kernel (no grid) on both engines: the compiled engine must
/// run it with no op through the runtime; results per engine.
fn both(kernel: &str, ins: &[&str], outs: &[&str], inputs: Vec<Array>) -> (Vec<Array>, Vec<Array>) {
    let ctx = Context::new();
    let k = Kernel::from_text(&ctx, kernel, "test.mlir").expect("kernel parses");
    let shape = CallShape {
        operands: ins.iter().map(|t| TensorType::parse(t).unwrap()).collect(),
        results: outs.iter().map(|t| TensorType::parse(t).unwrap()).collect(),
        aliases: Vec::new(),
    };
    let e = Execution::new(&k, shape).unwrap();
    let run = |engine| {
        let options = RunOptions {
            engine,
            ..RunOptions::default()
        };
        e.run_report(std::slice::from_ref(&inputs), &options)
            .unwrap()
    };
    let (j, i) = (run(Engine::Jit), run(Engine::Interpreter));
    assert_eq!(j.engine.engine, Engine::Jit, "{:?}", j.engine.fallback);
    assert!(
        j.engine.runtime_ops.is_empty(),
        "ops left to the runtime: {:?}",
        j.engine.runtime_ops
    );
    let take = |r: tpu_custom_call::exec::RunReport| r.results.into_iter().next().unwrap();
    (take(j), take(i))
}

/// The kernel text: `args` are `name: type` (vmem memrefs), `body` the ops.
fn kernel(args: &[(&str, &str)], body: &str) -> String {
    // A ref `%n` of the body (always indexed: `%n[`) is the argument
    // `%n_ref`; `@n@` is its type.
    let params = args
        .iter()
        .map(|(n, t)| format!("%{n}_ref: memref<{t}, #tpu.memory_space<vmem>>"))
        .collect::<Vec<_>>()
        .join(", ");
    let body = args.iter().fold(body.to_string(), |b, (n, t)| {
        b.replace(
            &format!("@{n}@"),
            &format!("memref<{t}, #tpu.memory_space<vmem>>"),
        )
        .replace(&format!("%{n}["), &format!("%{n}_ref["))
    });
    format!(
        "module {{\n  func.func @k({params}) attributes {{dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>}} {{\n    %c0 = arith.constant 0 : index\n{body}    return\n  }}\n}}\n"
    )
}

fn assert_bits(name: &str, j: &[Array], i: &[Array]) {
    assert_eq!(j.len(), i.len());
    for (k, (a, b)) in j.iter().zip(i).enumerate() {
        assert_eq!(a.shape, b.shape, "{name} result {k}");
        let (x, y) = (bits(a), bits(b));
        if let Some(at) = (0..x.len()).find(|&e| x[e] != y[e]) {
            panic!(
                "{name} result {k} differs at {at}: jit {:?}, interpreter {:?}",
                a.to_f64_vec()[at],
                b.to_f64_vec()[at]
            );
        }
    }
}

/// `vector.multi_reduction` and `vector.reduction` on f32 (add in source
/// order, maximumf / minimumf with NaN, signed zeros and flushed
/// subnormals), big (bufferized into loops) and small (upstream lowering).
#[test]
fn jit_native_float_reductions_bit_for_bit() {
    let args = [
        ("x", "16x256xf32"),
        ("a", "16xf32"),
        ("b", "256xf32"),
        ("y", "8x8xf32"),
        ("s", "1xf32"),
        ("o1", "16xf32"),
        ("o2", "256xf32"),
        ("o3", "16xf32"),
        ("o4", "256xf32"),
        ("o5", "8xf32"),
        ("o6", "8xf32"),
        ("o7", "1xf32"),
        ("o8", "1xf32"),
    ];
    let body = r#"    %v = vector.load %x[%c0, %c0] : @x@, vector<16x256xf32>
    %a = vector.load %a[%c0] : @a@, vector<16xf32>
    %b = vector.load %b[%c0] : @b@, vector<256xf32>
    %r1 = vector.multi_reduction <add>, %v, %a [1] : vector<16x256xf32> to vector<16xf32>
    vector.store %r1, %o1[%c0] : @o1@, vector<16xf32>
    %r2 = vector.multi_reduction <add>, %v, %b [0] : vector<16x256xf32> to vector<256xf32>
    vector.store %r2, %o2[%c0] : @o2@, vector<256xf32>
    %r3 = vector.multi_reduction <maximumf>, %v, %a [1] : vector<16x256xf32> to vector<16xf32>
    vector.store %r3, %o3[%c0] : @o3@, vector<16xf32>
    %r4 = vector.multi_reduction <minimumf>, %v, %b [0] : vector<16x256xf32> to vector<256xf32>
    vector.store %r4, %o4[%c0] : @o4@, vector<256xf32>
    %w = vector.load %y[%c0, %c0] : @y@, vector<8x8xf32>
    %a8 = vector.load %a[%c0] : @a@, vector<8xf32>
    %r5 = vector.multi_reduction <add>, %w, %a8 [1] : vector<8x8xf32> to vector<8xf32>
    vector.store %r5, %o5[%c0] : @o5@, vector<8xf32>
    %r6 = vector.multi_reduction <maximumf>, %w, %a8 [0] : vector<8x8xf32> to vector<8xf32>
    vector.store %r6, %o6[%c0] : @o6@, vector<8xf32>
    %s = memref.load %s[%c0] : @s@
    %r7 = vector.reduction <add>, %b, %s : vector<256xf32> into f32
    memref.store %r7, %o7[%c0] : @o7@
    %r8 = vector.reduction <minimumf>, %b : vector<256xf32> into f32
    memref.store %r8, %o8[%c0] : @o8@
"#;
    let ins: Vec<String> = args[..5]
        .iter()
        .map(|(_, t)| format!("tensor<{t}>"))
        .collect();
    let outs: Vec<String> = args[5..]
        .iter()
        .map(|(_, t)| format!("tensor<{t}>"))
        .collect();
    let ins: Vec<&str> = ins.iter().map(String::as_str).collect();
    let outs: Vec<&str> = outs.iter().map(String::as_str).collect();
    let text = kernel(&args, body);
    for (seed, special) in [(1u64, 0), (2, 40), (3, 4)] {
        let mut g = Gen(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut inputs = vec![
            f32s(&mut g, &[16, 256], special),
            f32s(&mut g, &[16], special),
            f32s(&mut g, &[256], special),
            f32s(&mut g, &[8, 8], special),
            f32s(&mut g, &[1], special),
        ];
        if special == 4 {
            // Ties of signed zeros for max / min: half the elements zeros.
            if let Data::F32(v) = &mut inputs[0].data {
                for (k, x) in v.iter_mut().enumerate() {
                    if k % 3 == 0 {
                        *x = if k % 2 == 0 { 0.0 } else { -0.0 };
                    }
                }
            }
        }
        let (j, i) = both(&text, &ins, &outs, inputs);
        assert_bits(&format!("seed {seed}"), &j, &i);
    }
}

/// Runs `body` over `args` (inputs first, `n_in` of them) on both engines.
fn both_args(
    args: &[(&str, &str)],
    n_in: usize,
    body: &str,
    inputs: Vec<Array>,
) -> (Vec<Array>, Vec<Array>) {
    let ty = |(_, t): &(&str, &str)| format!("tensor<{t}>");
    let ins: Vec<String> = args[..n_in].iter().map(ty).collect();
    let outs: Vec<String> = args[n_in..].iter().map(ty).collect();
    let ins: Vec<&str> = ins.iter().map(String::as_str).collect();
    let outs: Vec<&str> = outs.iter().map(String::as_str).collect();
    both(&kernel(args, body), &ins, &outs, inputs)
}

/// bf16: `extf`, `truncf` (ties to even, NaN, overflow to infinity),
/// reductions on bf16 (summed in f32, rounded once) and `math.rsqrt`
/// (computed in f64 then rounded, as the interpreter does).
#[test]
fn jit_native_bf16_and_rsqrt_bit_for_bit() {
    let args = [
        ("x", "16x256xbf16"),
        ("a", "16xbf16"),
        ("f", "16x256xf32"),
        ("o1", "16x256xf32"),
        ("o2", "16x256xbf16"),
        ("o3", "16xbf16"),
        ("o4", "256xbf16"),
        ("o5", "16x256xf32"),
        ("o6", "16xf32"),
    ];
    let body = r#"    %x = vector.load %x[%c0, %c0] : @x@, vector<16x256xbf16>
    %a = vector.load %a[%c0] : @a@, vector<16xbf16>
    %f = vector.load %f[%c0, %c0] : @f@, vector<16x256xf32>
    %e = arith.extf %x : vector<16x256xbf16> to vector<16x256xf32>
    vector.store %e, %o1[%c0, %c0] : @o1@, vector<16x256xf32>
    %t = arith.truncf %f : vector<16x256xf32> to vector<16x256xbf16>
    vector.store %t, %o2[%c0, %c0] : @o2@, vector<16x256xbf16>
    %r3 = vector.multi_reduction <add>, %x, %a [1] : vector<16x256xbf16> to vector<16xbf16>
    vector.store %r3, %o3[%c0] : @o3@, vector<16xbf16>
    %z = arith.constant dense<0xFF80> : vector<256xbf16>
    %r4 = vector.multi_reduction <maximumf>, %x, %z [0] : vector<16x256xbf16> to vector<256xbf16>
    vector.store %r4, %o4[%c0] : @o4@, vector<256xbf16>
    %q = math.rsqrt %f : vector<16x256xf32>
    vector.store %q, %o5[%c0, %c0] : @o5@, vector<16x256xf32>
    %zf = arith.constant dense<0.0> : vector<16xf32>
    %s = vector.multi_reduction <add>, %e, %zf [1] : vector<16x256xf32> to vector<16xf32>
    vector.store %s, %o6[%c0] : @o6@, vector<16xf32>
"#;
    for (seed, special) in [(1u64, 0), (2, 30), (3, 5)] {
        let mut g = Gen(seed.wrapping_mul(0x2545_f491_4f6c_dd1d));
        let mut f = f32s(&mut g, &[16, 256], special);
        if let Data::F32(v) = &mut f.data {
            // Positive values for rsqrt too (tiny, huge, subnormal).
            for (k, x) in v.iter_mut().enumerate() {
                if k % 2 == 0 {
                    *x = x.abs() * 1e30f32.powi((k % 5) as i32 - 2);
                }
            }
        }
        let inputs = vec![
            bf16s(&mut g, &[16, 256], special),
            bf16s(&mut g, &[16], special),
            f,
        ];
        let (j, i) = both_args(&args, 3, body, inputs);
        assert_bits(&format!("seed {seed}"), &j, &i);
    }
}

/// Integer shifts (amounts negative, of the width or more, constant and
/// not), `tpu.iota` over one and two dimensions, integer reductions of
/// every kind.
#[test]
fn jit_native_integer_ops_bit_for_bit() {
    let args = [
        ("x", "16x256xi32"),
        ("s", "16x256xi32"),
        ("a", "16xi32"),
        ("o1", "16x256xi32"),
        ("o2", "16x256xi32"),
        ("o3", "16x256xi32"),
        ("o4", "16x256xi32"),
        ("o5", "16x256xi32"),
        ("o6", "16x256xi32"),
        ("o7", "16x256xi32"),
        ("o8", "16x256xi32"),
        ("o9", "16x256xi32"),
        ("r1", "16xi32"),
        ("r2", "256xi32"),
        ("r3", "16xi32"),
        ("r4", "256xi32"),
        ("r5", "16xi32"),
        ("r6", "16xi32"),
        ("r7", "256xi32"),
        ("r8", "16xi32"),
        ("r9", "1xi32"),
    ];
    let body = r#"    %x = vector.load %x[%c0, %c0] : @x@, vector<16x256xi32>
    %s = vector.load %s[%c0, %c0] : @s@, vector<16x256xi32>
    %a = vector.load %a[%c0] : @a@, vector<16xi32>
    %1 = arith.shli %x, %s : vector<16x256xi32>
    vector.store %1, %o1[%c0, %c0] : @o1@, vector<16x256xi32>
    %2 = arith.shrui %x, %s : vector<16x256xi32>
    vector.store %2, %o2[%c0, %c0] : @o2@, vector<16x256xi32>
    %3 = arith.shrsi %x, %s : vector<16x256xi32>
    vector.store %3, %o3[%c0, %c0] : @o3@, vector<16x256xi32>
    %k13 = arith.constant 13 : i32
    %b13 = vector.broadcast %k13 : i32 to vector<16x256xi32>
    %4 = arith.shrui %x, %b13 : vector<16x256xi32>
    vector.store %4, %o4[%c0, %c0] : @o4@, vector<16x256xi32>
    %k40 = arith.constant dense<40> : vector<16x256xi32>
    %5 = arith.shrsi %x, %k40 : vector<16x256xi32>
    vector.store %5, %o5[%c0, %c0] : @o5@, vector<16x256xi32>
    %km = arith.constant dense<-1> : vector<16x256xi32>
    %6 = arith.shli %x, %km : vector<16x256xi32>
    vector.store %6, %o6[%c0, %c0] : @o6@, vector<16x256xi32>
    %7 = tpu.iota {dimensions = array<i32: 0>} : vector<16x256xi32>
    vector.store %7, %o7[%c0, %c0] : @o7@, vector<16x256xi32>
    %8 = tpu.iota {dimensions = array<i32: 1>} : vector<16x256xi32>
    %x8 = arith.xori %8, %x : vector<16x256xi32>
    vector.store %x8, %o8[%c0, %c0] : @o8@, vector<16x256xi32>
    %9 = tpu.iota {dimensions = array<i32: 0, 1>} : vector<16x256xi32>
    vector.store %9, %o9[%c0, %c0] : @o9@, vector<16x256xi32>
    %b = vector.load %x[%c0, %c0] : @x@, vector<1x256xi32>
    %b1 = vector.shape_cast %b : vector<1x256xi32> to vector<256xi32>
    %q1 = vector.multi_reduction <add>, %x, %a [1] : vector<16x256xi32> to vector<16xi32>
    vector.store %q1, %r1[%c0] : @r1@, vector<16xi32>
    %q2 = vector.multi_reduction <maxsi>, %x, %b1 [0] : vector<16x256xi32> to vector<256xi32>
    vector.store %q2, %r2[%c0] : @r2@, vector<256xi32>
    %q3 = vector.multi_reduction <minui>, %x, %a [1] : vector<16x256xi32> to vector<16xi32>
    vector.store %q3, %r3[%c0] : @r3@, vector<16xi32>
    %q4 = vector.multi_reduction <xor>, %x, %b1 [0] : vector<16x256xi32> to vector<256xi32>
    vector.store %q4, %r4[%c0] : @r4@, vector<256xi32>
    %q5 = vector.multi_reduction <mul>, %x, %a [1] : vector<16x256xi32> to vector<16xi32>
    vector.store %q5, %r5[%c0] : @r5@, vector<16xi32>
    %q6 = vector.multi_reduction <and>, %s, %a [1] : vector<16x256xi32> to vector<16xi32>
    vector.store %q6, %r6[%c0] : @r6@, vector<16xi32>
    %q7 = vector.multi_reduction <or>, %s, %b1 [0] : vector<16x256xi32> to vector<256xi32>
    vector.store %q7, %r7[%c0] : @r7@, vector<256xi32>
    %q8 = vector.multi_reduction <minsi>, %x, %a [1] : vector<16x256xi32> to vector<16xi32>
    vector.store %q8, %r8[%c0] : @r8@, vector<16xi32>
    %q9 = vector.reduction <maxui>, %b1 : vector<256xi32> into i32
    memref.store %q9, %r9[%c0] : @r9@
"#;
    for seed in 1..=2u64 {
        let mut g = Gen(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) + 7);
        let inputs = vec![
            i32s(&mut g, &[16, 256]),
            i32s(&mut g, &[16, 256]),
            i32s(&mut g, &[16]),
        ];
        let (j, i) = both_args(&args, 3, body, inputs);
        assert_bits(&format!("seed {seed}"), &j, &i);
    }
}

/// Distance in f32 ulps (NaN to NaN: 0; `u64::MAX` if one only is NaN).
fn ulps(a: f64, b: f64) -> u64 {
    let (a, b) = (a as f32, b as f32);
    match (a.is_nan(), b.is_nan()) {
        (true, true) => return 0,
        (false, false) => {}
        _ => return u64::MAX,
    }
    let ord = |x: f32| {
        let i = x.to_bits() as i32;
        i64::from(if i < 0 { i32::MIN - i } else { i })
    };
    ord(a).abs_diff(ord(b))
}

/// `negf`/`absf` bit for bit; `math.erf` and the other f32 functions the
/// interpreter computes in f64 within 4 ulps (the transcendental bound
/// until docs/jit.md gives measured ones), flushed subnormals included.
#[test]
fn jit_native_f32_functions() {
    let ops = [
        "arith.negf",
        "math.absf",
        "math.erf",
        "math.exp2",
        "math.log2",
        "math.log10",
        "math.sin",
        "math.cos",
        "math.atan",
    ];
    let mut args = vec![("x", "16x256xf32")];
    let names: Vec<String> = (0..ops.len()).map(|k| format!("o{k}")).collect();
    for n in &names {
        args.push((n, "16x256xf32"));
    }
    let mut body = String::from("    %x = vector.load %x[%c0, %c0] : @x@, vector<16x256xf32>\n");
    for (k, op) in ops.iter().enumerate() {
        body.push_str(&format!(
            "    %r{k} = {op} %x : vector<16x256xf32>\n    vector.store %r{k}, %o{k}[%c0, %c0] : @o{k}@, vector<16x256xf32>\n"
        ));
    }
    for (seed, special) in [(1u64, 0), (2, 8)] {
        let mut g = Gen(seed.wrapping_mul(0x51_7cc1_b727_220a));
        let mut x = f32s(&mut g, &[16, 256], special);
        if let Data::F32(v) = &mut x.data {
            // A spread of magnitudes: tiny to large.
            for (k, e) in v.iter_mut().enumerate() {
                if k % 3 == 0 {
                    *e *= 10f32.powi((k % 13) as i32 - 6);
                }
            }
        }
        let (j, i) = both_args(&args, 1, &body, vec![x]);
        for (k, op) in ops.iter().enumerate() {
            let (a, b) = (j[k].to_f64_vec(), i[k].to_f64_vec());
            let bound = if k < 2 { 0 } else { 4 };
            for (e, (&p, &q)) in a.iter().zip(&b).enumerate() {
                assert!(
                    ulps(p, q) <= bound,
                    "{op} seed {seed} at {e}: jit {p:e}, interpreter {q:e} (bound {bound} ulp)"
                );
            }
        }
    }
}

/// Issue 52's benchmark kernels run compiled with no op through the
/// runtime but the matmul (flash attention's).
#[test]
fn jit_bench_kernels_have_no_runtime_op_but_matmul() {
    for name in [
        "softmax_256x1024",
        "layer_norm_bf16_4096x1024",
        "gelu_erf_4096x1024",
        "philox_1024x1024",
        "flash_attention_causal",
    ] {
        let ctx = Context::new();
        let module = data_dir().join("bench").join(name).join("module.mlir");
        let bytes = std::fs::read(&module).unwrap();
        let calls = decode::decode_module(&ctx, &bytes, &module.display().to_string()).unwrap();
        let e = Execution::of_call(&calls[0]).unwrap();
        let inputs = tpu_custom_call::exec::random_inputs(e.call_shape(), 3).unwrap();
        let options = RunOptions {
            engine: Engine::Jit,
            ..RunOptions::default()
        };
        let r = e
            .run_report(std::slice::from_ref(&inputs), &options)
            .unwrap();
        assert_eq!(
            r.engine.engine,
            Engine::Jit,
            "{name}: {:?}",
            r.engine.fallback
        );
        let left: Vec<&String> = r
            .engine
            .runtime_ops
            .iter()
            .filter(|o| *o != "tpu.matmul")
            .collect();
        assert!(left.is_empty(), "{name}: runtime ops {left:?}");
    }
}

/// An elementwise body (philox's shape: a seed read from a ref and
/// broadcast, `tpu.iota`, shifts, values with several uses, f32 and bf16
/// arithmetic) runs strip-mined (the whole body per 64-byte tile), bit for
/// bit as the interpreter.
#[test]
fn jit_tiled_elementwise_body_bit_for_bit() {
    let args = [
        ("x", "16x256xi32"),
        ("s", "1xi32"),
        ("f", "16x256xf32"),
        ("o1", "16x256xi32"),
        ("o2", "16x256xf32"),
        ("o3", "16x256xbf16"),
    ];
    let body = r#"    %seed = memref.load %s[%c0] : @s@
    %b = vector.broadcast %seed : i32 to vector<16x256xi32>
    %x = vector.load %x[%c0, %c0] : @x@, vector<16x256xi32>
    %r = tpu.iota {dimensions = array<i32: 0>} : vector<16x256xi32>
    %c = tpu.iota {dimensions = array<i32: 1>} : vector<16x256xi32>
    %rc = tpu.iota {dimensions = array<i32: 0, 1>} : vector<16x256xi32>
    %h = arith.shli %x, %r : vector<16x256xi32>
    %k = arith.shrui %x, %c : vector<16x256xi32>
    %q = arith.xori %h, %k : vector<16x256xi32>
    %m = arith.constant dense<-845247145> : vector<16x256xi32>
    %p = arith.muli %q, %m : vector<16x256xi32>
    %sixteen = arith.constant 16 : i32
    %s16 = vector.broadcast %sixteen : i32 to vector<16x256xi32>
    %hi = arith.shrsi %p, %s16 : vector<16x256xi32>
    %t = arith.addi %hi, %p : vector<16x256xi32>
    %u = arith.xori %t, %b : vector<16x256xi32>
    %v = arith.addi %u, %rc : vector<16x256xi32>
    vector.store %v, %o1[%c0, %c0] : @o1@, vector<16x256xi32>
    %f = vector.load %f[%c0, %c0] : @f@, vector<16x256xf32>
    %y = arith.mulf %f, %f : vector<16x256xf32>
    %z = arith.addf %y, %f : vector<16x256xf32>
    %d = arith.divf %z, %y : vector<16x256xf32>
    %w = arith.maximumf %d, %z : vector<16x256xf32>
    %lt = arith.cmpf olt, %w, %f : vector<16x256xf32>
    %sel = arith.select %lt, %w, %z : vector<16x256xi1>, vector<16x256xf32>
    %fi = arith.sitofp %v : vector<16x256xi32> to vector<16x256xf32>
    %g = arith.addf %sel, %fi : vector<16x256xf32>
    vector.store %g, %o2[%c0, %c0] : @o2@, vector<16x256xf32>
    %n = arith.truncf %g : vector<16x256xf32> to vector<16x256xbf16>
    vector.store %n, %o3[%c0, %c0] : @o3@, vector<16x256xbf16>
"#;
    for (seed, special) in [(1u64, 0), (2, 6)] {
        let mut g = Gen(seed.wrapping_mul(0x3c6e_f372_fe94_f82b));
        let inputs = vec![
            i32s(&mut g, &[16, 256]),
            i32s(&mut g, &[1]),
            f32s(&mut g, &[16, 256], special),
        ];
        let (j, i) = both_args(&args, 3, body, inputs);
        assert_bits(&format!("seed {seed}"), &j, &i);
    }
}

/// `tpu.reduce` (no accumulator, reduced dims kept as 1s) runs natively,
/// bit for bit: the kind's identity as the start, the result reshaped.
#[test]
fn jit_native_tpu_reduce_bit_for_bit() {
    let args = [
        ("x", "8x128xf32"),
        ("n", "8x128xi32"),
        ("o1", "8x1xf32"),
        ("o2", "8x1xi32"),
        ("o3", "8x1xf32"),
        ("o4", "1x128xf32"),
    ];
    let body = r#"    %x = vector.load %x[%c0, %c0] : @x@, vector<8x128xf32>
    %n = vector.load %n[%c0, %c0] : @n@, vector<8x128xi32>
    %1 = tpu.reduce <maxf>, %x [1] : vector<8x128xf32> -> vector<8x1xf32>
    vector.store %1, %o1[%c0, %c0] : @o1@, vector<8x1xf32>
    %2 = tpu.reduce <minsi>, %n [1] : vector<8x128xi32> -> vector<8x1xi32>
    vector.store %2, %o2[%c0, %c0] : @o2@, vector<8x1xi32>
    %3 = tpu.reduce <sum>, %x [1] : vector<8x128xf32> -> vector<8x1xf32>
    vector.store %3, %o3[%c0, %c0] : @o3@, vector<8x1xf32>
    %4 = tpu.reduce <minf>, %x [0] : vector<8x128xf32> -> vector<1x128xf32>
    vector.store %4, %o4[%c0, %c0] : @o4@, vector<1x128xf32>
"#;
    for (seed, special) in [(1u64, 0), (2, 5)] {
        let mut g = Gen(seed.wrapping_mul(0x1405_7b7e_f767_814f));
        let inputs = vec![f32s(&mut g, &[8, 128], special), i32s(&mut g, &[8, 128])];
        let (j, i) = both_args(&args, 2, body, inputs);
        assert_bits(&format!("seed {seed}"), &j, &i);
    }
}

/// With `fuse_multiply_add`, an f32 add/subtract of a product is one
/// `math.fma` (rounded once), bit for bit as the interpreter's contraction.
#[test]
fn jit_native_fused_multiply_add_bit_for_bit() {
    let args = [
        ("a", "16x256xf32"),
        ("b", "16x256xf32"),
        ("c", "16x256xf32"),
        ("o1", "16x256xf32"),
        ("o2", "16x256xf32"),
        ("o3", "16x256xf32"),
    ];
    let body = r#"    %a = vector.load %a[%c0, %c0] : @a@, vector<16x256xf32>
    %b = vector.load %b[%c0, %c0] : @b@, vector<16x256xf32>
    %c = vector.load %c[%c0, %c0] : @c@, vector<16x256xf32>
    %p1 = arith.mulf %a, %b : vector<16x256xf32>
    %1 = arith.addf %p1, %c : vector<16x256xf32>
    vector.store %1, %o1[%c0, %c0] : @o1@, vector<16x256xf32>
    %p2 = arith.mulf %a, %c : vector<16x256xf32>
    %2 = arith.subf %p2, %b : vector<16x256xf32>
    vector.store %2, %o2[%c0, %c0] : @o2@, vector<16x256xf32>
    %p3 = arith.mulf %b, %c : vector<16x256xf32>
    %3 = arith.subf %a, %p3 : vector<16x256xf32>
    vector.store %3, %o3[%c0, %c0] : @o3@, vector<16x256xf32>
"#;
    let ctx = Context::new();
    let k = Kernel::from_text(&ctx, &kernel(&args, body), "test.mlir").unwrap();
    let t = |s: &str| TensorType::parse(&format!("tensor<{s}>")).unwrap();
    let shape = CallShape {
        operands: args[..3].iter().map(|(_, s)| t(s)).collect(),
        results: args[3..].iter().map(|(_, s)| t(s)).collect(),
        aliases: Vec::new(),
    };
    let e = Execution::new(&k, shape).unwrap();
    for (seed, special) in [(1u64, 0), (2, 6)] {
        let mut g = Gen(seed.wrapping_mul(0x7a64_6e4d_3a29_1c0f));
        let inputs: Vec<Array> = (0..3).map(|_| f32s(&mut g, &[16, 256], special)).collect();
        let run = |engine| {
            let options = RunOptions {
                engine,
                fuse_multiply_add: true,
                ..RunOptions::default()
            };
            e.run_report(std::slice::from_ref(&inputs), &options)
                .unwrap()
        };
        let (j, i) = (run(Engine::Jit), run(Engine::Interpreter));
        assert_eq!(j.engine.engine, Engine::Jit, "{:?}", j.engine.fallback);
        assert!(
            j.engine.runtime_ops.is_empty(),
            "{:?}",
            j.engine.runtime_ops
        );
        assert_bits(&format!("seed {seed}"), &j.results[0], &i.results[0]);
    }
}
