#!/usr/bin/env python3
"""Our `emit --target CHIP` (replay.py's results) against libtpu compiling JAX's whole lowered modules.

    cd CORPUS/cases && $TPU_VENV/bin/python scripts/jaxref/ref/tpu_compile.py --chip v6e --json \\
        $(for c in */; do [ -f $c/module_full.mlir ] && echo ${c}module_full.mlir; done) > CORPUS/libtpu-v6e.jsonl
    python3 scripts/jaxref/suite/agree.py --corpus CORPUS v6e v7x

(compile only the cases lowered for that chip: case.json's "chips"). Prints a markdown section: the
confusion table, the agreement where both judge (a libtpu crash is no verdict), false refusals and false
accepts by normalized message.
"""
import argparse, json, collections, re, sys

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("--corpus", default="/work/suite-corpus")
ap.add_argument("chips", nargs="+")
args = ap.parse_args()
res = {json.loads(l)['case']: json.loads(l) for l in open(f'{args.corpus}/replay.jsonl')}
out = []
for chip in args.chips:
    conf = collections.Counter(); fr = collections.Counter(); fa = collections.Counter(); ex = {}
    for l in open(f'{args.corpus}/libtpu-{chip}.jsonl'):
        if not l.startswith('{'): continue
        r = json.loads(l)
        if 'path' not in r: continue
        case = r['path'].split('/')[0]
        err = r['error'] or ''
        lt = 'crash' if err.startswith('libtpu crashed') else ('ok' if r['ok'] else 'error')
        st = res[case]['steps']
        ours = 'n/a (no kernel / not decoded)' if f'target-{chip}' not in st else ('ok' if st[f'target-{chip}']['ok'] else 'refused')
        conf[(ours, lt)] += 1
        if (ours, lt) == ('refused', 'ok'):
            m = st[f'target-{chip}']['message']
            k = re.sub(r'\d+', 'N', re.sub(r"`[^`]*`", "`..`", m))[:120]; fr[k] += 1; ex.setdefault(k, case)
        if (ours, lt) == ('ok', 'error'):
            m = re.search(r"HLO name `[^`]*`: (.*)", err)
            k = re.sub(r'\d+', 'N', (m.group(1) if m else err.splitlines()[0]))[:120]; fa[k] += 1; ex.setdefault(k, case)
    n = sum(conf.values())
    agree = conf[('ok', 'ok')] + conf[('refused', 'error')]
    judged = agree + conf[('refused', 'ok')] + conf[('ok', 'error')]
    out.append(f"\n### {chip}: {n} calls, libtpu 0.0.50.1 compiling JAX's whole lowered module (module_full.mlir, 1 device)\n")
    out.append("| ours (`emit --target`) | libtpu | calls |\n|---|---|---|")
    for k, v in sorted(conf.items()):
        out.append(f"| {k[0]} | {k[1]} | {v} |")
    out.append(f"\nAgreement where both judge: **{agree}/{judged} = {100*agree/max(judged,1):.2f}%**.\n")
    out.append(f"False refusals (ours refused, libtpu ok): {sum(fr.values())}")
    for k, v in fr.most_common(12):
        out.append(f"- {v}: {k} (e.g. `{ex[k]}`)")
    out.append(f"\nFalse accepts (ours ok, libtpu refuses): {sum(fa.values())}")
    for k, v in fa.most_common(12):
        out.append(f"- {v}: {k} (e.g. `{ex[k]}`)")
print("\n".join(out))
