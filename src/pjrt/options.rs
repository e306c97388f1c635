//! `xla.CompileOptionsProto` (xla/pjrt/proto/compile_options.proto), encoded by
//! hand: the handful of fields JAX 0.12's `compiler.get_compile_options` sets
//! for `num_replicas=1, num_partitions=N, device_assignment=[[d0 .. dN-1]]`.
//!
//! Field numbers are those of the descriptor libjax_common.so 0.12 embeds. JAX
//! also writes a full default `DebugOptions` (field 3 of the build options);
//! it is left out here, so libtpu takes the same defaults itself.

/// Protobuf wire types.
const VARINT: u64 = 0;
const LEN: u64 = 2;

/// `CompileOptionsProto` for `devices` SPMD partitions on the given global
/// device ids (one replica), with the Shardy partitioner: what
/// `tpu_compile.py` passes.
pub(crate) fn compile_options(devices: &[i64]) -> Vec<u8> {
    compile_options_for(devices, true)
}

/// [`compile_options`] with the partitioner chosen: Shardy (JAX 0.12's
/// default, for modules with `sdy` shardings) or GSPMD (`mhlo.sharding`).
pub(crate) fn compile_options_for(devices: &[i64], shardy: bool) -> Vec<u8> {
    let mut build = Vec::new();
    int_field(&mut build, 4, 1); // num_replicas
    int_field(&mut build, 5, devices.len() as u64); // num_partitions
    int_field(&mut build, 6, 1); // use_spmd_partitioning
    if devices.len() > 1 {
        // device_assignment: DeviceAssignmentProto { replica_count = 1,
        // computation_count = N, computation_devices = [{replica_device_ids = [d]}] }
        let mut assignment = Vec::new();
        int_field(&mut assignment, 1, 1);
        int_field(&mut assignment, 2, devices.len() as u64);
        for &device in devices {
            let mut computation = Vec::new();
            let mut ids = Vec::new();
            varint(&mut ids, device as u64);
            bytes_field(&mut computation, 1, &ids); // packed repeated int64
            bytes_field(&mut assignment, 3, &computation);
        }
        bytes_field(&mut build, 9, &assignment);
    }
    bytes_field(&mut build, 12, &[0]); // allow_spmd_sharding_propagation_to_output = [false]
    bytes_field(&mut build, 18, &[0]); // allow_spmd_sharding_propagation_to_parameters = [false]
    int_field(&mut build, 19, u64::from(shardy)); // use_shardy_partitioner
    int_field(&mut build, 23, 1); // process_count
    int_field(&mut build, 25, 29); // memory_fitting_level (JAX's default effort)
    let mut options = Vec::new();
    bytes_field(&mut options, 3, &build); // executable_build_options
    int_field(&mut options, 5, u64::MAX); // profile_version = -1
    options
}

fn varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn int_field(out: &mut Vec<u8>, field: u64, value: u64) {
    varint(out, (field << 3) | VARINT);
    varint(out, value);
}

fn bytes_field(out: &mut Vec<u8>, field: u64, bytes: &[u8]) {
    varint(out, (field << 3) | LEN);
    varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

#[cfg(test)]
mod tests {
    /// The bytes JAX 0.12 writes after its `DebugOptions`, for 4 partitions
    /// on devices 0..3 (`get_compile_options(...).SerializeAsString()`).
    #[test]
    fn four_partitions_as_jax() {
        let ours = super::compile_options(&[0, 1, 2, 3]);
        let jax_build_tail = "200128043001\
            4a18080110041a030a01001a030a01011a030a01021a030a0103\
            62010092010100980101b80101c8011d";
        let hex: String = ours.iter().map(|b| format!("{b:02x}")).collect();
        assert!(hex.contains(jax_build_tail), "{hex}");
        assert!(hex.ends_with("28ffffffffffffffffff01"), "{hex}");
    }
}
