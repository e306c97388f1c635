# Two commands for a fresh machine (see README):
#   make demo   installs what is missing, builds, and runs the main job on a bundled kernel
#   make test   installs what is missing and runs the whole test suite
.PHONY: demo test deps lint bench

deps:
	./scripts/install-deps.sh

demo: deps
	cargo build --release --quiet
	./target/release/tpu-custom-call emit mlir-fixtures/kernels/add.mlir \
	  --signature '(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>' \
	  --params mlir-fixtures/params/add_basic.json

test: deps
	cargo test --all-targets
	cargo test --doc

lint: deps
	cargo fmt --all -- --check
	cargo clippy --all-targets -- -D warnings
	RUSTDOCFLAGS=-Dwarnings cargo doc --no-deps --quiet

bench: deps
	cargo bench
