//! The one integration-test binary (every test binary links all of MLIR).

mod bytecode;
mod cli;
mod common;
mod config;
mod emit;
mod fuzz_regressions;
mod kernel;
mod lower;
mod mosaic_verify;
mod pass;
mod pretty;
mod props;
mod serde;
mod target;
