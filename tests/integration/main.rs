//! The one integration-test binary (every test binary links all of MLIR).

mod architecture;
mod bytecode;
mod cli;
mod common;
mod config;
mod emit;
mod fuzz_regressions;
mod kernel;
mod lower;
mod pass;
mod pretty;
mod props;
mod serde;
mod target;
