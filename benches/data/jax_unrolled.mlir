module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x128xf32>, %arg1: tensor<128x128xf32>) -> (tensor<8x128xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %2 = stablehlo.add %0, %1 : tensor<8x128xf32>
    %3 = call @relu(%2) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %7 = stablehlo.subtract %3, %6 : tensor<8x128xf32>
    %8 = stablehlo.multiply %7, %7 : tensor<8x128xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%8 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_2 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<8x1xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %14 = stablehlo.add %12, %13 : tensor<8x1xf32>
    %15 = stablehlo.rsqrt %14 : tensor<8x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %17 = stablehlo.multiply %7, %16 : tensor<8x128xf32>
    %18 = stablehlo.slice %17 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %19 = stablehlo.slice %17 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %20 = stablehlo.concatenate %18, %19, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %21 = stablehlo.convert %20 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %22 = stablehlo.convert %21 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %23 = stablehlo.dot_general %22, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_4 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %25 = stablehlo.add %23, %24 : tensor<8x128xf32>
    %26 = stablehlo.tanh %25 : tensor<8x128xf32>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %27 = stablehlo.reduce(%26 init: %cst_5) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %30 = stablehlo.subtract %26, %29 : tensor<8x128xf32>
    %31 = stablehlo.multiply %30, %30 : tensor<8x128xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %32 = stablehlo.reduce(%31 init: %cst_6) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_7 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %35 = stablehlo.divide %33, %34 : tensor<8x1xf32>
    %cst_8 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %37 = stablehlo.add %35, %36 : tensor<8x1xf32>
    %38 = stablehlo.rsqrt %37 : tensor<8x1xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %40 = stablehlo.multiply %30, %39 : tensor<8x128xf32>
    %41 = stablehlo.slice %40 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %42 = stablehlo.slice %40 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %43 = stablehlo.concatenate %41, %42, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %44 = stablehlo.convert %43 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %45 = stablehlo.convert %44 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %46 = stablehlo.dot_general %45, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %48 = stablehlo.add %46, %47 : tensor<8x128xf32>
    %49 = call @relu(%48) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_10 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %50 = stablehlo.reduce(%49 init: %cst_10) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %53 = stablehlo.subtract %49, %52 : tensor<8x128xf32>
    %54 = stablehlo.multiply %53, %53 : tensor<8x128xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %55 = stablehlo.reduce(%54 init: %cst_11) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %56 = stablehlo.broadcast_in_dim %55, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_12 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %58 = stablehlo.divide %56, %57 : tensor<8x1xf32>
    %cst_13 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %60 = stablehlo.add %58, %59 : tensor<8x1xf32>
    %61 = stablehlo.rsqrt %60 : tensor<8x1xf32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %63 = stablehlo.multiply %53, %62 : tensor<8x128xf32>
    %64 = stablehlo.slice %63 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %65 = stablehlo.slice %63 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %66 = stablehlo.concatenate %64, %65, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %67 = stablehlo.convert %66 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %68 = stablehlo.convert %67 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %69 = stablehlo.dot_general %68, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_14 = stablehlo.constant dense<1.500000e+00> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %71 = stablehlo.add %69, %70 : tensor<8x128xf32>
    %72 = stablehlo.tanh %71 : tensor<8x128xf32>
    %cst_15 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %73 = stablehlo.reduce(%72 init: %cst_15) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %74 = stablehlo.broadcast_in_dim %73, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %75 = stablehlo.broadcast_in_dim %74, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %76 = stablehlo.subtract %72, %75 : tensor<8x128xf32>
    %77 = stablehlo.multiply %76, %76 : tensor<8x128xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %78 = stablehlo.reduce(%77 init: %cst_16) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %79 = stablehlo.broadcast_in_dim %78, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_17 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %80 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %81 = stablehlo.divide %79, %80 : tensor<8x1xf32>
    %cst_18 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %83 = stablehlo.add %81, %82 : tensor<8x1xf32>
    %84 = stablehlo.rsqrt %83 : tensor<8x1xf32>
    %85 = stablehlo.broadcast_in_dim %84, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %86 = stablehlo.multiply %76, %85 : tensor<8x128xf32>
    %87 = stablehlo.slice %86 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %88 = stablehlo.slice %86 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %89 = stablehlo.concatenate %87, %88, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %90 = stablehlo.convert %89 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %91 = stablehlo.convert %90 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %92 = stablehlo.dot_general %91, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_19 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %94 = stablehlo.add %92, %93 : tensor<8x128xf32>
    %95 = call @relu(%94) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_20 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %96 = stablehlo.reduce(%95 init: %cst_20) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %97 = stablehlo.broadcast_in_dim %96, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %98 = stablehlo.broadcast_in_dim %97, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %99 = stablehlo.subtract %95, %98 : tensor<8x128xf32>
    %100 = stablehlo.multiply %99, %99 : tensor<8x128xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %101 = stablehlo.reduce(%100 init: %cst_21) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %102 = stablehlo.broadcast_in_dim %101, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_22 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %103 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %104 = stablehlo.divide %102, %103 : tensor<8x1xf32>
    %cst_23 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %105 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %106 = stablehlo.add %104, %105 : tensor<8x1xf32>
    %107 = stablehlo.rsqrt %106 : tensor<8x1xf32>
    %108 = stablehlo.broadcast_in_dim %107, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %109 = stablehlo.multiply %99, %108 : tensor<8x128xf32>
    %110 = stablehlo.slice %109 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %111 = stablehlo.slice %109 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %112 = stablehlo.concatenate %110, %111, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %113 = stablehlo.convert %112 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %114 = stablehlo.convert %113 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %115 = stablehlo.dot_general %114, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_24 = stablehlo.constant dense<2.500000e+00> : tensor<f32>
    %116 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %117 = stablehlo.add %115, %116 : tensor<8x128xf32>
    %118 = stablehlo.tanh %117 : tensor<8x128xf32>
    %cst_25 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %119 = stablehlo.reduce(%118 init: %cst_25) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %120 = stablehlo.broadcast_in_dim %119, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %121 = stablehlo.broadcast_in_dim %120, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %122 = stablehlo.subtract %118, %121 : tensor<8x128xf32>
    %123 = stablehlo.multiply %122, %122 : tensor<8x128xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %124 = stablehlo.reduce(%123 init: %cst_26) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %125 = stablehlo.broadcast_in_dim %124, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_27 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %126 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %127 = stablehlo.divide %125, %126 : tensor<8x1xf32>
    %cst_28 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %128 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %129 = stablehlo.add %127, %128 : tensor<8x1xf32>
    %130 = stablehlo.rsqrt %129 : tensor<8x1xf32>
    %131 = stablehlo.broadcast_in_dim %130, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %132 = stablehlo.multiply %122, %131 : tensor<8x128xf32>
    %133 = stablehlo.slice %132 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %134 = stablehlo.slice %132 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %135 = stablehlo.concatenate %133, %134, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %136 = stablehlo.convert %135 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %137 = stablehlo.convert %136 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %138 = stablehlo.dot_general %137, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_29 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %139 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %140 = stablehlo.add %138, %139 : tensor<8x128xf32>
    %141 = call @relu(%140) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_30 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %142 = stablehlo.reduce(%141 init: %cst_30) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %143 = stablehlo.broadcast_in_dim %142, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %144 = stablehlo.broadcast_in_dim %143, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %145 = stablehlo.subtract %141, %144 : tensor<8x128xf32>
    %146 = stablehlo.multiply %145, %145 : tensor<8x128xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %147 = stablehlo.reduce(%146 init: %cst_31) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %148 = stablehlo.broadcast_in_dim %147, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_32 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %149 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %150 = stablehlo.divide %148, %149 : tensor<8x1xf32>
    %cst_33 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %151 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %152 = stablehlo.add %150, %151 : tensor<8x1xf32>
    %153 = stablehlo.rsqrt %152 : tensor<8x1xf32>
    %154 = stablehlo.broadcast_in_dim %153, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %155 = stablehlo.multiply %145, %154 : tensor<8x128xf32>
    %156 = stablehlo.slice %155 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %157 = stablehlo.slice %155 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %158 = stablehlo.concatenate %156, %157, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %159 = stablehlo.convert %158 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %160 = stablehlo.convert %159 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %161 = stablehlo.dot_general %160, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %162 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %163 = stablehlo.add %161, %162 : tensor<8x128xf32>
    %164 = stablehlo.tanh %163 : tensor<8x128xf32>
    %cst_35 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %165 = stablehlo.reduce(%164 init: %cst_35) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %166 = stablehlo.broadcast_in_dim %165, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %167 = stablehlo.broadcast_in_dim %166, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %168 = stablehlo.subtract %164, %167 : tensor<8x128xf32>
    %169 = stablehlo.multiply %168, %168 : tensor<8x128xf32>
    %cst_36 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %170 = stablehlo.reduce(%169 init: %cst_36) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %171 = stablehlo.broadcast_in_dim %170, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_37 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %172 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %173 = stablehlo.divide %171, %172 : tensor<8x1xf32>
    %cst_38 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %174 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %175 = stablehlo.add %173, %174 : tensor<8x1xf32>
    %176 = stablehlo.rsqrt %175 : tensor<8x1xf32>
    %177 = stablehlo.broadcast_in_dim %176, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %178 = stablehlo.multiply %168, %177 : tensor<8x128xf32>
    %179 = stablehlo.slice %178 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %180 = stablehlo.slice %178 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %181 = stablehlo.concatenate %179, %180, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %182 = stablehlo.convert %181 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %183 = stablehlo.convert %182 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %184 = stablehlo.dot_general %183, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_39 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %185 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %186 = stablehlo.add %184, %185 : tensor<8x128xf32>
    %187 = call @relu(%186) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_40 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %188 = stablehlo.reduce(%187 init: %cst_40) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %189 = stablehlo.broadcast_in_dim %188, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %190 = stablehlo.broadcast_in_dim %189, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %191 = stablehlo.subtract %187, %190 : tensor<8x128xf32>
    %192 = stablehlo.multiply %191, %191 : tensor<8x128xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %193 = stablehlo.reduce(%192 init: %cst_41) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %194 = stablehlo.broadcast_in_dim %193, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_42 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %195 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %196 = stablehlo.divide %194, %195 : tensor<8x1xf32>
    %cst_43 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %197 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %198 = stablehlo.add %196, %197 : tensor<8x1xf32>
    %199 = stablehlo.rsqrt %198 : tensor<8x1xf32>
    %200 = stablehlo.broadcast_in_dim %199, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %201 = stablehlo.multiply %191, %200 : tensor<8x128xf32>
    %202 = stablehlo.slice %201 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %203 = stablehlo.slice %201 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %204 = stablehlo.concatenate %202, %203, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %205 = stablehlo.convert %204 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %206 = stablehlo.convert %205 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %207 = stablehlo.dot_general %206, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_44 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %208 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %209 = stablehlo.add %207, %208 : tensor<8x128xf32>
    %210 = stablehlo.tanh %209 : tensor<8x128xf32>
    %cst_45 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %211 = stablehlo.reduce(%210 init: %cst_45) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %212 = stablehlo.broadcast_in_dim %211, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %213 = stablehlo.broadcast_in_dim %212, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %214 = stablehlo.subtract %210, %213 : tensor<8x128xf32>
    %215 = stablehlo.multiply %214, %214 : tensor<8x128xf32>
    %cst_46 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %216 = stablehlo.reduce(%215 init: %cst_46) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %217 = stablehlo.broadcast_in_dim %216, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_47 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %218 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %219 = stablehlo.divide %217, %218 : tensor<8x1xf32>
    %cst_48 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %220 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %221 = stablehlo.add %219, %220 : tensor<8x1xf32>
    %222 = stablehlo.rsqrt %221 : tensor<8x1xf32>
    %223 = stablehlo.broadcast_in_dim %222, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %224 = stablehlo.multiply %214, %223 : tensor<8x128xf32>
    %225 = stablehlo.slice %224 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %226 = stablehlo.slice %224 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %227 = stablehlo.concatenate %225, %226, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %228 = stablehlo.convert %227 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %229 = stablehlo.convert %228 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %230 = stablehlo.dot_general %229, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_49 = stablehlo.constant dense<1.500000e+00> : tensor<f32>
    %231 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %232 = stablehlo.add %230, %231 : tensor<8x128xf32>
    %233 = call @relu(%232) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_50 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %234 = stablehlo.reduce(%233 init: %cst_50) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %235 = stablehlo.broadcast_in_dim %234, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %236 = stablehlo.broadcast_in_dim %235, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %237 = stablehlo.subtract %233, %236 : tensor<8x128xf32>
    %238 = stablehlo.multiply %237, %237 : tensor<8x128xf32>
    %cst_51 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %239 = stablehlo.reduce(%238 init: %cst_51) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %240 = stablehlo.broadcast_in_dim %239, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_52 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %241 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %242 = stablehlo.divide %240, %241 : tensor<8x1xf32>
    %cst_53 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %243 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %244 = stablehlo.add %242, %243 : tensor<8x1xf32>
    %245 = stablehlo.rsqrt %244 : tensor<8x1xf32>
    %246 = stablehlo.broadcast_in_dim %245, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %247 = stablehlo.multiply %237, %246 : tensor<8x128xf32>
    %248 = stablehlo.slice %247 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %249 = stablehlo.slice %247 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %250 = stablehlo.concatenate %248, %249, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %251 = stablehlo.convert %250 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %252 = stablehlo.convert %251 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %253 = stablehlo.dot_general %252, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_54 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %254 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %255 = stablehlo.add %253, %254 : tensor<8x128xf32>
    %256 = stablehlo.tanh %255 : tensor<8x128xf32>
    %cst_55 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %257 = stablehlo.reduce(%256 init: %cst_55) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %258 = stablehlo.broadcast_in_dim %257, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %259 = stablehlo.broadcast_in_dim %258, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %260 = stablehlo.subtract %256, %259 : tensor<8x128xf32>
    %261 = stablehlo.multiply %260, %260 : tensor<8x128xf32>
    %cst_56 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %262 = stablehlo.reduce(%261 init: %cst_56) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %263 = stablehlo.broadcast_in_dim %262, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_57 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %264 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %265 = stablehlo.divide %263, %264 : tensor<8x1xf32>
    %cst_58 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %266 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %267 = stablehlo.add %265, %266 : tensor<8x1xf32>
    %268 = stablehlo.rsqrt %267 : tensor<8x1xf32>
    %269 = stablehlo.broadcast_in_dim %268, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %270 = stablehlo.multiply %260, %269 : tensor<8x128xf32>
    %271 = stablehlo.slice %270 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %272 = stablehlo.slice %270 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %273 = stablehlo.concatenate %271, %272, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %274 = stablehlo.convert %273 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %275 = stablehlo.convert %274 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %276 = stablehlo.dot_general %275, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_59 = stablehlo.constant dense<2.500000e+00> : tensor<f32>
    %277 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %278 = stablehlo.add %276, %277 : tensor<8x128xf32>
    %279 = call @relu(%278) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_60 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %280 = stablehlo.reduce(%279 init: %cst_60) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %281 = stablehlo.broadcast_in_dim %280, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %282 = stablehlo.broadcast_in_dim %281, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %283 = stablehlo.subtract %279, %282 : tensor<8x128xf32>
    %284 = stablehlo.multiply %283, %283 : tensor<8x128xf32>
    %cst_61 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %285 = stablehlo.reduce(%284 init: %cst_61) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %286 = stablehlo.broadcast_in_dim %285, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_62 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %287 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %288 = stablehlo.divide %286, %287 : tensor<8x1xf32>
    %cst_63 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %289 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %290 = stablehlo.add %288, %289 : tensor<8x1xf32>
    %291 = stablehlo.rsqrt %290 : tensor<8x1xf32>
    %292 = stablehlo.broadcast_in_dim %291, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %293 = stablehlo.multiply %283, %292 : tensor<8x128xf32>
    %294 = stablehlo.slice %293 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %295 = stablehlo.slice %293 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %296 = stablehlo.concatenate %294, %295, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %297 = stablehlo.convert %296 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %298 = stablehlo.convert %297 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %299 = stablehlo.dot_general %298, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_64 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %300 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %301 = stablehlo.add %299, %300 : tensor<8x128xf32>
    %302 = stablehlo.tanh %301 : tensor<8x128xf32>
    %cst_65 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %303 = stablehlo.reduce(%302 init: %cst_65) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %304 = stablehlo.broadcast_in_dim %303, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %305 = stablehlo.broadcast_in_dim %304, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %306 = stablehlo.subtract %302, %305 : tensor<8x128xf32>
    %307 = stablehlo.multiply %306, %306 : tensor<8x128xf32>
    %cst_66 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %308 = stablehlo.reduce(%307 init: %cst_66) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %309 = stablehlo.broadcast_in_dim %308, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_67 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %310 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %311 = stablehlo.divide %309, %310 : tensor<8x1xf32>
    %cst_68 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %312 = stablehlo.broadcast_in_dim %cst_68, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %313 = stablehlo.add %311, %312 : tensor<8x1xf32>
    %314 = stablehlo.rsqrt %313 : tensor<8x1xf32>
    %315 = stablehlo.broadcast_in_dim %314, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %316 = stablehlo.multiply %306, %315 : tensor<8x128xf32>
    %317 = stablehlo.slice %316 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %318 = stablehlo.slice %316 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %319 = stablehlo.concatenate %317, %318, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %320 = stablehlo.convert %319 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %321 = stablehlo.convert %320 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %322 = stablehlo.dot_general %321, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_69 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %323 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %324 = stablehlo.add %322, %323 : tensor<8x128xf32>
    %325 = call @relu(%324) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_70 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %326 = stablehlo.reduce(%325 init: %cst_70) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %327 = stablehlo.broadcast_in_dim %326, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %328 = stablehlo.broadcast_in_dim %327, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %329 = stablehlo.subtract %325, %328 : tensor<8x128xf32>
    %330 = stablehlo.multiply %329, %329 : tensor<8x128xf32>
    %cst_71 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %331 = stablehlo.reduce(%330 init: %cst_71) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %332 = stablehlo.broadcast_in_dim %331, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_72 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %333 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %334 = stablehlo.divide %332, %333 : tensor<8x1xf32>
    %cst_73 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %335 = stablehlo.broadcast_in_dim %cst_73, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %336 = stablehlo.add %334, %335 : tensor<8x1xf32>
    %337 = stablehlo.rsqrt %336 : tensor<8x1xf32>
    %338 = stablehlo.broadcast_in_dim %337, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %339 = stablehlo.multiply %329, %338 : tensor<8x128xf32>
    %340 = stablehlo.slice %339 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %341 = stablehlo.slice %339 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %342 = stablehlo.concatenate %340, %341, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %343 = stablehlo.convert %342 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %344 = stablehlo.convert %343 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %345 = stablehlo.dot_general %344, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_74 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %346 = stablehlo.broadcast_in_dim %cst_74, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %347 = stablehlo.add %345, %346 : tensor<8x128xf32>
    %348 = stablehlo.tanh %347 : tensor<8x128xf32>
    %cst_75 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %349 = stablehlo.reduce(%348 init: %cst_75) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %350 = stablehlo.broadcast_in_dim %349, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %351 = stablehlo.broadcast_in_dim %350, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %352 = stablehlo.subtract %348, %351 : tensor<8x128xf32>
    %353 = stablehlo.multiply %352, %352 : tensor<8x128xf32>
    %cst_76 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %354 = stablehlo.reduce(%353 init: %cst_76) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %355 = stablehlo.broadcast_in_dim %354, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_77 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %356 = stablehlo.broadcast_in_dim %cst_77, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %357 = stablehlo.divide %355, %356 : tensor<8x1xf32>
    %cst_78 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %358 = stablehlo.broadcast_in_dim %cst_78, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %359 = stablehlo.add %357, %358 : tensor<8x1xf32>
    %360 = stablehlo.rsqrt %359 : tensor<8x1xf32>
    %361 = stablehlo.broadcast_in_dim %360, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %362 = stablehlo.multiply %352, %361 : tensor<8x128xf32>
    %363 = stablehlo.slice %362 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %364 = stablehlo.slice %362 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %365 = stablehlo.concatenate %363, %364, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %366 = stablehlo.convert %365 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %367 = stablehlo.convert %366 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %368 = stablehlo.dot_general %367, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_79 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %369 = stablehlo.broadcast_in_dim %cst_79, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %370 = stablehlo.add %368, %369 : tensor<8x128xf32>
    %371 = call @relu(%370) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_80 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %372 = stablehlo.reduce(%371 init: %cst_80) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %373 = stablehlo.broadcast_in_dim %372, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %374 = stablehlo.broadcast_in_dim %373, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %375 = stablehlo.subtract %371, %374 : tensor<8x128xf32>
    %376 = stablehlo.multiply %375, %375 : tensor<8x128xf32>
    %cst_81 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %377 = stablehlo.reduce(%376 init: %cst_81) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %378 = stablehlo.broadcast_in_dim %377, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_82 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %379 = stablehlo.broadcast_in_dim %cst_82, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %380 = stablehlo.divide %378, %379 : tensor<8x1xf32>
    %cst_83 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %381 = stablehlo.broadcast_in_dim %cst_83, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %382 = stablehlo.add %380, %381 : tensor<8x1xf32>
    %383 = stablehlo.rsqrt %382 : tensor<8x1xf32>
    %384 = stablehlo.broadcast_in_dim %383, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %385 = stablehlo.multiply %375, %384 : tensor<8x128xf32>
    %386 = stablehlo.slice %385 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %387 = stablehlo.slice %385 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %388 = stablehlo.concatenate %386, %387, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %389 = stablehlo.convert %388 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %390 = stablehlo.convert %389 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %391 = stablehlo.dot_general %390, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_84 = stablehlo.constant dense<1.500000e+00> : tensor<f32>
    %392 = stablehlo.broadcast_in_dim %cst_84, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %393 = stablehlo.add %391, %392 : tensor<8x128xf32>
    %394 = stablehlo.tanh %393 : tensor<8x128xf32>
    %cst_85 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %395 = stablehlo.reduce(%394 init: %cst_85) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %396 = stablehlo.broadcast_in_dim %395, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %397 = stablehlo.broadcast_in_dim %396, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %398 = stablehlo.subtract %394, %397 : tensor<8x128xf32>
    %399 = stablehlo.multiply %398, %398 : tensor<8x128xf32>
    %cst_86 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %400 = stablehlo.reduce(%399 init: %cst_86) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %401 = stablehlo.broadcast_in_dim %400, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_87 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %402 = stablehlo.broadcast_in_dim %cst_87, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %403 = stablehlo.divide %401, %402 : tensor<8x1xf32>
    %cst_88 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %404 = stablehlo.broadcast_in_dim %cst_88, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %405 = stablehlo.add %403, %404 : tensor<8x1xf32>
    %406 = stablehlo.rsqrt %405 : tensor<8x1xf32>
    %407 = stablehlo.broadcast_in_dim %406, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %408 = stablehlo.multiply %398, %407 : tensor<8x128xf32>
    %409 = stablehlo.slice %408 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %410 = stablehlo.slice %408 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %411 = stablehlo.concatenate %409, %410, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %412 = stablehlo.convert %411 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %413 = stablehlo.convert %412 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %414 = stablehlo.dot_general %413, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_89 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %415 = stablehlo.broadcast_in_dim %cst_89, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %416 = stablehlo.add %414, %415 : tensor<8x128xf32>
    %417 = call @relu(%416) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_90 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %418 = stablehlo.reduce(%417 init: %cst_90) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %419 = stablehlo.broadcast_in_dim %418, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %420 = stablehlo.broadcast_in_dim %419, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %421 = stablehlo.subtract %417, %420 : tensor<8x128xf32>
    %422 = stablehlo.multiply %421, %421 : tensor<8x128xf32>
    %cst_91 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %423 = stablehlo.reduce(%422 init: %cst_91) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %424 = stablehlo.broadcast_in_dim %423, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_92 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %425 = stablehlo.broadcast_in_dim %cst_92, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %426 = stablehlo.divide %424, %425 : tensor<8x1xf32>
    %cst_93 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %427 = stablehlo.broadcast_in_dim %cst_93, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %428 = stablehlo.add %426, %427 : tensor<8x1xf32>
    %429 = stablehlo.rsqrt %428 : tensor<8x1xf32>
    %430 = stablehlo.broadcast_in_dim %429, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %431 = stablehlo.multiply %421, %430 : tensor<8x128xf32>
    %432 = stablehlo.slice %431 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %433 = stablehlo.slice %431 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %434 = stablehlo.concatenate %432, %433, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %435 = stablehlo.convert %434 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %436 = stablehlo.convert %435 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %437 = stablehlo.dot_general %436, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_94 = stablehlo.constant dense<2.500000e+00> : tensor<f32>
    %438 = stablehlo.broadcast_in_dim %cst_94, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %439 = stablehlo.add %437, %438 : tensor<8x128xf32>
    %440 = stablehlo.tanh %439 : tensor<8x128xf32>
    %cst_95 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %441 = stablehlo.reduce(%440 init: %cst_95) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %442 = stablehlo.broadcast_in_dim %441, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %443 = stablehlo.broadcast_in_dim %442, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %444 = stablehlo.subtract %440, %443 : tensor<8x128xf32>
    %445 = stablehlo.multiply %444, %444 : tensor<8x128xf32>
    %cst_96 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %446 = stablehlo.reduce(%445 init: %cst_96) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %447 = stablehlo.broadcast_in_dim %446, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_97 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %448 = stablehlo.broadcast_in_dim %cst_97, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %449 = stablehlo.divide %447, %448 : tensor<8x1xf32>
    %cst_98 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %450 = stablehlo.broadcast_in_dim %cst_98, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %451 = stablehlo.add %449, %450 : tensor<8x1xf32>
    %452 = stablehlo.rsqrt %451 : tensor<8x1xf32>
    %453 = stablehlo.broadcast_in_dim %452, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %454 = stablehlo.multiply %444, %453 : tensor<8x128xf32>
    %455 = stablehlo.slice %454 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %456 = stablehlo.slice %454 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %457 = stablehlo.concatenate %455, %456, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %458 = stablehlo.convert %457 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %459 = stablehlo.convert %458 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %460 = stablehlo.dot_general %459, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_99 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %461 = stablehlo.broadcast_in_dim %cst_99, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %462 = stablehlo.add %460, %461 : tensor<8x128xf32>
    %463 = call @relu(%462) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_100 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %464 = stablehlo.reduce(%463 init: %cst_100) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %465 = stablehlo.broadcast_in_dim %464, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %466 = stablehlo.broadcast_in_dim %465, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %467 = stablehlo.subtract %463, %466 : tensor<8x128xf32>
    %468 = stablehlo.multiply %467, %467 : tensor<8x128xf32>
    %cst_101 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %469 = stablehlo.reduce(%468 init: %cst_101) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %470 = stablehlo.broadcast_in_dim %469, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_102 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %471 = stablehlo.broadcast_in_dim %cst_102, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %472 = stablehlo.divide %470, %471 : tensor<8x1xf32>
    %cst_103 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %473 = stablehlo.broadcast_in_dim %cst_103, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %474 = stablehlo.add %472, %473 : tensor<8x1xf32>
    %475 = stablehlo.rsqrt %474 : tensor<8x1xf32>
    %476 = stablehlo.broadcast_in_dim %475, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %477 = stablehlo.multiply %467, %476 : tensor<8x128xf32>
    %478 = stablehlo.slice %477 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %479 = stablehlo.slice %477 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %480 = stablehlo.concatenate %478, %479, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %481 = stablehlo.convert %480 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %482 = stablehlo.convert %481 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %483 = stablehlo.dot_general %482, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_104 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %484 = stablehlo.broadcast_in_dim %cst_104, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %485 = stablehlo.add %483, %484 : tensor<8x128xf32>
    %486 = stablehlo.tanh %485 : tensor<8x128xf32>
    %cst_105 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %487 = stablehlo.reduce(%486 init: %cst_105) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %488 = stablehlo.broadcast_in_dim %487, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %489 = stablehlo.broadcast_in_dim %488, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %490 = stablehlo.subtract %486, %489 : tensor<8x128xf32>
    %491 = stablehlo.multiply %490, %490 : tensor<8x128xf32>
    %cst_106 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %492 = stablehlo.reduce(%491 init: %cst_106) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %493 = stablehlo.broadcast_in_dim %492, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_107 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %494 = stablehlo.broadcast_in_dim %cst_107, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %495 = stablehlo.divide %493, %494 : tensor<8x1xf32>
    %cst_108 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %496 = stablehlo.broadcast_in_dim %cst_108, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %497 = stablehlo.add %495, %496 : tensor<8x1xf32>
    %498 = stablehlo.rsqrt %497 : tensor<8x1xf32>
    %499 = stablehlo.broadcast_in_dim %498, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %500 = stablehlo.multiply %490, %499 : tensor<8x128xf32>
    %501 = stablehlo.slice %500 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %502 = stablehlo.slice %500 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %503 = stablehlo.concatenate %501, %502, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %504 = stablehlo.convert %503 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %505 = stablehlo.convert %504 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %506 = stablehlo.dot_general %505, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_109 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %507 = stablehlo.broadcast_in_dim %cst_109, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %508 = stablehlo.add %506, %507 : tensor<8x128xf32>
    %509 = call @relu(%508) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_110 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %510 = stablehlo.reduce(%509 init: %cst_110) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %511 = stablehlo.broadcast_in_dim %510, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %512 = stablehlo.broadcast_in_dim %511, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %513 = stablehlo.subtract %509, %512 : tensor<8x128xf32>
    %514 = stablehlo.multiply %513, %513 : tensor<8x128xf32>
    %cst_111 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %515 = stablehlo.reduce(%514 init: %cst_111) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %516 = stablehlo.broadcast_in_dim %515, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_112 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %517 = stablehlo.broadcast_in_dim %cst_112, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %518 = stablehlo.divide %516, %517 : tensor<8x1xf32>
    %cst_113 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %519 = stablehlo.broadcast_in_dim %cst_113, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %520 = stablehlo.add %518, %519 : tensor<8x1xf32>
    %521 = stablehlo.rsqrt %520 : tensor<8x1xf32>
    %522 = stablehlo.broadcast_in_dim %521, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %523 = stablehlo.multiply %513, %522 : tensor<8x128xf32>
    %524 = stablehlo.slice %523 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %525 = stablehlo.slice %523 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %526 = stablehlo.concatenate %524, %525, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %527 = stablehlo.convert %526 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %528 = stablehlo.convert %527 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %529 = stablehlo.dot_general %528, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_114 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %530 = stablehlo.broadcast_in_dim %cst_114, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %531 = stablehlo.add %529, %530 : tensor<8x128xf32>
    %532 = stablehlo.tanh %531 : tensor<8x128xf32>
    %cst_115 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %533 = stablehlo.reduce(%532 init: %cst_115) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %534 = stablehlo.broadcast_in_dim %533, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %535 = stablehlo.broadcast_in_dim %534, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %536 = stablehlo.subtract %532, %535 : tensor<8x128xf32>
    %537 = stablehlo.multiply %536, %536 : tensor<8x128xf32>
    %cst_116 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %538 = stablehlo.reduce(%537 init: %cst_116) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %539 = stablehlo.broadcast_in_dim %538, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_117 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %540 = stablehlo.broadcast_in_dim %cst_117, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %541 = stablehlo.divide %539, %540 : tensor<8x1xf32>
    %cst_118 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %542 = stablehlo.broadcast_in_dim %cst_118, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %543 = stablehlo.add %541, %542 : tensor<8x1xf32>
    %544 = stablehlo.rsqrt %543 : tensor<8x1xf32>
    %545 = stablehlo.broadcast_in_dim %544, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %546 = stablehlo.multiply %536, %545 : tensor<8x128xf32>
    %547 = stablehlo.slice %546 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %548 = stablehlo.slice %546 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %549 = stablehlo.concatenate %547, %548, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %550 = stablehlo.convert %549 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %551 = stablehlo.convert %550 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %552 = stablehlo.dot_general %551, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_119 = stablehlo.constant dense<1.500000e+00> : tensor<f32>
    %553 = stablehlo.broadcast_in_dim %cst_119, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %554 = stablehlo.add %552, %553 : tensor<8x128xf32>
    %555 = call @relu(%554) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_120 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %556 = stablehlo.reduce(%555 init: %cst_120) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %557 = stablehlo.broadcast_in_dim %556, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %558 = stablehlo.broadcast_in_dim %557, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %559 = stablehlo.subtract %555, %558 : tensor<8x128xf32>
    %560 = stablehlo.multiply %559, %559 : tensor<8x128xf32>
    %cst_121 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %561 = stablehlo.reduce(%560 init: %cst_121) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %562 = stablehlo.broadcast_in_dim %561, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_122 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %563 = stablehlo.broadcast_in_dim %cst_122, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %564 = stablehlo.divide %562, %563 : tensor<8x1xf32>
    %cst_123 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %565 = stablehlo.broadcast_in_dim %cst_123, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %566 = stablehlo.add %564, %565 : tensor<8x1xf32>
    %567 = stablehlo.rsqrt %566 : tensor<8x1xf32>
    %568 = stablehlo.broadcast_in_dim %567, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %569 = stablehlo.multiply %559, %568 : tensor<8x128xf32>
    %570 = stablehlo.slice %569 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %571 = stablehlo.slice %569 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %572 = stablehlo.concatenate %570, %571, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %573 = stablehlo.convert %572 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %574 = stablehlo.convert %573 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %575 = stablehlo.dot_general %574, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_124 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %576 = stablehlo.broadcast_in_dim %cst_124, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %577 = stablehlo.add %575, %576 : tensor<8x128xf32>
    %578 = stablehlo.tanh %577 : tensor<8x128xf32>
    %cst_125 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %579 = stablehlo.reduce(%578 init: %cst_125) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %580 = stablehlo.broadcast_in_dim %579, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %581 = stablehlo.broadcast_in_dim %580, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %582 = stablehlo.subtract %578, %581 : tensor<8x128xf32>
    %583 = stablehlo.multiply %582, %582 : tensor<8x128xf32>
    %cst_126 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %584 = stablehlo.reduce(%583 init: %cst_126) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %585 = stablehlo.broadcast_in_dim %584, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_127 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %586 = stablehlo.broadcast_in_dim %cst_127, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %587 = stablehlo.divide %585, %586 : tensor<8x1xf32>
    %cst_128 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %588 = stablehlo.broadcast_in_dim %cst_128, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %589 = stablehlo.add %587, %588 : tensor<8x1xf32>
    %590 = stablehlo.rsqrt %589 : tensor<8x1xf32>
    %591 = stablehlo.broadcast_in_dim %590, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %592 = stablehlo.multiply %582, %591 : tensor<8x128xf32>
    %593 = stablehlo.slice %592 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %594 = stablehlo.slice %592 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %595 = stablehlo.concatenate %593, %594, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %596 = stablehlo.convert %595 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %597 = stablehlo.convert %596 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %598 = stablehlo.dot_general %597, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_129 = stablehlo.constant dense<2.500000e+00> : tensor<f32>
    %599 = stablehlo.broadcast_in_dim %cst_129, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %600 = stablehlo.add %598, %599 : tensor<8x128xf32>
    %601 = call @relu(%600) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_130 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %602 = stablehlo.reduce(%601 init: %cst_130) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %603 = stablehlo.broadcast_in_dim %602, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %604 = stablehlo.broadcast_in_dim %603, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %605 = stablehlo.subtract %601, %604 : tensor<8x128xf32>
    %606 = stablehlo.multiply %605, %605 : tensor<8x128xf32>
    %cst_131 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %607 = stablehlo.reduce(%606 init: %cst_131) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %608 = stablehlo.broadcast_in_dim %607, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_132 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %609 = stablehlo.broadcast_in_dim %cst_132, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %610 = stablehlo.divide %608, %609 : tensor<8x1xf32>
    %cst_133 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %611 = stablehlo.broadcast_in_dim %cst_133, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %612 = stablehlo.add %610, %611 : tensor<8x1xf32>
    %613 = stablehlo.rsqrt %612 : tensor<8x1xf32>
    %614 = stablehlo.broadcast_in_dim %613, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %615 = stablehlo.multiply %605, %614 : tensor<8x128xf32>
    %616 = stablehlo.slice %615 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %617 = stablehlo.slice %615 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %618 = stablehlo.concatenate %616, %617, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %619 = stablehlo.convert %618 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %620 = stablehlo.convert %619 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %621 = stablehlo.dot_general %620, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_134 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %622 = stablehlo.broadcast_in_dim %cst_134, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %623 = stablehlo.add %621, %622 : tensor<8x128xf32>
    %624 = stablehlo.tanh %623 : tensor<8x128xf32>
    %cst_135 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %625 = stablehlo.reduce(%624 init: %cst_135) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %626 = stablehlo.broadcast_in_dim %625, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %627 = stablehlo.broadcast_in_dim %626, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %628 = stablehlo.subtract %624, %627 : tensor<8x128xf32>
    %629 = stablehlo.multiply %628, %628 : tensor<8x128xf32>
    %cst_136 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %630 = stablehlo.reduce(%629 init: %cst_136) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %631 = stablehlo.broadcast_in_dim %630, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_137 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %632 = stablehlo.broadcast_in_dim %cst_137, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %633 = stablehlo.divide %631, %632 : tensor<8x1xf32>
    %cst_138 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %634 = stablehlo.broadcast_in_dim %cst_138, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %635 = stablehlo.add %633, %634 : tensor<8x1xf32>
    %636 = stablehlo.rsqrt %635 : tensor<8x1xf32>
    %637 = stablehlo.broadcast_in_dim %636, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %638 = stablehlo.multiply %628, %637 : tensor<8x128xf32>
    %639 = stablehlo.slice %638 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %640 = stablehlo.slice %638 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %641 = stablehlo.concatenate %639, %640, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %642 = stablehlo.convert %641 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %643 = stablehlo.convert %642 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %644 = stablehlo.dot_general %643, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_139 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %645 = stablehlo.broadcast_in_dim %cst_139, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %646 = stablehlo.add %644, %645 : tensor<8x128xf32>
    %647 = call @relu(%646) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_140 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %648 = stablehlo.reduce(%647 init: %cst_140) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %649 = stablehlo.broadcast_in_dim %648, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %650 = stablehlo.broadcast_in_dim %649, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %651 = stablehlo.subtract %647, %650 : tensor<8x128xf32>
    %652 = stablehlo.multiply %651, %651 : tensor<8x128xf32>
    %cst_141 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %653 = stablehlo.reduce(%652 init: %cst_141) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %654 = stablehlo.broadcast_in_dim %653, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_142 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %655 = stablehlo.broadcast_in_dim %cst_142, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %656 = stablehlo.divide %654, %655 : tensor<8x1xf32>
    %cst_143 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %657 = stablehlo.broadcast_in_dim %cst_143, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %658 = stablehlo.add %656, %657 : tensor<8x1xf32>
    %659 = stablehlo.rsqrt %658 : tensor<8x1xf32>
    %660 = stablehlo.broadcast_in_dim %659, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %661 = stablehlo.multiply %651, %660 : tensor<8x128xf32>
    %662 = stablehlo.slice %661 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %663 = stablehlo.slice %661 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %664 = stablehlo.concatenate %662, %663, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %665 = stablehlo.convert %664 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %666 = stablehlo.convert %665 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %667 = stablehlo.dot_general %666, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_144 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %668 = stablehlo.broadcast_in_dim %cst_144, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %669 = stablehlo.add %667, %668 : tensor<8x128xf32>
    %670 = stablehlo.tanh %669 : tensor<8x128xf32>
    %cst_145 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %671 = stablehlo.reduce(%670 init: %cst_145) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %672 = stablehlo.broadcast_in_dim %671, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %673 = stablehlo.broadcast_in_dim %672, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %674 = stablehlo.subtract %670, %673 : tensor<8x128xf32>
    %675 = stablehlo.multiply %674, %674 : tensor<8x128xf32>
    %cst_146 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %676 = stablehlo.reduce(%675 init: %cst_146) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %677 = stablehlo.broadcast_in_dim %676, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_147 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %678 = stablehlo.broadcast_in_dim %cst_147, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %679 = stablehlo.divide %677, %678 : tensor<8x1xf32>
    %cst_148 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %680 = stablehlo.broadcast_in_dim %cst_148, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %681 = stablehlo.add %679, %680 : tensor<8x1xf32>
    %682 = stablehlo.rsqrt %681 : tensor<8x1xf32>
    %683 = stablehlo.broadcast_in_dim %682, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %684 = stablehlo.multiply %674, %683 : tensor<8x128xf32>
    %685 = stablehlo.slice %684 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %686 = stablehlo.slice %684 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %687 = stablehlo.concatenate %685, %686, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %688 = stablehlo.convert %687 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %689 = stablehlo.convert %688 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %690 = stablehlo.dot_general %689, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_149 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %691 = stablehlo.broadcast_in_dim %cst_149, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %692 = stablehlo.add %690, %691 : tensor<8x128xf32>
    %693 = call @relu(%692) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_150 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %694 = stablehlo.reduce(%693 init: %cst_150) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %695 = stablehlo.broadcast_in_dim %694, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %696 = stablehlo.broadcast_in_dim %695, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %697 = stablehlo.subtract %693, %696 : tensor<8x128xf32>
    %698 = stablehlo.multiply %697, %697 : tensor<8x128xf32>
    %cst_151 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %699 = stablehlo.reduce(%698 init: %cst_151) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %700 = stablehlo.broadcast_in_dim %699, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_152 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %701 = stablehlo.broadcast_in_dim %cst_152, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %702 = stablehlo.divide %700, %701 : tensor<8x1xf32>
    %cst_153 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %703 = stablehlo.broadcast_in_dim %cst_153, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %704 = stablehlo.add %702, %703 : tensor<8x1xf32>
    %705 = stablehlo.rsqrt %704 : tensor<8x1xf32>
    %706 = stablehlo.broadcast_in_dim %705, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %707 = stablehlo.multiply %697, %706 : tensor<8x128xf32>
    %708 = stablehlo.slice %707 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %709 = stablehlo.slice %707 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %710 = stablehlo.concatenate %708, %709, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %711 = stablehlo.convert %710 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %712 = stablehlo.convert %711 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %713 = stablehlo.dot_general %712, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_154 = stablehlo.constant dense<1.500000e+00> : tensor<f32>
    %714 = stablehlo.broadcast_in_dim %cst_154, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %715 = stablehlo.add %713, %714 : tensor<8x128xf32>
    %716 = stablehlo.tanh %715 : tensor<8x128xf32>
    %cst_155 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %717 = stablehlo.reduce(%716 init: %cst_155) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %718 = stablehlo.broadcast_in_dim %717, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %719 = stablehlo.broadcast_in_dim %718, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %720 = stablehlo.subtract %716, %719 : tensor<8x128xf32>
    %721 = stablehlo.multiply %720, %720 : tensor<8x128xf32>
    %cst_156 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %722 = stablehlo.reduce(%721 init: %cst_156) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %723 = stablehlo.broadcast_in_dim %722, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_157 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %724 = stablehlo.broadcast_in_dim %cst_157, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %725 = stablehlo.divide %723, %724 : tensor<8x1xf32>
    %cst_158 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %726 = stablehlo.broadcast_in_dim %cst_158, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %727 = stablehlo.add %725, %726 : tensor<8x1xf32>
    %728 = stablehlo.rsqrt %727 : tensor<8x1xf32>
    %729 = stablehlo.broadcast_in_dim %728, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %730 = stablehlo.multiply %720, %729 : tensor<8x128xf32>
    %731 = stablehlo.slice %730 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %732 = stablehlo.slice %730 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %733 = stablehlo.concatenate %731, %732, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %734 = stablehlo.convert %733 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %735 = stablehlo.convert %734 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %736 = stablehlo.dot_general %735, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_159 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %737 = stablehlo.broadcast_in_dim %cst_159, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %738 = stablehlo.add %736, %737 : tensor<8x128xf32>
    %739 = call @relu(%738) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_160 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %740 = stablehlo.reduce(%739 init: %cst_160) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %741 = stablehlo.broadcast_in_dim %740, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %742 = stablehlo.broadcast_in_dim %741, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %743 = stablehlo.subtract %739, %742 : tensor<8x128xf32>
    %744 = stablehlo.multiply %743, %743 : tensor<8x128xf32>
    %cst_161 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %745 = stablehlo.reduce(%744 init: %cst_161) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %746 = stablehlo.broadcast_in_dim %745, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_162 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %747 = stablehlo.broadcast_in_dim %cst_162, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %748 = stablehlo.divide %746, %747 : tensor<8x1xf32>
    %cst_163 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %749 = stablehlo.broadcast_in_dim %cst_163, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %750 = stablehlo.add %748, %749 : tensor<8x1xf32>
    %751 = stablehlo.rsqrt %750 : tensor<8x1xf32>
    %752 = stablehlo.broadcast_in_dim %751, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %753 = stablehlo.multiply %743, %752 : tensor<8x128xf32>
    %754 = stablehlo.slice %753 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %755 = stablehlo.slice %753 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %756 = stablehlo.concatenate %754, %755, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %757 = stablehlo.convert %756 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %758 = stablehlo.convert %757 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %759 = stablehlo.dot_general %758, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_164 = stablehlo.constant dense<2.500000e+00> : tensor<f32>
    %760 = stablehlo.broadcast_in_dim %cst_164, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %761 = stablehlo.add %759, %760 : tensor<8x128xf32>
    %762 = stablehlo.tanh %761 : tensor<8x128xf32>
    %cst_165 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %763 = stablehlo.reduce(%762 init: %cst_165) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %764 = stablehlo.broadcast_in_dim %763, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %765 = stablehlo.broadcast_in_dim %764, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %766 = stablehlo.subtract %762, %765 : tensor<8x128xf32>
    %767 = stablehlo.multiply %766, %766 : tensor<8x128xf32>
    %cst_166 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %768 = stablehlo.reduce(%767 init: %cst_166) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %769 = stablehlo.broadcast_in_dim %768, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_167 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %770 = stablehlo.broadcast_in_dim %cst_167, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %771 = stablehlo.divide %769, %770 : tensor<8x1xf32>
    %cst_168 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %772 = stablehlo.broadcast_in_dim %cst_168, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %773 = stablehlo.add %771, %772 : tensor<8x1xf32>
    %774 = stablehlo.rsqrt %773 : tensor<8x1xf32>
    %775 = stablehlo.broadcast_in_dim %774, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %776 = stablehlo.multiply %766, %775 : tensor<8x128xf32>
    %777 = stablehlo.slice %776 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %778 = stablehlo.slice %776 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %779 = stablehlo.concatenate %777, %778, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %780 = stablehlo.convert %779 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %781 = stablehlo.convert %780 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %782 = stablehlo.dot_general %781, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_169 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %783 = stablehlo.broadcast_in_dim %cst_169, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %784 = stablehlo.add %782, %783 : tensor<8x128xf32>
    %785 = call @relu(%784) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_170 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %786 = stablehlo.reduce(%785 init: %cst_170) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %787 = stablehlo.broadcast_in_dim %786, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %788 = stablehlo.broadcast_in_dim %787, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %789 = stablehlo.subtract %785, %788 : tensor<8x128xf32>
    %790 = stablehlo.multiply %789, %789 : tensor<8x128xf32>
    %cst_171 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %791 = stablehlo.reduce(%790 init: %cst_171) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %792 = stablehlo.broadcast_in_dim %791, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_172 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %793 = stablehlo.broadcast_in_dim %cst_172, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %794 = stablehlo.divide %792, %793 : tensor<8x1xf32>
    %cst_173 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %795 = stablehlo.broadcast_in_dim %cst_173, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %796 = stablehlo.add %794, %795 : tensor<8x1xf32>
    %797 = stablehlo.rsqrt %796 : tensor<8x1xf32>
    %798 = stablehlo.broadcast_in_dim %797, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %799 = stablehlo.multiply %789, %798 : tensor<8x128xf32>
    %800 = stablehlo.slice %799 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %801 = stablehlo.slice %799 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %802 = stablehlo.concatenate %800, %801, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %803 = stablehlo.convert %802 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %804 = stablehlo.convert %803 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %805 = stablehlo.dot_general %804, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_174 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %806 = stablehlo.broadcast_in_dim %cst_174, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %807 = stablehlo.add %805, %806 : tensor<8x128xf32>
    %808 = stablehlo.tanh %807 : tensor<8x128xf32>
    %cst_175 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %809 = stablehlo.reduce(%808 init: %cst_175) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %810 = stablehlo.broadcast_in_dim %809, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %811 = stablehlo.broadcast_in_dim %810, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %812 = stablehlo.subtract %808, %811 : tensor<8x128xf32>
    %813 = stablehlo.multiply %812, %812 : tensor<8x128xf32>
    %cst_176 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %814 = stablehlo.reduce(%813 init: %cst_176) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %815 = stablehlo.broadcast_in_dim %814, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_177 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %816 = stablehlo.broadcast_in_dim %cst_177, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %817 = stablehlo.divide %815, %816 : tensor<8x1xf32>
    %cst_178 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %818 = stablehlo.broadcast_in_dim %cst_178, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %819 = stablehlo.add %817, %818 : tensor<8x1xf32>
    %820 = stablehlo.rsqrt %819 : tensor<8x1xf32>
    %821 = stablehlo.broadcast_in_dim %820, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %822 = stablehlo.multiply %812, %821 : tensor<8x128xf32>
    %823 = stablehlo.slice %822 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %824 = stablehlo.slice %822 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %825 = stablehlo.concatenate %823, %824, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %826 = stablehlo.convert %825 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %827 = stablehlo.convert %826 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %828 = stablehlo.dot_general %827, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_179 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %829 = stablehlo.broadcast_in_dim %cst_179, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %830 = stablehlo.add %828, %829 : tensor<8x128xf32>
    %831 = call @relu(%830) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_180 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %832 = stablehlo.reduce(%831 init: %cst_180) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %833 = stablehlo.broadcast_in_dim %832, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %834 = stablehlo.broadcast_in_dim %833, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %835 = stablehlo.subtract %831, %834 : tensor<8x128xf32>
    %836 = stablehlo.multiply %835, %835 : tensor<8x128xf32>
    %cst_181 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %837 = stablehlo.reduce(%836 init: %cst_181) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %838 = stablehlo.broadcast_in_dim %837, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_182 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %839 = stablehlo.broadcast_in_dim %cst_182, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %840 = stablehlo.divide %838, %839 : tensor<8x1xf32>
    %cst_183 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %841 = stablehlo.broadcast_in_dim %cst_183, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %842 = stablehlo.add %840, %841 : tensor<8x1xf32>
    %843 = stablehlo.rsqrt %842 : tensor<8x1xf32>
    %844 = stablehlo.broadcast_in_dim %843, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %845 = stablehlo.multiply %835, %844 : tensor<8x128xf32>
    %846 = stablehlo.slice %845 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %847 = stablehlo.slice %845 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %848 = stablehlo.concatenate %846, %847, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %849 = stablehlo.convert %848 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %850 = stablehlo.convert %849 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %851 = stablehlo.dot_general %850, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_184 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %852 = stablehlo.broadcast_in_dim %cst_184, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %853 = stablehlo.add %851, %852 : tensor<8x128xf32>
    %854 = stablehlo.tanh %853 : tensor<8x128xf32>
    %cst_185 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %855 = stablehlo.reduce(%854 init: %cst_185) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %856 = stablehlo.broadcast_in_dim %855, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %857 = stablehlo.broadcast_in_dim %856, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %858 = stablehlo.subtract %854, %857 : tensor<8x128xf32>
    %859 = stablehlo.multiply %858, %858 : tensor<8x128xf32>
    %cst_186 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %860 = stablehlo.reduce(%859 init: %cst_186) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %861 = stablehlo.broadcast_in_dim %860, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_187 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %862 = stablehlo.broadcast_in_dim %cst_187, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %863 = stablehlo.divide %861, %862 : tensor<8x1xf32>
    %cst_188 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %864 = stablehlo.broadcast_in_dim %cst_188, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %865 = stablehlo.add %863, %864 : tensor<8x1xf32>
    %866 = stablehlo.rsqrt %865 : tensor<8x1xf32>
    %867 = stablehlo.broadcast_in_dim %866, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %868 = stablehlo.multiply %858, %867 : tensor<8x128xf32>
    %869 = stablehlo.slice %868 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %870 = stablehlo.slice %868 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %871 = stablehlo.concatenate %869, %870, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %872 = stablehlo.convert %871 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %873 = stablehlo.convert %872 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %874 = stablehlo.dot_general %873, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_189 = stablehlo.constant dense<1.500000e+00> : tensor<f32>
    %875 = stablehlo.broadcast_in_dim %cst_189, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %876 = stablehlo.add %874, %875 : tensor<8x128xf32>
    %877 = call @relu(%876) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %cst_190 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %878 = stablehlo.reduce(%877 init: %cst_190) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %879 = stablehlo.broadcast_in_dim %878, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %880 = stablehlo.broadcast_in_dim %879, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %881 = stablehlo.subtract %877, %880 : tensor<8x128xf32>
    %882 = stablehlo.multiply %881, %881 : tensor<8x128xf32>
    %cst_191 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %883 = stablehlo.reduce(%882 init: %cst_191) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %884 = stablehlo.broadcast_in_dim %883, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_192 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %885 = stablehlo.broadcast_in_dim %cst_192, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %886 = stablehlo.divide %884, %885 : tensor<8x1xf32>
    %cst_193 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %887 = stablehlo.broadcast_in_dim %cst_193, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %888 = stablehlo.add %886, %887 : tensor<8x1xf32>
    %889 = stablehlo.rsqrt %888 : tensor<8x1xf32>
    %890 = stablehlo.broadcast_in_dim %889, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %891 = stablehlo.multiply %881, %890 : tensor<8x128xf32>
    %892 = stablehlo.slice %891 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %893 = stablehlo.slice %891 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %894 = stablehlo.concatenate %892, %893, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %895 = stablehlo.convert %894 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %896 = stablehlo.convert %895 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %897 = stablehlo.dot_general %896, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %cst_194 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %898 = stablehlo.broadcast_in_dim %cst_194, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %899 = stablehlo.add %897, %898 : tensor<8x128xf32>
    %900 = stablehlo.tanh %899 : tensor<8x128xf32>
    %cst_195 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %901 = stablehlo.reduce(%900 init: %cst_195) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %902 = stablehlo.broadcast_in_dim %901, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %903 = stablehlo.broadcast_in_dim %902, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %904 = stablehlo.subtract %900, %903 : tensor<8x128xf32>
    %905 = stablehlo.multiply %904, %904 : tensor<8x128xf32>
    %cst_196 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %906 = stablehlo.reduce(%905 init: %cst_196) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %907 = stablehlo.broadcast_in_dim %906, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_197 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %908 = stablehlo.broadcast_in_dim %cst_197, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %909 = stablehlo.divide %907, %908 : tensor<8x1xf32>
    %cst_198 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %910 = stablehlo.broadcast_in_dim %cst_198, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %911 = stablehlo.add %909, %910 : tensor<8x1xf32>
    %912 = stablehlo.rsqrt %911 : tensor<8x1xf32>
    %913 = stablehlo.broadcast_in_dim %912, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %914 = stablehlo.multiply %904, %913 : tensor<8x128xf32>
    %915 = stablehlo.slice %914 [0:8, 1:128] : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %916 = stablehlo.slice %914 [0:8, 0:1] : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %917 = stablehlo.concatenate %915, %916, dim = 1 : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %918 = stablehlo.convert %917 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %919 = stablehlo.convert %918 : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    return %919 : tensor<8x128xf32>
  }
  func.func private @relu(%arg0: tensor<8x128xf32>) -> tensor<8x128xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x128xf32>
    return %1 : tensor<8x128xf32>
  }
}
