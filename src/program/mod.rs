//! Running a whole lowered program: sharding of `@main`'s global arrays over
//! the program's devices.

pub mod sharding;
