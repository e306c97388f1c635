module @jit_psum_unannotated_4dev attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}]}}
  sdy.mesh @mesh_0 = <["x"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<32x128xf32>) -> (tensor<8x128xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"x"} (%arg1: tensor<8x128xf32>) {
      %3 = stablehlo.custom_call @tpu_custom_call(%arg1, %arg1) {backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAEjCQEDBQcBAwkDDwsNDxETFRcDYz8RATkHEwsLDxsLDzsLCwsLCwsLCwsPEwsjCw8LUwsTBQVhTQcDWQERByMbDwcPGwsCIgMfAwMjJQUZBRsRBwEDBQ0PBQcFHREHPQMNExUXGR0JHwkFByE7BR8BAQUhDQ0vEQUjBSUFJwUpEQEBAwMpPQUrAwctLzEzNTcFLREPAAUvIwsJIQEAAAABAAAAAgAAAAAAAAAFMSMLAQEjdHB1Lm1lbW9yeV9zcGFjZTx2bWVtPgAjdHB1LmNvcmVfdHlwZTx0Yz4AI2FyaXRoLmZhc3RtYXRoPG5vbmU+AAMXOQUhAgQJGycFIQIECQECBAsBAgIFBwMDAwEBCQT1BQERAQsHAwEFCREBEQcDHzsHAwEDAQMBAwMBAwMBAwMBAwMBBQYBAwUHAQcJBwYBAwUDCwMDAQMDAQMDAQMDAQUGAQMFBwMPEQcGAQMFAxMLBwEnAwUFDRUDAwEDAwEDAwEDAwEFBgEDBQcFGRsNBQErCRcFGRsPAAEGAwEFAQAuBTMRKQkTDR0jIR0pLRkTGSMXFSUZHw8NCR0RYnVpbHRpbgBzdGFibGVfbW9zYWljAHRwdQBhcml0aABtb2R1bGUAYXJpdGguY29uc3RhbnQAdmVjdG9yLmxvYWQAdmVjdG9yLnNoYXBlX2Nhc3QAZnVuYy5mdW5jAGFyaXRoLmFkZGYAdHB1LnZlY3Rvcl9zdG9yZQBmdW5jLnJldHVybgBzeW1fbmFtZQBfYWRkX2tlcm5lbABzdGFibGVfbW9zYWljLnZlcnNpb24AZGltZW5zaW9uX3NlbWFudGljcwBmdW5jdGlvbl90eXBlAHNjYWxhcl9wcmVmZXRjaABzY3JhdGNoX29wZXJhbmRzAHRwdS5jb3JlX3R5cGUAdmFsdWUAZmFzdG1hdGgAYWRkAG9wZXJhbmRTZWdtZW50U2l6ZXMAc3RyaWRlcwA=\22, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMDVU0BAU0HDwsLDw8PCwsPDxMLVw8LDwsPCw8PGw8PDxsPCw8LDxsLDwsPGwIOAh8dDykFBQUHHQ8vHUNFHQUtBQkFCx0FQR0FSwMDGRsFDQEnAQEdISUDAwMDCQkJCTcLCwsLAR0fAQUPHSMBBREdJwEFEx0RKxUNDS0HB4EfMx0RMRUNMx0FNS0HB4E5TR05OwUVHT0/BRcVExMtBweBH00FGR1HSQUbFRUVLQcHgQUZBBMFAREBFwcDAQEGAwEFAQACAh0VDRELDQ0NExELIxkPEWJ1aWx0aW4AbW9kdWxlAF9hZGRfa2VybmVsAG1ha2VfcHJvZ3JhbXMucHkAZ2V0OgBnZXQvZ2V0AHRwdS5sb2NzAHhfcmVmAHlfcmVmAG9fcmVmAGFkZDoAYWRkL2FkZABzd2FwOgBzd2FwL3N3YXAA\22}}", kernel_name = "_add_kernel", mhlo.frontend_attributes = {kernel_metadata = "{}"}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
      %4 = "stablehlo.all_reduce"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "x">]>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %5 = stablehlo.add %arg2, %arg3 : tensor<f32>
        stablehlo.return %5 : tensor<f32>
      }) : (tensor<8x128xf32>) -> tensor<8x128xf32>
      sdy.return %4 : tensor<8x128xf32>
    } : (tensor<32x128xf32>) -> tensor<8x128xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<8x128xf32>
    return %2 : tensor<8x128xf32>
  }
}
