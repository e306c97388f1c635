// A module with nothing in it is valid MLIR but not a kernel.
module {}
