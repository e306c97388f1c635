//! `BackendConfig::to_json`: byte-identical to JAX 0.12's
//! `CustomCallBackendConfig.to_json`.

use std::fmt::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use super::json::{JsonValue, python_float_repr, write_compact_json};
use super::{BackendConfig, ConfigError, DeviceType, FlagValue, MemorySpace, Tiling};

/// Room for every fixed key and small value of the JSON (the longest
/// possible fixed text is well under this).
const FIXED_BYTES: usize = 1024;

fn b64_len(field: &str, bytes: usize) -> Result<usize, ConfigError> {
    base64::encoded_len(bytes, true).ok_or_else(|| ConfigError::TooLarge {
        field: field.to_string(),
        bytes,
    })
}

/// Checks a flag before it is written; JAX would write broken JSON or raise
/// UnicodeEncodeError.
pub(crate) fn check_flag(name: &str, value: &FlagValue) -> Result<(), ConfigError> {
    if !name
        .bytes()
        .all(|b| (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\')
    {
        return Err(ConfigError::BadFlagName {
            flag: name.to_string(),
        });
    }
    if let FlagValue::Double(v) = value {
        if !v.is_finite() {
            return Err(ConfigError::NonFiniteFlag {
                flag: name.to_string(),
                value: python_float_repr(*v),
            });
        }
    }
    Ok(())
}

impl BackendConfig {
    /// An upper bound of the length of [`BackendConfig::to_json`]'s output:
    /// the writer allocates exactly this once and never grows it.
    pub fn json_size_hint(&self) -> Result<usize, ConfigError> {
        let mut n = FIXED_BYTES;
        n += b64_len("body", self.body.len())?;
        if let Some(dbg) = &self.debug_locations {
            n += b64_len("debug_locations", dbg.len())?;
        }
        if let Some(flags) = &self.flags {
            // `{"flag_type": "", "value": {"integer_value": <20>}},` is 60.
            n += flags.iter().map(|(name, _)| name.len() + 64).sum::<usize>();
        }
        if let Some(list) = &self.allow_input_fusion {
            n += 6 * list.len();
        }
        if let Some(list) = &self.output_memory_spaces {
            // `{"color":12,"shape_index":[<20>]},`
            n += 48 * list.len();
        }
        if let Some(list) = &self.input_memory_spaces {
            // `{"operand_index":<20>,"color":12},`
            n += 48 * list.len();
        }
        Ok(n)
    }

    /// The `backend_config` string, byte-identical to JAX 0.12's
    /// `to_json(use_core_ids)`.
    ///
    /// `use_core_ids` (JAX: true unless exporting / forward compatible)
    /// matters only for a single-core SparseCore kernel: it picks
    /// `sparse_core_config.core_ids` over `megachip_parallelism_config`.
    ///
    /// Where JAX would write something that is not JSON this fails instead:
    /// a non-finite double flag ([`ConfigError::NonFiniteFlag`]), a flag name
    /// that is not printable ASCII or contains `"`/`\`
    /// ([`ConfigError::BadFlagName`]); and, as JAX does, an input memory space
    /// other than HBM/VMEM/SMEM
    /// ([`ConfigError::InputMemorySpaceUnsupported`]).
    ///
    /// The body is base64-encoded straight into the output, which is
    /// allocated once ([`BackendConfig::json_size_hint`]).
    pub fn to_json(&self, use_core_ids: bool) -> Result<String, ConfigError> {
        // Checks first: nothing is written for an invalid config.
        if let Some(flags) = &self.flags {
            for (name, value) in flags {
                check_flag(name, value)?;
            }
        }
        if let Some(list) = &self.input_memory_spaces {
            for (operand, ms) in list.iter().enumerate() {
                if let Some(ms) = ms {
                    if !matches!(ms, MemorySpace::Hbm | MemorySpace::Vmem | MemorySpace::Smem) {
                        return Err(ConfigError::InputMemorySpaceUnsupported {
                            operand,
                            memory_space: *ms,
                        });
                    }
                }
            }
        }

        let mut out = String::with_capacity(self.json_size_hint()?);
        out.push_str("{\"custom_call_config\": {\"body\": \"");
        STANDARD.encode_string(&self.body, &mut out);
        out.push('"');
        if self.has_communication {
            out.push_str(", \"has_communication\": true");
        }
        if let Some(id) = self.collective_id {
            let _ = write!(out, ", \"collective_id\": {id}");
        }
        if let Some(cost) = &self.cost_estimate {
            let _ = write!(
                out,
                ", \"cost_estimate\": {{\n\"bytes_accessed\":{},\n\"flops\":{},\n\"remote_bytes_transferred\":{},\n\"transcendentals\":{}\n}}",
                cost.bytes_accessed,
                cost.flops,
                cost.remote_bytes_transferred,
                cost.transcendentals
            );
        }
        if self.needs_hlo_passes {
            out.push_str(", \"needs_hlo_passes\": true");
        }
        if let Some(format) = self.serialization_format {
            let _ = write!(out, ", \"serialization_format\": {format}");
        }
        if self.needs_layout_passes {
            out.push_str(", \"needs_layout_passes\": true");
        }
        if !self.shape_invariant_numerics {
            out.push_str(", \"shape_invariant_numerics\": false");
        }
        if let Some(list) = &self.allow_input_fusion {
            out.push_str(", \"allow_input_fusion\": [");
            for (i, allow) in list.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(if *allow { "true" } else { "false" });
            }
            out.push(']');
        }
        if let Some(size) = self.internal_scratch_in_bytes {
            let _ = write!(out, ", \"internal_scratch_in_bytes\": {size}");
        }
        if let Some(list) = &self.output_memory_spaces {
            let tuple = list.len() > 1;
            let mut first = true;
            for (i, ms) in list.iter().enumerate() {
                let Some(ms) = ms else { continue };
                out.push_str(if first {
                    ", \"output_memory_space_colors\": ["
                } else {
                    ","
                });
                first = false;
                if tuple {
                    let _ = write!(out, "{{\"color\":{},\"shape_index\":[{i}]}}", ms.color());
                } else {
                    let _ = write!(out, "{{\"color\":{}}}", ms.color());
                }
            }
            if !first {
                out.push(']');
            }
        }
        if let Some(list) = &self.input_memory_spaces {
            let mut first = true;
            for (i, ms) in list.iter().enumerate() {
                // SMEM is accepted but never written (JAX's TODO).
                let Some(ms) = ms.filter(|m| *m != MemorySpace::Smem) else {
                    continue;
                };
                out.push_str(if first {
                    ", \"input_memory_space_colors\": ["
                } else {
                    ","
                });
                first = false;
                let _ = write!(out, "{{\"operand_index\":{i},\"color\":{}}}", ms.color());
            }
            if !first {
                out.push(']');
            }
        }
        if self.disable_bounds_checks {
            out.push_str(", \"disable_bounds_checks\": true");
        }
        if self.disable_semaphore_checks {
            out.push_str(", \"disable_semaphore_checks\": true");
        }
        if self.skip_device_barrier {
            out.push_str(", \"skip_device_barrier\": true");
        }
        if let Some(dbg) = self.debug_locations.as_ref().filter(|d| !d.is_empty()) {
            out.push_str(", \"debug_locations\": \"");
            STANDARD.encode_string(dbg, &mut out);
            out.push('"');
        }
        out.push('}');

        let single_core = self.active_core_count == Some(1);
        if self.is_sparse_core() {
            out.push_str(", \"sparse_core_config\": ");
            let mut members = Vec::new();
            if use_core_ids && single_core {
                members.push((
                    "core_ids".to_string(),
                    JsonValue::Array(vec![JsonValue::String("0".into())]),
                ));
            }
            let tiling = self.tiling.unwrap_or(Tiling::Compact);
            members.push((
                "tiling".to_string(),
                JsonValue::String(tiling.proto_name().into()),
            ));
            if let Some(level) = self.opt_level {
                members.push((
                    "comp_env".to_string(),
                    JsonValue::Object(vec![(
                        "backend_opt_level".to_string(),
                        JsonValue::String(level.name().into()),
                    )]),
                ));
            }
            write_compact_json(&mut out, &JsonValue::Object(members));
        }
        if let Some(device) = self.device_type {
            let _ = write!(out, ", \"device_type\": \"{}\"", device.proto_name());
        }
        if let Some(size) = self.vmem_limit_bytes {
            let _ = write!(
                out,
                ", \"scoped_memory_configs\": [{{\"memory_space\":1, \"offset\": 0, \"size\": {size}}}]"
            );
        }
        if let Some(flags) = &self.flags {
            out.push_str(", \"flag_configs\": [");
            for (i, (name, value)) in flags.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(out, "{{\"flag_type\": \"{name}\", \"value\": {{");
                match value {
                    FlagValue::Bool(b) => {
                        let _ = write!(out, "\"boolean_value\": {b}");
                    }
                    FlagValue::Int(v) => {
                        let _ = write!(out, "\"integer_value\": {v}");
                    }
                    FlagValue::Double(v) => {
                        let _ = write!(out, "\"double_value\": {}", python_float_repr(*v));
                    }
                }
                out.push_str("}}");
            }
            out.push(']');
        }
        if !use_core_ids && self.device_type == Some(DeviceType::SparseCore) && single_core {
            out.push_str(", \"megachip_parallelism_config\": {\"cores\": [\"0\"]}");
        }
        out.push('}');
        Ok(out)
    }
}
