#!/usr/bin/env python3
"""Counts `crate::<module>` references between the top-level modules of src/
(lib.rs `pub mod` lines) and prints the edges and any cycle. Exit 1 on a cycle."""
import re, sys, pathlib
src = pathlib.Path(__file__).resolve().parent.parent / "src"
lib = (src / "lib.rs").read_text()
mods = re.findall(r"^\s*(?:pub(?:\(crate\))?\s+)?mod\s+(\w+)\s*;", lib, re.M)
reexport = {}
for m, names in re.findall(r"pub use (\w+)::\{([^}]*)\}", lib):
    for n in re.findall(r"\w+", names): reexport[n] = m
for m, n in re.findall(r"pub use (\w+)::(\w+);", lib): reexport[n] = m
def owner(p):
    rel = p.relative_to(src).parts
    return rel[0][:-3] if len(rel) == 1 else rel[0]
edges = {}
for p in src.rglob("*.rs"):
    o = owner(p)
    if o not in mods: continue
    text = p.read_text()
    targets = set(re.findall(r"crate::(\w+)", text))
    for group in re.findall(r"crate::\{([^}]*)\}", text):
        targets |= set(re.findall(r"(?:^|,)\s*(\w+)", group))
    for t in targets:
        t = reexport.get(t, t)
        if t in mods and t != o:
            edges.setdefault(o, set()).add(t)
for o in sorted(edges): print(o, "->", ", ".join(sorted(edges[o])))
# cycles: strongly connected components
idx, low, st, on, sccs, c = {}, {}, [], set(), [], [0]
def sc(v):
    idx[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
    for w in edges.get(v, ()):
        if w not in idx: sc(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], idx[w])
    if low[v] == idx[v]:
        comp = []
        while True:
            w = st.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1: sccs.append(sorted(comp))
for v in mods:
    if v not in idx: sc(v)
for comp in sccs: print("CYCLE:", " <-> ".join(comp))
sys.exit(1 if sccs else 0)
