//! `BackendConfig::to_json`: byte-identical to JAX 0.12's
//! `CustomCallBackendConfig.to_json`.

use std::io::Write as _;

use super::json::{JsonValue, python_float_repr, write_compact_json};
use super::{BackendConfig, DeviceType, FlagValue, MemorySpace, Tiling, WriteError};

/// Room for every fixed key and small value of the JSON (the longest
/// possible fixed text is well under this).
const FIXED_BYTES: usize = 1024;

fn b64_len(field: &str, bytes: usize) -> Result<usize, WriteError> {
    base64::encoded_len(bytes, true).ok_or_else(|| WriteError::TooLarge {
        field: field.to_string(),
        bytes,
    })
}

/// Whether the writer can write this flag name as JAX does: printable ASCII
/// without `"` or `\` (JAX would write broken JSON or raise
/// UnicodeEncodeError). The rules check the same before anything is built.
pub(crate) fn flag_name_is_writable(name: &str) -> bool {
    name.bytes()
        .all(|b| (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\')
}

/// Checks a flag before it is written.
fn check_flag(name: &str, value: &FlagValue) -> Result<(), WriteError> {
    if !flag_name_is_writable(name) {
        return Err(WriteError::BadFlagName {
            flag: name.to_string(),
        });
    }
    if let FlagValue::Double(v) = value
        && !v.is_finite()
    {
        return Err(WriteError::NonFiniteFlag {
            flag: name.to_string(),
            value: python_float_repr(*v),
        });
    }
    Ok(())
}

impl BackendConfig {
    /// An upper bound of the length of [`BackendConfig::to_json`]'s output:
    /// the writer allocates exactly this once and never grows it.
    pub fn json_size_hint(&self) -> Result<usize, WriteError> {
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
        if let Some(sharding) = &self.implicit_sharding {
            let mut text = String::new();
            super::json::write_python_json(&mut text, &sharding.value);
            n += text.len() + 24;
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
    /// a non-finite double flag ([`WriteError::NonFiniteFlag`]), a flag name
    /// that is not printable ASCII or contains `"`/`\`
    /// ([`WriteError::BadFlagName`]), a flag given twice
    /// ([`WriteError::DuplicateFlag`]: JAX's flags are a dict); and, as JAX does, an input memory space
    /// other than HBM/VMEM/SMEM
    /// ([`WriteError::InputMemorySpaceUnsupported`]).
    ///
    /// The body is base64-encoded straight into the output, which is
    /// allocated once ([`BackendConfig::json_size_hint`]).
    pub fn to_json(&self, use_core_ids: bool) -> Result<String, WriteError> {
        let mut out = String::new();
        self.to_json_into(use_core_ids, &mut out)?;
        Ok(out)
    }

    /// [`BackendConfig::to_json`], appended to `out` (which grows at most
    /// once, by [`BackendConfig::json_size_hint`]): for callers that write
    /// many configs and reuse one buffer. On error `out` is unchanged.
    pub fn to_json_into(&self, use_core_ids: bool, dest: &mut String) -> Result<(), WriteError> {
        // Checks first: nothing is written for an invalid config.
        if let Some(flags) = &self.flags {
            let mut seen = std::collections::HashSet::with_capacity(flags.len());
            for (name, value) in flags {
                check_flag(name, value)?;
                if !seen.insert(name.as_str()) {
                    return Err(WriteError::DuplicateFlag { flag: name.clone() });
                }
            }
        }
        if let Some(list) = &self.input_memory_spaces {
            for (operand, ms) in list.iter().enumerate() {
                if let Some(ms) = ms
                    && !matches!(ms, MemorySpace::Hbm | MemorySpace::Vmem | MemorySpace::Smem)
                {
                    return Err(WriteError::InputMemorySpaceUnsupported {
                        operand,
                        memory_space: *ms,
                    });
                }
            }
        }

        let hint = self.json_size_hint()?;
        let mut bytes = std::mem::take(dest).into_bytes();
        let start = bytes.len();
        bytes.reserve_exact(hint);
        let mut out_buf = Out(bytes);
        let out = &mut out_buf;
        out.push_str("{\"custom_call_config\": {\"body\": \"");
        out.base64("body", &self.body)?;
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
            out.base64("debug_locations", dbg)?;
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
            let mut text = String::new();
            write_compact_json(&mut text, &JsonValue::Object(members));
            out.push_str(&text);
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
        if let Some(sharding) = &self.implicit_sharding {
            let mut text = String::new();
            super::json::write_python_json(&mut text, &sharding.value);
            out.push_str(", \"implicit_sharding\": ");
            out.push_str(&text);
        }
        out.push('}');
        // Every byte written is ASCII: the flag names were checked, the rest
        // is our own text, digits and base64.
        // Every byte written is ASCII (flag names were checked, the rest is
        // our own text, digits and base64); should that ever not hold, `dest`
        // gets its old text back and the config is refused.
        let mut bytes = out_buf.0;
        let valid = bytes[start..].is_ascii();
        if !valid {
            bytes.truncate(start);
        }
        match String::from_utf8(bytes) {
            Ok(text) => *dest = text,
            Err(e) => {
                let mut bytes = e.into_bytes();
                bytes.truncate(start);
                *dest = String::from_utf8(bytes).unwrap_or_default();
            }
        }
        if valid {
            Ok(())
        } else {
            Err(WriteError::Unsupported {
                path: super::json::JsonPath::root(),
                message: "the config text is not ASCII".to_string(),
            })
        }
    }
}

/// The output buffer: pre-sized once, written in place.
struct Out(Vec<u8>);

impl Out {
    fn push_str(&mut self, s: &str) {
        self.0.extend_from_slice(s.as_bytes());
    }

    fn push(&mut self, c: char) {
        let mut buf = [0u8; 4];
        self.0.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }

    fn write_fmt(&mut self, args: std::fmt::Arguments<'_>) -> std::io::Result<()> {
        self.0.write_fmt(args)
    }

    /// Standard base64 with padding, encoded straight into the buffer.
    fn base64(&mut self, field: &str, bytes: &[u8]) -> Result<(), WriteError> {
        let len = b64_len(field, bytes.len())?;
        let start = self.0.len();
        self.0.resize(start + len, 0);
        encode_base64(bytes, &mut self.0[start..]);
        Ok(())
    }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Every 12-bit value as its two base64 characters, first one in the low
/// byte (so `to_le_bytes` writes them in order).
static PAIRS: [u16; 4096] = {
    let mut table = [0u16; 4096];
    let mut i = 0;
    while i < 4096 {
        table[i] = ALPHABET[i >> 6] as u16 | (ALPHABET[i & 63] as u16) << 8;
        i += 1;
    }
    table
};

/// Four 12-bit groups of the top 48 bits of `w`, as eight characters.
fn eight_chars(w: u64) -> [u8; 8] {
    let pair = |shift: u32| u64::from(PAIRS[((w >> shift) & 0xfff) as usize]);
    (pair(52) | pair(40) << 16 | pair(28) << 32 | pair(16) << 48).to_le_bytes()
}

/// Standard base64 with padding of `input` into `out`, which must be exactly
/// `base64::encoded_len(input.len(), true)` bytes long. Twelve input bytes
/// make eight 12-bit table lookups and two 8-byte stores (about 2.5 GB/s
/// on one core, without SIMD or unsafe code).
fn encode_base64(input: &[u8], out: &mut [u8]) {
    let blocks = input.len() / 12;
    let (head, out) = out.split_at_mut((blocks * 16).min(out.len()));
    let (whole, rest) = input.split_at(blocks * 12);
    for (i, o) in whole.chunks_exact(12).zip(head.chunks_exact_mut(16)) {
        let a = u64::from_be_bytes([i[0], i[1], i[2], i[3], i[4], i[5], 0, 0]);
        let b = u64::from_be_bytes([i[6], i[7], i[8], i[9], i[10], i[11], 0, 0]);
        o[..8].copy_from_slice(&eight_chars(a));
        o[8..].copy_from_slice(&eight_chars(b));
    }
    let mut triples = rest.chunks_exact(3);
    let mut quads = out.chunks_exact_mut(4);
    for (i, o) in (&mut triples).zip(&mut quads) {
        let w = u64::from_be_bytes([i[0], i[1], i[2], 0, 0, 0, 0, 0]);
        o.copy_from_slice(&eight_chars(w)[..4]);
    }
    let tail = triples.remainder();
    if let Some(o) = quads.next() {
        let w = u64::from_be_bytes([
            tail.first().copied().unwrap_or(0),
            tail.get(1).copied().unwrap_or(0),
            0,
            0,
            0,
            0,
            0,
            0,
        ]);
        let c = eight_chars(w);
        let third = if tail.len() == 2 { c[2] } else { b'=' };
        o.copy_from_slice(&[c[0], c[1], third, b'=']);
    }
}
