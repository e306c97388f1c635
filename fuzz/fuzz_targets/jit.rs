//! The compiled engine against the interpreter on generated kernels (issue
//! 52's memory safety and equality). The input bytes drive a small
//! generator of Mosaic kernels (text): a grid of one or two blocks of f32
//! and i32 refs, then a chain of elementwise f32/i32 ops (transcendentals,
//! shifts by any amount, integer division), compares and selects, casts and
//! bitcasts, reductions along either dimension broadcast back, shape casts,
//! splat constants, `tpu.iota`, and loads and stores at dynamic indices
//! (from constants or from a loaded integer) that may leave their ref.
//! Each kernel runs on both engines with the same seeded inputs; asserted:
//! the same results under `exec::equality`'s policy, or the same error (an
//! out-of-bounds index is the interpreter's error, naming the op), never a
//! crash. The compiled code's buffers are guarded (guard pages and
//! canaries, `exec::set_jit_guard_pages`): AddressSanitizer does not see
//! into JIT code.

use libfuzzer_sys::fuzz_target;
use std::fmt::Write as _;
use tpu_custom_call::exec::equality::{compare_engines, ulp_bound};
use tpu_custom_call::exec::{
    CallShape, Engine, Execution, RunOptions, TensorType, clear_jit_cache, random_inputs,
    set_jit_guard_pages,
};
use tpu_custom_call::{Context, Kernel};

/// The input bytes, read one at a time (zeros past the end).
struct Bytes<'a> {
    d: &'a [u8],
    i: usize,
}

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let b = self.d.get(self.i).copied().unwrap_or(0);
        self.i += 1;
        b
    }
    fn done(&self) -> bool {
        self.i >= self.d.len()
    }
    fn pick<'s>(&mut self, of: &'s [String]) -> &'s str {
        &of[usize::from(self.next()) % of.len()]
    }
}

/// A kernel in text and its call's types.
struct Gen {
    r: usize,
    c: usize,
    body: String,
    n: usize,
    f: Vec<String>,
    i: Vec<String>,
    m: Vec<String>,
    idx: Vec<String>,
}

const MEM: &str = "#tpu.memory_space<vmem>";

impl Gen {
    fn fresh(&mut self) -> String {
        self.n += 1;
        format!("%v{}", self.n)
    }
    fn vt(&self, e: &str) -> String {
        format!("vector<{}x{}x{e}>", self.r, self.c)
    }
    fn mt(&self, e: &str) -> String {
        format!("memref<{}x{}x{e}, {MEM}>", self.r, self.c)
    }
    fn line(&mut self, s: String) {
        self.body.push_str("    ");
        self.body.push_str(&s);
        self.body.push('\n');
    }
    /// An index: a constant near the ref's extent (or far out), or an
    /// integer loaded from `%n` plus a constant.
    fn index(&mut self, b: &mut Bytes) -> String {
        let k = b.next();
        let v: i64 = match k % 8 {
            0..=3 => i64::from(k / 8) % (self.r.max(self.c) as i64 + 3) - 1,
            4 => [i64::MAX, i64::MIN, -1, 1 << 20, 1 << 40][usize::from(k / 8) % 5],
            _ => i64::from(k / 8) % 4,
        };
        let c = self.fresh();
        self.line(format!("{c} = arith.constant {v} : index"));
        if k % 8 < 6 || self.idx.is_empty() {
            self.idx.push(c.clone());
            return c;
        }
        // A loaded integer (0..8 from the inputs) as an index, plus `c`.
        let (a, bb) = (self.pick_idx(b), self.pick_idx(b));
        let s = self.fresh();
        let mt = self.mt("i32");
        self.line(format!("{s} = memref.load %n[{a}, {bb}] : {mt}"));
        let x = self.fresh();
        self.line(format!("{x} = arith.index_cast {s} : i32 to index"));
        let y = self.fresh();
        self.line(format!("{y} = arith.addi {x}, {c} : index"));
        self.idx.push(y.clone());
        y
    }
    fn pick_idx(&mut self, b: &mut Bytes) -> String {
        b.pick(&self.idx).to_string()
    }

    fn step(&mut self, b: &mut Bytes) {
        let op = b.next();
        let (vf, vi, vm) = (self.vt("f32"), self.vt("i32"), self.vt("i1"));
        match op % 16 {
            0 => {
                let o = ["addf", "subf", "mulf", "divf", "maximumf", "minimumf"];
                let o = o[usize::from(b.next()) % o.len()];
                let (x, y) = (b.pick(&self.f).to_string(), b.pick(&self.f).to_string());
                let r = self.fresh();
                self.line(format!("{r} = arith.{o} {x}, {y} : {vf}"));
                self.f.push(r);
            }
            1 => {
                let o = [
                    "math.exp", "math.log", "math.tanh", "math.sqrt", "math.absf", "math.floor",
                    "arith.negf", "math.rsqrt", "math.erf", "math.sin", "math.cos", "math.ceil",
                    "math.roundeven", "math.log1p", "math.exp2", "math.trunc",
                ];
                let o = o[usize::from(b.next()) % o.len()];
                let x = b.pick(&self.f).to_string();
                let r = self.fresh();
                self.line(format!("{r} = {o} {x} : {vf}"));
                self.f.push(r);
            }
            2 => {
                let o = [
                    "addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minsi", "maxui",
                    "minui", "shli", "shrsi", "shrui", "divsi", "remsi", "divui", "remui",
                    "ceildivsi", "floordivsi",
                ];
                let o = o[usize::from(b.next()) % o.len()];
                let (x, y) = (b.pick(&self.i).to_string(), b.pick(&self.i).to_string());
                let r = self.fresh();
                self.line(format!("{r} = arith.{o} {x}, {y} : {vi}"));
                self.i.push(r);
            }
            3 => {
                // A shift by a constant, in range or not (0..39).
                let o = ["shli", "shrsi", "shrui"][usize::from(b.next()) % 3];
                let k = b.next() % 40;
                let x = b.pick(&self.i).to_string();
                let c = self.fresh();
                self.line(format!("{c} = arith.constant dense<{k}> : {vi}"));
                let r = self.fresh();
                self.line(format!("{r} = arith.{o} {x}, {c} : {vi}"));
                self.i.push(r);
            }
            4 => {
                let p = ["oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ult", "une", "uno"];
                let p = p[usize::from(b.next()) % p.len()];
                let (x, y) = (b.pick(&self.f).to_string(), b.pick(&self.f).to_string());
                let r = self.fresh();
                self.line(format!("{r} = arith.cmpf {p}, {x}, {y} : {vf}"));
                self.m.push(r);
            }
            5 => {
                let p = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"];
                let p = p[usize::from(b.next()) % p.len()];
                let (x, y) = (b.pick(&self.i).to_string(), b.pick(&self.i).to_string());
                let r = self.fresh();
                self.line(format!("{r} = arith.cmpi {p}, {x}, {y} : {vi}"));
                self.m.push(r);
            }
            6 if !self.m.is_empty() => {
                let m = b.pick(&self.m).to_string();
                let r = self.fresh();
                if b.next() % 2 == 0 {
                    let (x, y) = (b.pick(&self.f).to_string(), b.pick(&self.f).to_string());
                    self.line(format!("{r} = arith.select {m}, {x}, {y} : {vm}, {vf}"));
                    self.f.push(r);
                } else {
                    let (x, y) = (b.pick(&self.i).to_string(), b.pick(&self.i).to_string());
                    self.line(format!("{r} = arith.select {m}, {x}, {y} : {vm}, {vi}"));
                    self.i.push(r);
                }
            }
            7 => {
                let r = self.fresh();
                match b.next() % 5 {
                    0 => {
                        let x = b.pick(&self.i).to_string();
                        self.line(format!("{r} = arith.sitofp {x} : {vi} to {vf}"));
                        self.f.push(r);
                    }
                    1 => {
                        let x = b.pick(&self.i).to_string();
                        self.line(format!("{r} = arith.uitofp {x} : {vi} to {vf}"));
                        self.f.push(r);
                    }
                    2 => {
                        let x = b.pick(&self.f).to_string();
                        self.line(format!("{r} = arith.bitcast {x} : {vf} to {vi}"));
                        self.i.push(r);
                    }
                    3 => {
                        let x = b.pick(&self.i).to_string();
                        self.line(format!("{r} = arith.bitcast {x} : {vi} to {vf}"));
                        self.f.push(r);
                    }
                    _ => {
                        let x = b.pick(&self.f).to_string();
                        self.line(format!("{r} = arith.fptosi {x} : {vf} to {vi}"));
                        self.i.push(r);
                    }
                }
            }
            8 => {
                // A reduction along one dimension, broadcast back.
                let float = b.next() % 2 == 0;
                let dim = usize::from(b.next() % 2);
                let kinds: &[&str] = if float {
                    &["add", "maximumf", "minimumf", "mul"]
                } else {
                    &["add", "maxsi", "minui", "xor", "and", "or"]
                };
                let kind = kinds[usize::from(b.next()) % kinds.len()];
                let (e, x) = if float {
                    ("f32", b.pick(&self.f).to_string())
                } else {
                    ("i32", b.pick(&self.i).to_string())
                };
                let kept = if dim == 0 { self.c } else { self.r };
                let zero = if float { "0.0" } else { "0" };
                let acc = self.fresh();
                self.line(format!("{acc} = arith.constant dense<{zero}> : vector<{kept}x{e}>"));
                let red = self.fresh();
                let vt = self.vt(e);
                self.line(format!(
                    "{red} = vector.multi_reduction <{kind}>, {x}, {acc} [{dim}] : {vt} to vector<{kept}x{e}>"
                ));
                let r = self.fresh();
                if dim == 0 {
                    self.line(format!("{r} = vector.broadcast {red} : vector<{kept}x{e}> to {vt}"));
                } else {
                    let s = self.fresh();
                    self.line(format!(
                        "{s} = vector.shape_cast {red} : vector<{kept}x{e}> to vector<{kept}x1x{e}>"
                    ));
                    self.line(format!("{r} = vector.broadcast {s} : vector<{kept}x1x{e}> to {vt}"));
                }
                if float { self.f.push(r) } else { self.i.push(r) }
            }
            9 => {
                // Shape casts through 1-D and (R*C/128)x128, a negation between.
                let n = self.r * self.c;
                let x = b.pick(&self.f).to_string();
                let (a, m, z) = (self.fresh(), self.fresh(), self.fresh());
                let mid = if b.next() % 2 == 0 {
                    format!("vector<{n}xf32>")
                } else {
                    format!("vector<{}x128xf32>", n / 128)
                };
                self.line(format!("{a} = vector.shape_cast {x} : {vf} to {mid}"));
                self.line(format!("{m} = arith.negf {a} : {mid}"));
                self.line(format!("{z} = vector.shape_cast {m} : {mid} to {vf}"));
                self.f.push(z);
            }
            10 => {
                // A splat of any f32 or i32 bit pattern, as a broadcast.
                let bits = u32::from_le_bytes([b.next(), b.next(), b.next(), b.next()]);
                let (s, r) = (self.fresh(), self.fresh());
                if b.next() % 2 == 0 {
                    self.line(format!("{s} = arith.constant {:#010x} : f32", bits));
                    self.line(format!("{r} = vector.broadcast {s} : f32 to {vf}"));
                    self.f.push(r);
                } else {
                    self.line(format!("{s} = arith.constant {} : i32", bits as i32));
                    self.line(format!("{r} = vector.broadcast {s} : i32 to {vi}"));
                    self.i.push(r);
                }
            }
            11 => {
                // A scalar load at dynamic indices, broadcast.
                let (a, c) = (self.index(b), self.index(b));
                let (s, r) = (self.fresh(), self.fresh());
                let mt = self.mt("f32");
                let src = if b.next() % 2 == 0 { "%x" } else { "%y" };
                self.line(format!("{s} = memref.load {src}[{a}, {c}] : {mt}"));
                self.line(format!("{r} = vector.broadcast {s} : f32 to {vf}"));
                self.f.push(r);
            }
            12 => {
                // Rows loaded at a dynamic row (1 or 8 rows), broadcast or
                // used whole.
                let a = self.index(b);
                let c0 = "%c0".to_string();
                let col = if b.next() % 4 == 0 { self.index(b) } else { c0 };
                let rows = if b.next() % 2 == 0 { 1 } else { 8.min(self.r) };
                let (e, src) = if b.next() % 3 == 0 { ("i32", "%n") } else { ("f32", "%x") };
                let mt = self.mt(e);
                let (l, r) = (self.fresh(), self.fresh());
                let lt = format!("vector<{rows}x{}x{e}>", self.c);
                self.line(format!("{l} = vector.load {src}[{a}, {col}] : {mt}, {lt}"));
                if rows == 1 {
                    let vt = self.vt(e);
                    self.line(format!("{r} = vector.broadcast {l} : {lt} to {vt}"));
                    if e == "f32" { self.f.push(r) } else { self.i.push(r) }
                } else if rows == self.r {
                    if e == "f32" { self.f.push(l) } else { self.i.push(l) }
                }
            }
            13 => {
                // A store at a dynamic place: one row of a value or a scalar.
                let a = self.index(b);
                if b.next() % 2 == 0 {
                    let x = b.pick(&self.f).to_string();
                    let s = self.fresh();
                    let c = self.c;
                    self.line(format!(
                        "{s} = vector.extract_strided_slice {x} {{offsets = [0, 0], sizes = [1, {c}], strides = [1, 1]}} : {vf} to vector<1x{c}xf32>"
                    ));
                    let mt = self.mt("f32");
                    self.line(format!("vector.store {s}, %o[{a}, %c0] : {mt}, vector<1x{c}xf32>"));
                } else {
                    let c = self.index(b);
                    let s = self.fresh();
                    self.line(format!("{s} = arith.constant 7 : i32"));
                    let mt = self.mt("i32");
                    self.line(format!("memref.store {s}, %p[{a}, {c}] : {mt}"));
                }
            }
            14 => {
                let d = b.next() % 2;
                let r = self.fresh();
                self.line(format!("{r} = tpu.iota {{dimensions = array<i32: {d}>}} : {vi}"));
                self.i.push(r);
            }
            _ => {
                let (x, y, z) = (
                    b.pick(&self.f).to_string(),
                    b.pick(&self.f).to_string(),
                    b.pick(&self.f).to_string(),
                );
                let r = self.fresh();
                self.line(format!("{r} = math.fma {x}, {y}, {z} : {vf}"));
                self.f.push(r);
            }
        }
    }
}

/// The kernel text and its call's types for `data`.
fn generate(data: &[u8]) -> (String, CallShape, bool) {
    let mut b = Bytes { d: data, i: 0 };
    let shape = b.next();
    let (r, c) = ([8, 16][usize::from(shape & 1)], [128, 256][usize::from(shape >> 1 & 1)]);
    let grid = 1 + usize::from(shape >> 2 & 1);
    let fuse = shape >> 3 & 1 == 1;
    let mut g = Gen {
        r,
        c,
        body: String::new(),
        n: 0,
        f: Vec::new(),
        i: Vec::new(),
        m: Vec::new(),
        idx: vec!["%c0".into()],
    };
    let (vf, vi, mf, mi) = (g.vt("f32"), g.vt("i32"), g.mt("f32"), g.mt("i32"));
    g.line("%c0 = arith.constant 0 : index".into());
    g.line(format!("%x0 = vector.load %x[%c0, %c0] : {mf}, {vf}"));
    g.line(format!("%y0 = vector.load %y[%c0, %c0] : {mf}, {vf}"));
    g.line(format!("%n0 = vector.load %n[%c0, %c0] : {mi}, {vi}"));
    g.line(format!("vector.store %x0, %o[%c0, %c0] : {mf}, {vf}"));
    g.line(format!("vector.store %n0, %p[%c0, %c0] : {mi}, {vi}"));
    g.line("%pi = arith.index_cast %i : i32 to index".into());
    g.f = vec!["%x0".into(), "%y0".into()];
    g.i = vec!["%n0".into()];
    g.idx.push("%pi".into());
    let mut steps = 0;
    while !b.done() && steps < 24 {
        g.step(&mut b);
        steps += 1;
    }
    let (lf, li) = (g.f.last().unwrap().clone(), g.i.last().unwrap().clone());
    if shape >> 4 & 1 == 0 {
        g.line(format!("vector.store {lf}, %o[%c0, %c0] : {mf}, {vf}"));
    }
    if shape >> 5 & 1 == 0 {
        g.line(format!("vector.store {li}, %p[%c0, %c0] : {mi}, {vi}"));
    }
    let win = format!("{{transform_indices = @t, window_bounds = array<i64: {r}, {c}>}}");
    let mut text = String::new();
    let _ = write!(
        text,
        "module {{\n  func.func @k(%i: i32, %x: {mf}, %y: {mf}, %n: {mi}, %o: {mf}, %p: {mi}) attributes {{dimension_semantics = [#tpu.dimension_semantics<parallel>], iteration_bounds = array<i64: {grid}>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{win}, {win}, {win}, {win}, {win}]}} {{\n{}    return\n  }}\n  func.func @t(%i: i32) -> (i32, i32) {{\n    %c0 = arith.constant 0 : i32\n    return %i, %c0 : i32, i32\n  }}\n}}\n",
        g.body
    );
    let t = |e: &str| TensorType::parse(&format!("tensor<{}x{c}x{e}>", grid * r)).unwrap();
    let call = CallShape {
        operands: vec![t("f32"), t("f32"), t("i32")],
        results: vec![t("f32"), t("i32")],
        aliases: Vec::new(),
    };
    (text, call, fuse)
}

fuzz_target!(|data: &[u8]| {
    set_jit_guard_pages(true);
    let (text, call, fuse) = generate(data);
    let ctx = Context::new();
    let Ok(kernel) = Kernel::from_text(&ctx, &text, "fuzz") else {
        // The generator only writes valid kernels: report a miss loudly in
        // debug runs (TCC_FUZZ_VERBOSE), skip otherwise.
        if std::env::var_os("TCC_FUZZ_VERBOSE").is_some() {
            eprintln!("does not load:\n{text}");
        }
        return;
    };
    let execution = match Execution::new(&kernel, call) {
        Ok(e) => e,
        Err(e) => {
            if std::env::var_os("TCC_FUZZ_VERBOSE").is_some() {
                eprintln!("not executable: {e}\n{text}");
            }
            return;
        }
    };
    let Ok(inputs) = random_inputs(execution.call_shape(), data.len() as u64) else { return };
    let run = |engine| {
        let options = RunOptions {
            engine,
            fuse_multiply_add: fuse,
            max_bytes: Some(64 << 20),
            ..RunOptions::default()
        };
        execution.run_report(std::slice::from_ref(&inputs), &options)
    };
    let (j, i) = (run(Engine::Jit), run(Engine::Interpreter));
    if std::env::var_os("TCC_FUZZ_VERBOSE").is_some() {
        match &j {
            Ok(r) => eprintln!("jit: {:?} {:?}", r.engine.engine, r.engine.fallback),
            Err(e) => eprintln!("jit error: {e}"),
        }
    }
    match (j, i) {
        (Ok(j), Ok(i)) => {
            if let Err(d) = compare_engines(&j.results, &i.results, ulp_bound(&execution)) {
                panic!("the engines differ: {d}\n{text}");
            }
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string(), "different errors\n{text}");
        }
        (Err(a), Ok(_)) => panic!("only the compiled engine fails: {a}\n{text}"),
        (Ok(_), Err(b)) => panic!("only the interpreter fails: {b}\n{text}"),
    }
    // Free the compiled kernel (each input makes a new one).
    clear_jit_cache();
});

fn main() {
    tpu_custom_call_fuzz::main()
}
