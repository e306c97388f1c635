"builtin.module"() <{sym_name = "m"}> ({
  "func.func"() <{arg_attrs = [{jax.arg = 1 : i32}], function_type = (tensor<4xf32>) -> tensor<4xf32>, no_inline, res_attrs = [{jax.result_info = "r"}], sym_name = "g", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4xf32>):
    %1 = "arith.constant"() <{value = dense<1.000000e+00> : tensor<4xf32>}> : () -> tensor<4xf32>
    %2 = "arith.addf"(%arg0, %1) <{fastmath = #arith.fastmath<fast>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %3 = "arith.cmpf"(%2, %1) <{fastmath = #arith.fastmath<none>, predicate = 4 : i64}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %4 = "arith.constant"() <{value = 3 : index}> : () -> index
    %5 = "arith.constant"() <{value = true}> : () -> i1
    %6 = "scf.if"(%5) ({
      "scf.yield"(%2) : (tensor<4xf32>) -> ()
    }, {
      "scf.yield"(%1) : (tensor<4xf32>) -> ()
    }) : (i1) -> tensor<4xf32>
    %7 = "vector.broadcast"(%4) : (index) -> vector<8xindex>
    %8 = "memref.alloca"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<8xf32>
    "func.return"(%6) : (tensor<4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "h"}> ({
    %0 = "arith.constant"() <{value = true}> : () -> i1
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
