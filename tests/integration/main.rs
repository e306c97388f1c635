//! The one integration-test binary (every test binary links all of MLIR).

mod bytecode;
mod common;
mod kernel;
