#!/usr/bin/env python3
"""SparseCore vector-width sweep: which SparseCore vector kernels libtpu refuses with "Result type is not a valid
vmask or vreg type", on which chips and releases (issue 38; the rule `LibtpuError::ScVectorConstantTooWide`).

Small SparseCore vector-subcore kernels (DMA in, `tpu.vector_load` of N elements of T, one body, `tpu.vector_store`,
DMA out), N x T x body, plus the SparseCore scan fixture (mlir-fixtures/kernels/sc_scan_reduce.pretty.mlir), each
emitted by our CLI for the chip with JAX's rules only and compiled by every installed release given.

Usage: scripts/libtpu/sc_vreg_sweep.py [--cli target/debug/tpu-custom-call] [--releases 0.0.41,0.0.50.1,...]
       [--chips v5p,v6e,v7x] [--out data/libtpu/sc_vreg_sweep.json]
Releases come from ~/.cache/tpu-custom-call/libtpu/<release>/libtpu.so (scripts/libtpu/install-release.sh).
Output: per kernel, per release and chip, null when it compiled, else libtpu's first line.
"""
import argparse, json, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CACHE = os.environ.get("TPU_CUSTOM_CALL_LIBTPU_CACHE", os.path.expanduser("~/.cache/tpu-custom-call/libtpu"))

TEMPLATE = """#map = affine_map<(d0, d1) -> (0)>
module @sc_probe {
  func.func @sc_probe(%arg0: i32, %arg1: i32, %arg2: memref<VT, #tpu.memory_space<hbm>>, %arg3: memref<VT, #tpu.memory_space<hbm>>, %arg4: memref<VT, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [#tpu.dimension_semantics<core_parallel>, #tpu.dimension_semantics<subcore_parallel>], iteration_bounds = array<i64: 1, 16>, scalar_prefetch = 0 : i64, scratch_operands = 1 : i64, tpu.core_type = #tpu.core_type<sc_vector_subcore>, window_params = [{transform_indices = #map}, {transform_indices = #map}]} {
    "tpu.region"() ({
      %s = tpu.sem_alloc : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
      tpu.enqueue_dma source(%arg2 : memref<VT, #tpu.memory_space<hbm>>) target(%arg4 : memref<VT, #tpu.memory_space<vmem>>) target_semaphore(%s : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
      tpu.wait_dma source(%arg2 : memref<VT, #tpu.memory_space<hbm>>) target(%arg4 : memref<VT, #tpu.memory_space<vmem>>) target_semaphore(%s : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {wait_target = true}
      tpu.yield
    }) : () -> ()
    %c0 = arith.constant 0 : index
    %v = tpu.vector_load %arg4[%c0] {strides = array<i32>} : memref<VT, #tpu.memory_space<vmem>>, vector<VT>,
BODY
    tpu.vector_store %arg4[%c0], %r {strides = array<i32>} : memref<VT, #tpu.memory_space<vmem>>, vector<VT>,
    "tpu.region"() ({
      %s = tpu.sem_alloc : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
      tpu.enqueue_dma source(%arg4 : memref<VT, #tpu.memory_space<vmem>>) target(%arg3 : memref<VT, #tpu.memory_space<hbm>>) target_semaphore(%s : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
      tpu.wait_dma source(%arg4 : memref<VT, #tpu.memory_space<vmem>>) target(%arg3 : memref<VT, #tpu.memory_space<hbm>>) target_semaphore(%s : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {wait_target = true}
      tpu.yield
    }) : () -> ()
    return
  }
}
"""

def bodies(t):
    add = "arith.addf" if t == "f32" else "arith.addi"
    c = "1.000000e+00" if t == "f32" else "7"
    return {
        "copy": "    %r = vector.shape_cast %v : vector<VT> to vector<VT>\n",
        "add": f"    %r = {add} %v, %v : vector<VT>\n",
        "dense_constant": f"    %k = arith.constant dense<{c}> : vector<VT>\n    %r = {add} %v, %k : vector<VT>\n",
        "broadcast_constant": f"    %c = arith.constant {c} : {t}\n    %k = vector.broadcast %c : {t} to vector<VT>\n"
                              f"    %r = {add} %v, %k : vector<VT>\n",
        "broadcast_value": (f"    %k = vector.broadcast %arg1 : i32 to vector<VT>\n    %r = {add} %v, %k : vector<VT>\n"
                            if t == "i32" else
                            "    %a = arith.sitofp %arg1 : i32 to f32\n    %k = vector.broadcast %a : f32 to vector<VT>\n"
                            "    %r = arith.addf %v, %k : vector<VT>\n"),
    }


def kernels(tmp):
    out = []
    for n in (8, 16):
        for t in ("f32", "i32"):
            for name, body in bodies(t).items():
                vt = f"{n}x{t}"
                text = TEMPLATE.replace("BODY\n", body).replace("VT", vt)
                path = os.path.join(tmp, f"{name}_{vt}.mlir")
                open(path, "w").write(text)
                for passes in (True, False):
                    out.append({"name": f"{name} vector<{vt}> needs_layout_passes={str(passes).lower()}",
                                "kernel": path, "signature": f"(tensor<{vt}>) -> tensor<{vt}>",
                                "params": {"kernel_name": "sc_probe", "metadata": {}, "forward_compatible": True,
                                           "needs_layout_passes": passes}})
    sig = "(tensor<16xf32>, tensor<16xi32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xi32>)"
    out.append({"name": "sc_scan_reduce fixture", "kernel": os.path.join(ROOT, "mlir-fixtures/kernels/sc_scan_reduce.pretty.mlir"),
                "signature": sig, "params": {"kernel_name": "sc_scan", "metadata": {}, "forward_compatible": True,
                           "needs_layout_passes": False}})
    return out


def first_line(err):
    for line in err.splitlines():
        line = line.strip()
        if line:
            return line[:400]
    return err[:400]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=os.path.join(ROOT, "target/debug/tpu-custom-call"))
    ap.add_argument("--releases", default="0.0.41,0.0.42.1,0.0.47.1,0.0.49,0.0.50.1,0.0.52")
    ap.add_argument("--chips", default="v5p,v6e,v7x")
    ap.add_argument("--out", default=os.path.join(ROOT, "data/libtpu/sc_vreg_sweep.json"))
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="tcc-scvreg-")
    rows = []
    for k in kernels(tmp):
        pj = os.path.join(tmp, f"k{len(rows)}.json")
        json.dump(k["params"], open(pj, "w"))
        row = {"kernel": k["name"], "verdicts": {}}
        for chip in a.chips.split(","):
            mod = f"{pj}.{chip}.stablehlo.mlir"
            r = subprocess.run([a.cli, "emit", k["kernel"], "--signature", k["signature"], "--params", pj,
                                "--ir-version", "11", "--jax-rules-only",
                                "-o", mod], capture_output=True, text=True)
            if r.returncode:
                row.setdefault("emit_error", {})[chip] = first_line(r.stderr)
                continue
            row.setdefault("modules", {})[chip] = mod
        rows.append(row)
    total = 0
    for release in a.releases.split(","):
        so = os.path.join(CACHE, release, "libtpu.so")
        if not os.path.isfile(so):
            print(f"skipped {release}: {so} missing", file=sys.stderr)
            continue
        for chip in a.chips.split(","):
            todo = [r for r in rows if chip in r.get("modules", {})]
            t = time.time()
            p = subprocess.run([a.cli, "compile", "--libtpu", so, "--target", chip, "--json"]
                               + [r["modules"][chip] for r in todo], capture_output=True, text=True)
            lines = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
            for r, v in zip(todo, lines):
                r["verdicts"].setdefault(release, {})[chip] = None if v["ok"] else first_line(v["error"])
            total += len(todo)
            print(f"{release} {chip}: {len(todo)} compiles in {time.time() - t:.0f} s", file=sys.stderr)
    for r in rows:
        r.pop("modules", None)
    out = {"about": "SparseCore vector kernels x chips x libtpu releases: null = compiled, else libtpu's first "
                    "line. Made by scripts/libtpu/sc_vreg_sweep.py (emitted at IR version 11, locations inline, the "
                    "megachip_parallelism_config form every release from 0.0.41 reads, JAX's rules only).", "compiles": total, "results": rows}
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
