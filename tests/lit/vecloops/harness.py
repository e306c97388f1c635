"""Wraps a kernel function for `mlir-runner`: a `@main` that fills every memref argument of the
first `func.func` with deterministic values, calls it, and prints every argument's elements as
integer bit patterns (one per line), so that two lowerings of the same kernel compare bit for bit
with `diff`.

Usage: harness.py KERNEL.mlir > MAIN.mlir   (the kernel's text is copied in first)
"""
import re
import sys

text = open(sys.argv[1]).read()
m = re.search(r"^func\.func @(\w+)\(([^)]*)\)", text, re.M)
name, params = m.group(1), m.group(2)
args = re.findall(r"%\w+\s*:\s*memref<([0-9x]+)x(\w+)>", params)
bits = {"f32": 32, "f64": 64, "bf16": 16, "f16": 16, "i32": 32, "i64": 64, "i16": 16, "i8": 8}

out = [text, "func.func @main() {"]
ssa = 0


def new():
    global ssa
    ssa += 1
    return f"%v{ssa}"


bufs = []
for k, (shape, ty) in enumerate(args):
    dims = [int(d) for d in shape.split("x")]
    mt = f"memref<{shape}x{ty}>"
    buf = new()
    out.append(f"  {buf} = memref.alloc() : {mt}")
    bufs.append((buf, dims, ty, mt))

c = {}
consts = []


def const(n):
    if n not in c:
        c[n] = new()
        consts.append(f"  {c[n]} = arith.constant {n} : index")
    return c[n]


def loops(dims, body):
    """Emits a loop nest; body(ivs, flat) returns lines."""
    ivs = [new() for _ in dims]
    for d, iv in enumerate(ivs):
        out.append("  " * (d + 1) + f"scf.for {iv} = {const(0)} to {const(dims[d])} step {const(1)} {{")
    flat = new()
    ind = "  " * (len(dims) + 1)
    expr = ivs[0]
    lines = []
    for d in range(1, len(dims)):
        t1, t2 = new(), new()
        lines += [f"{t1} = arith.muli {expr}, {const(dims[d])} : index", f"{t2} = arith.addi {t1}, {ivs[d]} : index"]
        expr = t2
    lines.append(f"{flat} = arith.addi {expr}, {const(0)} : index")
    lines += body(ivs, flat)
    out.extend(ind + line for line in lines)
    for d in reversed(range(len(dims))):
        out.append("  " * (d + 1) + "}")


for k, (buf, dims, ty, mt) in enumerate(bufs):
    def fill(ivs, flat, ty=ty, buf=buf, k=k):
        i64, h, r, v = new(), new(), new(), new()
        w = bits[ty]
        # hash: (flat * 2654435761 + 977*k) mod 1009, centred
        lines = [
            f"{i64} = arith.index_cast {flat} : index to i64",
            f"%m{k}_{ssa} = arith.constant 2654435761 : i64",
            f"{h} = arith.muli {i64}, %m{k}_{ssa} : i64",
            f"%o{k}_{ssa} = arith.constant {977 * (k + 1)} : i64",
            f"{h}b = arith.addi {h}, %o{k}_{ssa} : i64",
            f"%p{k}_{ssa} = arith.constant 1009 : i64",
            f"{r} = arith.remui {h}b, %p{k}_{ssa} : i64",
            f"%q{k}_{ssa} = arith.constant 504 : i64",
            f"{r}c = arith.subi {r}, %q{k}_{ssa} : i64",
        ]
        if ty.startswith("f") or ty == "bf16":
            lines += [
                f"{v}a = arith.sitofp {r}c : i64 to f32",
                f"%s{k}_{ssa} = arith.constant 0.0123 : f32",
                f"{v}b = arith.mulf {v}a, %s{k}_{ssa} : f32",
            ]
            if ty == "f32":
                lines.append(f"{v} = arith.addf {v}b, {v}b : f32")
            elif ty == "f64":
                lines.append(f"{v} = arith.extf {v}b : f32 to f64")
            else:
                lines.append(f"{v} = arith.truncf {v}b : f32 to {ty}")
        else:
            lines.append(f"{v} = arith.trunci {r}c : i64 to {ty}" if bits[ty] < 64 else f"{v} = arith.addi {r}c, {r}c : i64")
        lines.append(f"memref.store {v}, {buf}[{', '.join(ivs)}] : {mt}")
        return lines

    loops(dims, fill)

out.append(f"  call @{name}({', '.join(b[0] for b in bufs)}) : ({', '.join(b[3] for b in bufs)}) -> ()")

for k, (buf, dims, ty, mt) in enumerate(bufs):
    def show(ivs, flat, ty=ty, buf=buf, mt=mt):
        v, i = new(), new()
        lines = [f"{v} = memref.load {buf}[{', '.join(ivs)}] : {mt}"]
        if ty.startswith("f") or ty == "bf16":
            lines.append(f"{i} = arith.bitcast {v} : {ty} to i{bits[ty]}")
        else:
            i = v
        lines.append(f"vector.print {i} : i{bits[ty]}")
        return lines

    loops(dims, show)
out.append("  return")
out.append("}")
head = out.index("func.func @main() {") + 1
print("\n".join(out[:head] + consts + out[head:]))
