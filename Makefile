# Two commands for a fresh machine (see README):
#   make demo   installs what is missing, builds, and runs the main job on a bundled kernel
#   make test   installs what is missing and runs the whole test suite
.PHONY: demo test deps refs lint bench fuzz-smoke plugin lit perf-guard

# The reference venvs the tests compare with (real jaxlib; jax[tpu] with libtpu), in the user's cache.
REFS := $(HOME)/.cache/tpu-custom-call
export REFCHECK_VENV ?= $(REFS)/jaxref-venv
export TPU_VENV ?= $(REFS)/jaxref-tpu-venv

deps:
	./scripts/install-deps.sh

# Installs (once; later runs only check) real jax/jaxlib 0.12.0.1 and jax[tpu] + libtpu 0.0.50.1 in venvs,
# and the libtpu releases the release tests compile with (tests/integration/releases.rs: two older ones and
# the newest, ~250 MB each from PyPI, only libtpu.so kept in ~/.cache/tpu-custom-call/libtpu/<release>/).
# Also XLA's PJRT CPU plugin (the xla-cpu-pjrt 0.0.1 wheel, 63 MB; only xla_cpu_pjrt.so kept in
# ~/.cache/tpu-custom-call/xla-cpu-pjrt/0.0.1/) that runs whole programs (src/pjrt, docs/execute.md).
# Without them the tests that need them print `SKIPPED ...` and pass.
LIBTPU_TEST_RELEASES := 0.0.42.1 0.0.47.1 0.0.52
refs:
	@bash scripts/jaxref/ref/setup.sh >/dev/null || echo "refs: jaxlib venv not set up: jaxlib tests will print SKIPPED"
	@REFCHECK_TPU_VENV="$(TPU_VENV)" bash scripts/jaxref/ref/setup-tpu.sh >/dev/null || echo "refs: TPU venv not set up: libtpu tests will print SKIPPED"
	@bash scripts/libtpu/install-release.sh 0.0.50.1 $(LIBTPU_TEST_RELEASES) >/dev/null || echo "refs: libtpu releases not installed: release tests will print SKIPPED"
	@bash scripts/pjrt/install-cpu-plugin.sh >/dev/null || echo "refs: the XLA CPU PJRT plugin not installed: whole-program tests will print SKIPPED"

demo: deps
	cargo build --release --quiet
	./target/release/tpu-custom-call emit mlir-fixtures/kernels/add.mlir \
	  --signature '(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>' \
	  --params mlir-fixtures/params/add_basic.json

test: deps refs
	python3 scripts/line-count.py
	cargo test --all-targets
	cargo test --doc
	scripts/run-lit.sh
	scripts/perf-guard.sh

# The mlir-opt-22 plugin (plugin/): builds it and prints its path, for
#   mlir-opt-22 --load-dialect-plugin=PATH --load-pass-plugin=PATH ...
plugin: deps
	@scripts/build-plugin.sh

# The pass tests in lit + FileCheck (tests/lit), through mlir-opt-22 with the plugin.
lit: deps
	scripts/run-lit.sh

lint: deps
	cargo fmt --all -- --check
	cargo clippy --all-targets -- -D warnings
	RUSTDOCFLAGS=-Dwarnings cargo doc --no-deps --quiet
	cargo fmt --manifest-path plugin/Cargo.toml -- --check
	scripts/build-plugin.sh --check-only

bench: deps
	cargo bench

# The emit-speed guard: instruction counts of whole emits under callgrind against
# bench/callgrind-baseline.tsv (BLESS=1 rewrites it); run by `make test`.
perf-guard: deps
	scripts/perf-guard.sh

# Every fuzz target for FUZZ_SMOKE_SECONDS (default 45) on its committed corpus and the seeds, under
# AddressSanitizer with debug assertions; fails on any crash (see fuzz/README.md). CI runs it.
fuzz-smoke: deps
	scripts/fuzz-smoke.sh

# Reference data for the Mosaic CPU executor (issue 28): TPU-lowered modules, inputs and JAX 0.12 Pallas
# TPU interpret-mode outputs in tests/data/exec (see tests/data/exec/README.md). Needs the jaxref venv.
.PHONY: exec-refs
exec-refs: refs
	nice $(REFCHECK_VENV)/bin/python scripts/jaxref/exec/make_refs.py --out tests/data/exec

# Whole-program references (issue 48): JAX programs with 0..3 kernels and 4-device ones, lowered for TPU,
# inputs, and JAX 0.12's CPU results with every pallas_call in interpret mode (tests/data/program).
.PHONY: program-refs
program-refs: refs
	nice $(REFCHECK_VENV)/bin/python scripts/jaxref/program/make_programs.py --out tests/data/program

# The whole-program corpus (issue 48): tests/data/programs and tests/data/program-shardings
.PHONY: corpus-refs
corpus-refs: refs
	nice $(REFCHECK_VENV)/bin/python scripts/jaxref/programs/make_programs.py --out tests/data/programs --shardings-out tests/data/program-shardings
