//! The one integration-test binary (every test binary links all of MLIR).

mod common;
mod kernel;
mod serde;
