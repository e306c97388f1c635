#!/usr/bin/env python3
"""Which device counts libtpu 0.0.50.1's deviceless topologies compile for, per chip: every topology below is
made (PJRT, no TPU) by our compile worker (`tpu-custom-call __compile-worker TOPOLOGY N LIBTPU`, src/compile), and
a one-call module (the add kernel, emitted by our CLI) is compiled as N SPMD partitions on the first N devices
of the smallest topology that holds N.
Writes tests/data/compile/devices.json (one row per chip, topology and N: the topology's device count, ok, error).

Usage: devices_sweep.py [--cli target/debug/tpu-custom-call] [--libtpu PATH] [--out FILE]
"""
import argparse, json, os, struct, subprocess, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
# chip -> (accelerator type for TPU_ACCELERATOR_TYPE, topologies from small to large)
TOPOLOGIES = {
    "v4": ("v4-8", ["v4:2x2x1", "v4:2x2x2", "v4:2x2x4", "v4:2x4x4", "v4:4x4x4"]),
    "v5e": ("v5litepod-4", ["v5e:2x2", "v5e:2x4", "v5e:4x4", "v5e:4x8", "v5e:8x8", "v5e:8x16", "v5e:16x16"]),
    "v5p": ("v5p-8", ["v5p:2x2x1", "v5p:2x2x2", "v5p:2x2x4", "v5p:2x4x4", "v5p:4x4x4"]),
    "v6e": ("v6e-4", ["v6e:2x2", "v6e:2x4", "v6e:4x4", "v6e:4x8", "v6e:8x8", "v6e:8x16", "v6e:16x16"]),
    "v7x": ("tpu7x-8", ["tpu7x:2x2x1", "tpu7x:2x2x2", "tpu7x:2x2x4", "tpu7x:2x4x4", "tpu7x:4x4x4"]),
}
COUNTS = list(range(1, 17)) + [24, 32, 64, 128, 256, 512]


def module(cli, work):
    kernel = os.path.join(REPO, "mlir-fixtures/kernels/add.mlir")
    out = os.path.join(work, "add.mlir")
    t = "tensor<8x128xf32>"
    subprocess.run([cli, "emit", kernel, "--signature", f"({t}, {t}) -> {t}", "--params",
                    os.path.join(REPO, "mlir-fixtures/params/add_basic.json"), "-o", out], check=True)
    return open(out, "rb").read()


def attempt(cli, libtpu, accel, topology, n, mod):
    env = dict(os.environ, TPU_SKIP_MDS_QUERY="1", TPU_ACCELERATOR_TYPE=accel, TPU_WORKER_HOSTNAMES="localhost",
               ALLOW_MULTIPLE_LIBTPU_LOAD="1", TF_CPP_MIN_LOG_LEVEL="3")
    p = subprocess.Popen([cli, "__compile-worker", topology, str(n), libtpu], env=env, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        first = json.loads(p.stdout.readline() or b'{"fatal": "no answer"}')
        if "fatal" in first:
            return first, None
        p.stdin.write(struct.pack("<Q", len(mod)) + mod)
        p.stdin.flush()
        line = p.stdout.readline()
        return first, (json.loads(line) if line else {"error": "the worker died"})
    finally:
        p.stdin.close()
        p.wait(timeout=120)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=os.path.join(REPO, "target/debug/tpu-custom-call"))
    ap.add_argument("--libtpu", default=os.path.expanduser("~/.cache/tpu-custom-call/libtpu/0.0.50.1/libtpu.so"))
    ap.add_argument("--out", default=os.path.join(REPO, "tests/data/compile/devices.json"))
    a = ap.parse_args()
    mod = module(a.cli, tempfile.mkdtemp(prefix="devices-sweep-"))
    rows = []
    for chip, (accel, topologies) in TOPOLOGIES.items():
        sizes = []
        for topology in topologies:
            first, _ = attempt(a.cli, a.libtpu, accel, topology, 10 ** 6, mod)
            fatal = first.get("fatal", "")
            if "the topology has" in fatal:
                sizes.append((int(fatal.split("has ")[1].split()[0]), topology))
            print(chip, topology, sizes[-1][0] if "the topology has" in fatal else fatal[:150], flush=True)
        for n in COUNTS:
            # The smallest topology that holds N devices (a subset of a multi-host topology is refused:
            # "RET_CHECK failure ... device_count == target.Topology()->LogicalDeviceCount").
            fits = [(size, t) for size, t in sorted(sizes) if size >= n]
            if not fits:
                continue
            size, topology = fits[0]
            first, reply = attempt(a.cli, a.libtpu, accel, topology, n, mod)
            err = first.get("fatal") or (reply or {}).get("error")
            rows.append({"chip": chip, "topology": topology, "topology_devices": size, "devices": n,
                         "ok": err is None, "error": err and err.splitlines()[0][:300]})
            print(" ", n, topology, "ok" if err is None else err.splitlines()[0][:150], flush=True)
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump({"made_by": "scripts/libtpu/devices_sweep.py (libtpu 0.0.50.1, deviceless topologies made by "
                              "our compile worker; the add kernel compiled as N SPMD partitions on the first N "
                              "devices)", "verdicts": rows}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
