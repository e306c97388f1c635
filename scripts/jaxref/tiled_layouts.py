#!/usr/bin/env python3
"""Memrefs with Mosaic's tiled layout (`#tpu.tiled<...>`) as real jaxlib 0.12 sees them (issue 17).

Usage (with the jaxref venv's python, $REFCHECK_VENV/bin/python):
  tiled_layouts.py layouts > mlir-fixtures/kernels/tiled-layouts.jsonl
      For each memref type of TYPES: whether jaxlib parses it (its printout, or its first message), and for
      those it parses, the layout's affine map as jaxlib prints it and the strides and offset MLIR derives
      from that map (null when it cannot: `get_strides_and_offset` fails). For the types of ABORTS jaxlib
      parses the type but crashes when asked for the map (a failed CHECK in TiledLayoutAttr, a division
      by zero, or an error from reading past an array), so the map is not asked for ("map": "abort").
  tiled_layouts.py print KERNEL
      Prints KERNEL as jaxlib prints it (generic names, custom op syntax) after parsing and verifying it.
  tiled_layouts.py body KERNEL PREFIX
      Serializes KERNEL as JAX does (jax._src.tpu_custom_call._lower_mosaic_module_to_asm: mosaic-serde at
      IR version 15, debug locations unzipped, bytecode version 0) and writes the body to
      PREFIX.body.jaxlib.mlirbc and the debug locations to PREFIX.debug_locations.jaxlib.mlirbc.
Outputs are committed under mlir-fixtures/kernels/ so tests run without the venv.

mlir-fixtures/kernels/tiled.mlir, the kernel these tests use (as `print` prints it), is real Mosaic output: libtpu 0.0.50.1
(`LIBTPU_INIT_ARGS=--xla_mosaic_dump_to=DIR`, scripts/jaxref/ref/tpu_compile.py --chip v5e) dumps the
kernel after each of its passes; tiled.mlir is the dump after `tiling-propagation` (tiled function
arguments, memref_slice, DMAs and a vector_load on tiled memrefs) of a Pallas kernel that copies rows 8..15 of
a (16, 128) f32 input into a VMEM scratch buffer and adds 1. Two things libtpu adds were removed to make it a
kernel as JAX hands it over: the `stable_mosaic.version` module attribute and the `tpu.main` function
attribute (jaxlib refuses a serialized body carrying `tpu.main`: its dialect verifier wants it on a func.func).
"""
import json
import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")

V = "#tpu.memory_space<vmem>"


def t(shape, tiling, elem="f32", space=V):
    parts = [f"{shape}x{elem}" if shape else elem, f"#tpu.tiled<{tiling}>"] + ([space] if space else [])
    return "memref<" + ", ".join(parts) + ">"


TYPES = [
    t("8x128", "(8,128),[1,1]"),
    t("16x128", "(8,128),[1,1]"),
    t("16x128", "(8,128),[2,1]"),
    t("16x128", "(1,128),[1,1]"),
    t("16x128", "(1,128),[2,1]"),
    t("16x128", "(2,128),[1,1]"),
    t("16x128", "(1,1),[1,1]"),
    t("16x128", "(128),[1,1]"),
    t("16x128", "(1),[1,1]"),
    t("16x128", "(8,128)(2,1),[1,1]"),
    t("16x128", "(1,128)(1,1),[1,1]"),
    t("16x128", "(8,128)(128),[1,1]"),
    t("16x128", "(8,128)(),[1,1]"),
    t("16x128", "(),[1,1]"),
    t("2x8x128", "(16,128)(2,1),[2,1,1]", "bf16"),
    t("4x64x128", "(32,128)(4,1),[2,1,1]", "i8"),
    t("16x128", ",[128,1]"),
    t("16x128", ",[1,128]"),
    t("16x128", ",[?,1]"),
    t("16x128", ",[?,?]"),
    t("16x128", "(8,128),[?,1]"),
    t("16x128", "(1,128),[?,1]"),
    t("16x128", "(128),[?,1]"),
    t("16x128", "(8,128),[1,?]"),
    t("16x128", "(0,128),[1,1]"),
    t("16x128", "(-8,128),[1,1]"),
    t("16x128", "(8,128),[4611686018427387904,1]"),
    t("16x128", "(8,128),[-1,1]"),
    t("8", ",[1]"),
    t("8", "(1),[1]"),
    t("8", "(8),[1]"),
    t("", ",[]"),
    "memref<!tpu.dma_semaphore, #tpu.tiled<,[]>, #tpu.memory_space<semaphore_mem>>",
    t("16x128", "(8, 128), [1, 1]"),
    t("16x128", "( 8 , 128 ) ( 2 , 1 ) , [ 1 , 1 ]"),
    t("16x128", "(8,128),[0x10,1]"),
    # Refused: a stride count other than the rank, and malformed tilings.
    t("8x128", "(8,128),[1]"),
    t("8x128", "(8,128),[1,1,1]"),
    t("8x128", ",[]"),
    t("", ",[1]"),
    t("8x128", "(8,128)"),
    t("8x128", "(8,128),[1,1,]"),
    t("8x128", "(8,128,),[1,1]"),
    t("8x128", "(?,128),[1,1]"),
    t("8x128", "(8;128),[1,1]"),
    t("8x128", "(8,128),[x,1]"),
    t("8x128", "(8,128),[99999999999999999999,1]"),
    t("8x128", "(8,128),1,1"),
]

# Parsed, but jaxlib's TiledLayoutAttr::getAffineMap aborts the process on them.
ABORTS = [
    t("16x128", "(8,128,4),[1,1]"),
    t("128", "(8,128),[1]"),
    t("", "(8),[]"),
    t("16x128", "(3,128)(2,1),[1,1]"),
    t("16x128", "(8,128)(8,128,2),[1,1]"),
    t("16x128", "(8,128)(0,1),[1,1]"),
]


def context():
    from jax._src.interpreters import mlir as jmlir
    from jax._src.lib import tpu
    ctx = jmlir.make_ir_context()
    tpu.register_dialect(ctx)
    ctx.allow_unregistered_dialects = True
    return ctx


def first_message(error):
    for line in str(error).splitlines():
        line = line.strip()
        if line.startswith("error: "):
            # error: "<text>":1:18: message
            rest = line[len("error: "):]
            if rest.startswith('"'):
                rest = rest[rest.index('"', 1) + 1:]
                rest = rest.split(": ", 1)[1] if ": " in rest else rest
            return rest
    return ""


def layouts():
    from jaxlib.mlir import ir
    ctx = context()
    for text in TYPES + ABORTS:
        row = {"type": text}
        with ctx:
            try:
                memref = ir.MemRefType(ir.Type.parse(text))
            except Exception as e:  # noqa: BLE001 - MLIRError
                row.update(parsed=None, message=first_message(e))
                print(json.dumps(row))
                continue
            row["parsed"] = str(memref)
            if text in ABORTS:
                row["map"] = "abort"
            else:
                row["map"] = str(memref.affine_map)
                try:
                    strides, offset = memref.get_strides_and_offset()
                    row.update(strides=list(strides), offset=offset)
                except Exception:  # noqa: BLE001 - no strides for this layout
                    row.update(strides=None, offset=None)
        print(json.dumps(row))


def print_kernel(kernel):
    from jaxlib.mlir import ir
    ctx = context()
    with ctx:
        module = ir.Module.parse(open(kernel).read())
        assert module.operation.verify()
        sys.stdout.write(str(module))


def body(kernel, prefix):
    from jax._src import tpu_custom_call
    from jaxlib.mlir import ir
    ctx = context()
    with ctx:
        module = ir.Module.parse(open(kernel).read())
        asm, _, debug_locations = tpu_custom_call._lower_mosaic_module_to_asm(module, ir_version=15)
    with open(prefix + ".body.jaxlib.mlirbc", "wb") as f:
        f.write(asm)
    with open(prefix + ".debug_locations.jaxlib.mlirbc", "wb") as f:
        f.write(debug_locations)


if __name__ == "__main__":
    if sys.argv[1:2] == ["layouts"]:
        layouts()
    elif sys.argv[1:2] == ["print"] and len(sys.argv) == 3:
        print_kernel(sys.argv[2])
    elif sys.argv[1:2] == ["body"] and len(sys.argv) == 4:
        body(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
