#!/usr/bin/env python3
"""Measures, per libtpu release, the facts `--libtpu-version` emits by (issue 38): the Mosaic serialization
versions it reads, whether it reads MLIR 24's bytecode encodings and the `debug_locations` config field, how it
takes SparseCore calls (`sparse_core_config.core_ids`, `megachip_parallelism_config`, not at all), its PJRT C API
version and build stamp. Writes data/libtpu/releases.json, which `src/libtpu/releases.rs` must match
(tests/integration/releases.rs checks it).

Usage: scripts/libtpu/releases.py [--cli target/debug/tpu-custom-call] [--releases 0.0.35,...|all]
       [--chips v5e,v6e,v7x] [--install] [--out data/libtpu/releases.json]
Each release is ~/.cache/tpu-custom-call/libtpu/<release>/libtpu.so; `--install` fetches the missing ones first
(scripts/libtpu/install-release.sh: pip download from PyPI, ~250 MB each). `all` is every release from 0.0.35 to
0.0.52 on PyPI. Needs nothing but our CLI and the libraries (no JAX).

The probes, emitted once by our CLI with JAX's rules only (the default release's, 0.0.50.1, which allows all):
  add_vN        the add golden at IR version N (11..18), locations inline, LLVM 22 encodings
  add_unzip     ... at 11 with the locations in the `debug_locations` field (JAX's default since 0.0.50)
  add_enc24     ... at 11, inline, MLIR 24's builtin attribute encodings (JAX 0.12's body bytes)
  sc_<golden>_core_ids / _megachip   each SparseCore golden at 11, inline, with `sparse_core_config.core_ids`
                (JAX's default) or `megachip_parallelism_config` (its export form, forward_compatible)
  sc_scan_v18   the SparseCore scan golden at 18 (`#tpu.reduction_kind<maxf>`)
  sc_opt_<L>    the SparseCore copy golden with `opt_level` L (`sparse_core_config.comp_env.backend_opt_level`),
                on v7x only: a level is known unless libtpu says `no such field: 'backend_opt_level'` or
                `unknown enum value: 'L'` (O0 crashes libtpu on v7x: the crash still says it read the level)
TensorCore probes compile on every chip given, SparseCore probes on the chips with SparseCores (v5p, v6e, v7x).
A fact holds when the probe compiles on every chip it ran on.
"""
import argparse, json, os, re, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CACHE = os.environ.get("TPU_CUSTOM_CALL_LIBTPU_CACHE", os.path.expanduser("~/.cache/tpu-custom-call/libtpu"))
ALL = ("0.0.35 0.0.36 0.0.37 0.0.38 0.0.39 0.0.40 0.0.41 0.0.42 0.0.42.1 0.0.43.2 0.0.45 0.0.46 0.0.46.1 0.0.46.2 0.0.46.3 0.0.47 "
       "0.0.47.1 0.0.48 0.0.48.1 0.0.49 0.0.50 0.0.50.1 0.0.51 0.0.52").split()
SC_CHIPS = {"v5p", "v6e", "v7x"}
OPT_LEVELS = ["O0", "O1", "O2", "O3"]
SC_GOLDENS = ["sparsecore_vector_1core", "sparsecore_scan_reduce", "sparsecore_vector_2cores_sc_tiling",
              "sparsecore_vector_explicit_tc_tiling"]
GOLDENS = os.path.join(ROOT, "tests/data/jax-goldens")


def golden(case):
    call = json.load(open(os.path.join(GOLDENS, case, "custom_calls.json")))[0]
    sig = f"({', '.join(call['operand_types'])}) -> ({', '.join(call['result_types'])})"
    params = json.load(open(os.path.join(ROOT, "mlir-fixtures/params", case + ".json")))
    return os.path.join(GOLDENS, case, "kernel_pre_serde.generic.mlir"), sig, params


def probes():
    kernel, sig, params = golden("add_basic")
    out = []
    for v in range(11, 19):
        out.append((f"add_v{v}", kernel, sig, params, ["--ir-version", str(v), "--debug-locations", "inline"], False))
    out.append(("add_unzip", kernel, sig, params, ["--ir-version", "11", "--debug-locations", "unzip"], False))
    out.append(("add_enc24", kernel, sig, params,
                ["--ir-version", "11", "--debug-locations", "inline", "--bytecode-encodings", "24"], False))
    for case in SC_GOLDENS:
        kernel, sig, params = golden(case)
        short = case.replace("sparsecore_", "")
        out.append((f"sc_{short}_core_ids", kernel, sig, params, ["--ir-version", "11", "--debug-locations", "inline"], True))
        mega = dict(params, forward_compatible=True)
        out.append((f"sc_{short}_megachip", kernel, sig, mega, ["--ir-version", "11"], True))
    kernel, sig, params = golden("sparsecore_scan_reduce")
    out.append(("sc_scan_v18", kernel, sig, params, ["--ir-version", "18", "--debug-locations", "inline"], True))
    kernel, sig, params = golden("sparsecore_vector_1core")
    for level in OPT_LEVELS:
        mega = dict(params, forward_compatible=True, opt_level=level)
        out.append((f"sc_opt_{level}", kernel, sig, mega, ["--ir-version", "11"], "v7x"))
    return out


def first_line(text):
    lines = [" ".join(l.split()) for l in text.splitlines() if l.strip()]
    for l in lines:
        if any(k in l for k in ("Unsupported version", "no such field", "unknown attribute code", "conflicting",
                                "expected ::mlir", "Failed", "error", "RET_CHECK")):
            return l[:500]
    return (lines[0] if lines else text)[:500]


def build_stamp(path):
    """`Built on <date> (<epoch>)` from the library: what identifies a release without its wheel."""
    pat = re.compile(rb"Built on ([A-Z][a-z]{2} +\d{1,2} \d{4} \d\d:\d\d:\d\d) \((\d+)\)")
    with open(path, "rb") as f:
        tail = b""
        while True:
            chunk = f.read(1 << 24)
            if not chunk:
                return None
            m = pat.search(tail + chunk)
            if m:
                return {"date": m.group(1).decode(), "epoch": int(m.group(2))}
            tail = chunk[-64:]


REFERENCE = "0.0.50.1"


def _squash(text):
    """libtpu's JSON errors pad words with extra spaces (`no  such field`)."""
    return " ".join(text.split())


def derive(releases):
    """Facts from verdicts. SparseCore: the (golden, chip) pairs that compile on the reference release (JAX 0.12's,
    0.0.50.1) in JAX's own form (core_ids) are the yardstick: a release takes SparseCore calls in a form when all of
    them compile in that form (kernels the chip itself refuses, e.g. the scan golden's 16-wide vectors without the
    layout passes on v6e, say nothing about the release)."""
    ref = releases.get(REFERENCE) or releases[max(releases, key=lambda v: [int(x) for x in v.split(".")])]
    pairs = [(name[3:-len("_core_ids")], chip) for name, chips in ref["verdicts"].items()
             if name.startswith("sc_") and name.endswith("_core_ids") for chip, e in chips.items() if e is None]
    for row in releases.values():
        v = row["verdicts"]
        ok = lambda name: all(e is None for e in v[name].values())
        accepted = [n for n in range(11, 19) if ok(f"add_v{n}")]
        nxt = f"add_v{max(accepted) + 1}" if accepted else "add_v11"
        refusal = next((e for e in v.get(nxt, {}).values() if e), "") or ""
        m = re.search(r"expected <= (\d+)", refusal)
        forms = {form: all(v[f"sc_{short}_{form}"][chip] is None for short, chip in pairs)
                 for form in ("core_ids", "megachip")}
        row["facts"] = {
            "ir_versions": accepted,
            "highest_ir_version": max(accepted) if accepted else (int(m.group(1)) if m else 0),
            "debug_locations_field": ok("add_unzip"),
            "llvm24_encodings": ok("add_enc24"),
            "sparse_core_core_ids": forms["core_ids"],
            "sparse_core_megachip": forms["megachip"],
            "sparse_core": "core_ids" if forms["core_ids"] else "megachip" if forms["megachip"] else "refused",
            "sparse_core_pairs": [f"{short} on {chip}" for short, chip in pairs],
            "opt_levels": [level for level in OPT_LEVELS if f"sc_opt_{level}" in v and not any(
                e and (_squash("no such field: 'backend_opt_level'") in _squash(e)
                       or _squash(f"unknown enum value: '{level}'") in _squash(e))
                for e in v[f"sc_opt_{level}"].values())],
        }


SPARSE_CORE = {"refused": "Refused", "megachip": "Megachip", "core_ids": "CoreIds"}


def print_table(data):
    """The Rust rows of RELEASES, from measured facts."""
    for version, row in data["releases"].items():
        f = row["facts"]
        major, minor = (int(x) for x in (row["pjrt_api"] or "0.0").split("."))
        epoch = (row.get("build") or {}).get("epoch") or 0
        levels = ", ".join(f["opt_levels"])
        print(f'    release("{version}", ({major}, {minor}), {f["highest_ir_version"]}, '
              f'{str(f["debug_locations_field"]).lower()}, {str(f["llvm24_encodings"]).lower()}, '
              f'{SPARSE_CORE[f["sparse_core"]]}, &[{levels}], {epoch}),')


def print_docs(data):
    """The compatibility table of docs/compile.md."""
    print("| release | PJRT C API | serialization versions | MLIR 24 encodings | `debug_locations` field | "
          "SparseCore | SparseCore `opt_level` | `--libtpu-version` emits |")
    print("|---|---|---|---|---|---|---|---|")
    for version, row in data["releases"].items():
        f = row["facts"]
        versions = f["ir_versions"]
        irs = f"{versions[0]}–{versions[-1]}" if len(versions) > 1 else (str(versions[0]) if versions else
                                                                      f"none (up to {f['highest_ir_version']})")
        sc = {"refused": "no", "megachip": "`megachip_parallelism_config`", "core_ids": "`core_ids`"}[f["sparse_core"]]
        levels = ", ".join(f["opt_levels"]) or "none"
        default = min(15, versions[-1]) if versions else None
        emits = "refused (no version)" if default is None else f"IR {default}, " + (
            "locations unzipped" if f["debug_locations_field"] else "locations inline")
        print(f"| {version} | {row['pjrt_api']} | {irs} | {'yes' if f['llvm24_encodings'] else 'no'} | "
              f"{'yes' if f['debug_locations_field'] else 'no'} | {sc} | {levels} | {emits} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=os.path.join(ROOT, "target/debug/tpu-custom-call"))
    ap.add_argument("--releases", default="all")
    ap.add_argument("--chips", default="v5e,v6e,v7x")
    ap.add_argument("--install", action="store_true")
    ap.add_argument("--out", default=os.path.join(ROOT, "data/libtpu/releases.json"))
    ap.add_argument("--rederive", action="store_true", help="recompute --out's facts from its verdicts, and stop")
    ap.add_argument("--print-docs", action="store_true",
                    help="print docs/compile.md's compatibility table for --out's releases, and stop")
    ap.add_argument("--print-table", action="store_true",
                    help="print the rows of src/libtpu/releases.rs's RELEASES for --out's releases, and stop")
    a = ap.parse_args()
    if a.print_table:
        print_table(json.load(open(a.out)))
        return
    if a.print_docs:
        print_docs(json.load(open(a.out)))
        return
    if a.rederive:
        data = json.load(open(a.out))
        derive(data["releases"])
        with open(a.out, "w") as f:
            json.dump(data, f, indent=1)
            f.write("\n")
        return
    releases = ALL if a.releases == "all" else a.releases.split(",")
    chips = a.chips.split(",")
    if a.install:
        subprocess.run([os.path.join(ROOT, "scripts/libtpu/install-release.sh"), *releases], check=True)
    tmp = tempfile.mkdtemp(prefix="tcc-releases-")
    mods = []
    for name, kernel, sig, params, flags, sc in probes():
        pj = os.path.join(tmp, name + ".json")
        json.dump(params, open(pj, "w"))
        path = os.path.join(tmp, name + ".mlir")
        r = subprocess.run([a.cli, "emit", kernel, "--signature", sig, "--params", pj, "--jax-rules-only",
                            *flags, "-o", path], capture_output=True, text=True)
        if r.returncode:
            sys.exit(f"emit {name}: {r.stderr}")
        mods.append((name, path, sc))
    results, compiles, started = {}, 0, time.time()
    for release in releases:
        so = os.path.join(CACHE, release, "libtpu.so")
        if not os.path.isfile(so):
            print(f"skipped {release}: {so} missing (--install fetches it)", file=sys.stderr)
            continue
        row = {"verdicts": {}, "pjrt_api": None, "build": build_stamp(so)}
        for chip in chips:
            todo = [m for m in mods if (m[2] is True and chip in SC_CHIPS) or not m[2] or m[2] == chip]
            p = subprocess.run([a.cli, "compile", "--libtpu", so, "--target", chip, "--json",
                                *[m[1] for m in todo]], capture_output=True, text=True)
            answers = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
            if len(answers) != len(todo):
                sys.exit(f"{release} {chip}: {p.stderr}")
            compiles += len(todo)
            for (name, _, _), v in zip(todo, answers):
                row["verdicts"].setdefault(name, {})[chip] = None if v["ok"] else first_line(v["error"])
                lib = v.get("libtpu") or {}
                row["pjrt_api"] = lib.get("pjrt_api", row["pjrt_api"])
        results[release] = row
        print(f"{release}: PJRT {row['pjrt_api']}, {len(mods)} probes", file=sys.stderr)
    out = {"about": "Per libtpu release: what it compiles of our emission (null = compiled, else libtpu's line) and "
                    "the facts derived. Made by scripts/libtpu/releases.py; src/libtpu/releases.rs holds the same "
                    "facts.", "chips": chips, "compiles": compiles,
           "seconds": round(time.time() - started), "releases": results}
    if a.releases != "all" and os.path.exists(a.out):
        old = json.load(open(a.out))
        out["compiles"] += old.get("compiles", 0)
        out["seconds"] += old.get("seconds", 0)
        old["releases"].update(results)
        results = old["releases"]
        out["releases"] = dict(sorted(results.items(), key=lambda kv: [int(x) for x in kv[0].split(".")]))
    derive(out["releases"])
    for release, row in out["releases"].items():
        f = row["facts"]
        print(f"{release}: PJRT {row['pjrt_api']}, IR {f['ir_versions']}, debug_locations "
              f"{f['debug_locations_field']}, enc24 {f['llvm24_encodings']}, SparseCore {f['sparse_core']}",
              file=sys.stderr)
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"{compiles} compiles in {time.time() - started:.0f} s -> {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
