"""Fails (naming the type) when the function FUNC of the module on stdin holds a vector type wider
than a native vector (64 bytes): what tcc-bufferize-vectors guarantees. Usage: check_native.py FUNC"""
import re
import sys

text = sys.stdin.read()
start = text.index(f"func.func @{sys.argv[1]}(")
end = text.find("\n  func.func ", start + 1)
body = text[start : end if end > 0 else len(text)]
size = {"f32": 4, "i32": 4, "f64": 8, "i64": 8, "index": 8, "bf16": 2, "f16": 2, "i16": 2, "i8": 1, "i1": 1}
bad = []
for dims, ty in re.findall(r"vector<((?:\d+x)+)(\w+)>", body):
    n = 1
    for d in dims.rstrip("x").split("x"):
        n *= int(d)
    if n * size[ty] > 64:
        bad.append(f"vector<{dims}{ty}>")
if bad:
    sys.exit(f"wider than 64 bytes in @{sys.argv[1]}: {sorted(set(bad))}")
print(f"@{sys.argv[1]}: every vector is native")
