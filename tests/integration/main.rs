//! The one integration-test binary (every test binary links all of MLIR).

mod cli;
mod common;
mod emit;
mod kernel;
mod pretty;
