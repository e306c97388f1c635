//! The one integration-test binary (every test binary links all of MLIR).

mod architecture;
mod builders;
mod builders_all_ops;
mod bytecode;
mod cli;
mod common;
mod compile;
mod config;
mod contract;
mod contract_jax;
mod diff;
mod emit;
mod exec;
mod fuzz_regressions;
mod interop;
mod kernel;
mod libtpu_rules;
mod lower;
mod mosaic_verify;
mod pass;
mod pretty;
mod props;
mod serde;
mod suite;
mod target;
mod vmem_scratch;
