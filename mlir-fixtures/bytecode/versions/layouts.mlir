// A Mosaic-like kernel with non-identity memref layouts and newer float types, written by jaxlib at
// every bytecode version (scripts/jaxref/write_bytecode.py versions). Generic form.
module @layouts attributes {stable_mosaic.version = 15 : i64} {
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>, memref<4x4xf32, strided<[4, 1], offset: 2>>, memref<8x128xbf16, affine_map<(d0, d1) -> (d1, d0)>>, memref<16x128xf8E4M3FN, #tpu.memory_space<vmem>>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: memref<4x4xf32, strided<[4, 1], offset: 2>>, %arg2: memref<8x128xbf16, affine_map<(d0, d1) -> (d1, d0)>>, %arg3: memref<16x128xf8E4M3FN, #tpu.memory_space<vmem>>):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "vector.load"(%arg0, %0, %0) : (memref<8x128xf32, #tpu.memory_space<vmem>>, index, index) -> vector<8x128xf32>
    "vector.store"(%1, %arg0, %0, %0) : (vector<8x128xf32>, memref<8x128xf32, #tpu.memory_space<vmem>>, index, index) -> ()
    "foo.op"() {map = affine_map<(d0, d1)[s0] -> (d0 * 128 + d1 - s0, d1 mod 8, (d0 + 1) ceildiv 2, d1 floordiv -4)>, set = affine_set<(d0) : (d0 - 1 >= 0)>} : () -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}
