//! `BackendConfig::from_json`: reads what JAX writes and the protobuf-JSON
//! spellings of the same message (camelCase keys, int64 as strings).

use base64::Engine as _;
use base64::engine::DecodePaddingMode;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, STANDARD};

use super::ReadError;
use super::json::{JsonPath, JsonSyntaxError, JsonValue, parse_json};
use super::{BackendConfig, CostEstimate, DeviceType, FlagValue, MemorySpace, OptLevel, Tiling};

/// A key the reader does not know, kept with its value.
#[derive(Clone, Debug, PartialEq)]
pub struct UnknownKey {
    /// Where it was (the key itself is the last segment).
    pub path: JsonPath,
    /// Its value.
    pub value: JsonValue,
}

/// What the reader learnt beyond the [`BackendConfig`] itself.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReadReport {
    /// Keys the model has no field for, in document order (not dropped
    /// silently: callers should warn).
    pub unknown_keys: Vec<UnknownKey>,
    /// `Some(true)` when `sparse_core_config.core_ids` was written,
    /// `Some(false)` for `megachip_parallelism_config`, `None` when the JSON
    /// does not tell (then any value rewrites the same bytes).
    pub use_core_ids: Option<bool>,
}

impl ReadReport {
    /// The `use_core_ids` to pass to [`BackendConfig::to_json`] to rewrite
    /// the same bytes (JAX's default, true, when the JSON does not tell).
    pub fn use_core_ids_or_default(&self) -> bool {
        self.use_core_ids.unwrap_or(true)
    }
}

/// `camelCase` → `snake_case` (protobuf JSON names → field names).
fn snake_case(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// An object being read: members by snake_case name, leftovers reported.
struct Obj {
    path: JsonPath,
    members: Vec<(String, String, JsonValue)>, // (canonical, as written, value)
}

impl Obj {
    fn new(value: JsonValue, path: JsonPath) -> Result<Obj, ReadError> {
        let JsonValue::Object(members) = value else {
            return Err(wrong(&path, "an object", &value));
        };
        let mut out: Vec<(String, String, JsonValue)> = Vec::with_capacity(members.len());
        for (key, value) in members {
            let canonical = snake_case(&key);
            if out.iter().any(|(c, _, _)| *c == canonical) {
                return Err(ReadError::DuplicateKey {
                    path,
                    key: canonical,
                });
            }
            out.push((canonical, key, value));
        }
        Ok(Obj { path, members: out })
    }

    fn take(&mut self, name: &str) -> Option<(JsonValue, JsonPath)> {
        let i = self.members.iter().position(|(c, _, _)| c == name)?;
        let (_, written, value) = self.members.remove(i);
        Some((value, self.path.key(&written)))
    }

    fn require(&mut self, name: &str) -> Result<(JsonValue, JsonPath), ReadError> {
        self.take(name).ok_or_else(|| ReadError::MissingKey {
            path: self.path.clone(),
            key: name.to_string(),
        })
    }

    fn finish(self, report: &mut ReadReport) {
        for (_, written, value) in self.members {
            report.unknown_keys.push(UnknownKey {
                path: self.path.key(&written),
                value,
            });
        }
    }

    fn bool(&mut self, name: &str, default: bool) -> Result<bool, ReadError> {
        match self.take(name) {
            None => Ok(default),
            Some((JsonValue::Bool(b), _)) => Ok(b),
            Some((other, path)) => Err(wrong(&path, "true or false", &other)),
        }
    }

    fn u64(&mut self, name: &str) -> Result<Option<u64>, ReadError> {
        self.take(name).map(|(v, p)| uint(&v, &p)).transpose()
    }
}

fn wrong(path: &JsonPath, expected: &str, found: &JsonValue) -> ReadError {
    ReadError::WrongType {
        path: path.clone(),
        expected: expected.to_string(),
        found: match found {
            // Out of range or negative: say which number.
            JsonValue::Number(n) => format!("{} ({})", found.kind(), n.as_str()),
            other => other.kind().to_string(),
        },
    }
}

/// An integer, as a number or (protobuf int64) as a string of digits.
fn int(value: &JsonValue, path: &JsonPath) -> Result<i128, ReadError> {
    let text = match value {
        JsonValue::Number(n) if n.is_integer() => n.as_str(),
        JsonValue::String(s) => s.as_str(),
        other => return Err(wrong(path, "an integer", other)),
    };
    text.parse::<i128>()
        .map_err(|_| wrong(path, "an integer", value))
}

fn uint(value: &JsonValue, path: &JsonPath) -> Result<u64, ReadError> {
    u64::try_from(int(value, path)?)
        .map_err(|_| wrong(path, "a non-negative 64-bit integer", value))
}

fn string(value: JsonValue, path: &JsonPath) -> Result<String, ReadError> {
    match value {
        JsonValue::String(s) => Ok(s),
        other => Err(wrong(path, "a string", &other)),
    }
}

fn array(value: JsonValue, path: &JsonPath) -> Result<Vec<JsonValue>, ReadError> {
    match value {
        JsonValue::Array(items) => Ok(items),
        other => Err(wrong(path, "an array", &other)),
    }
}

fn unsupported(path: &JsonPath, message: impl Into<String>) -> ReadError {
    ReadError::Unsupported {
        path: path.clone(),
        message: message.into(),
    }
}

/// Standard base64 with padding (what JAX writes); protobuf JSON readers also
/// accept URL-safe and unpadded text, so do we.
fn base64(value: JsonValue, path: &JsonPath) -> Result<Vec<u8>, ReadError> {
    let text = string(value, path)?;
    match STANDARD.decode(text.as_bytes()) {
        Ok(bytes) => Ok(bytes),
        Err(first) => {
            let lenient = GeneralPurposeConfig::new()
                .with_decode_padding_mode(DecodePaddingMode::Indifferent);
            let url = GeneralPurpose::new(&base64::alphabet::URL_SAFE, lenient);
            let std = GeneralPurpose::new(&base64::alphabet::STANDARD, lenient);
            std.decode(text.as_bytes())
                .or_else(|_| url.decode(text.as_bytes()))
                .map_err(|_| ReadError::Base64 {
                    path: path.clone(),
                    message: first.to_string(),
                })
        }
    }
}

/// `implicit_sharding`: an `xla.OpSharding` object, refused where libtpu
/// 0.0.50.1's proto reader refuses it (in its words).
fn implicit_sharding(
    value: JsonValue,
    path: &JsonPath,
) -> Result<super::ImplicitSharding, ReadError> {
    let JsonValue::Object(members) = &value else {
        return Err(unsupported(
            path,
            format!(
                "libtpu reads it as message xla.OpSharding: expected '{{', found {}",
                value.kind()
            ),
        ));
    };
    for (key, item) in members {
        let field = snake_case(key);
        if !super::OP_SHARDING_FIELDS.contains(&field.as_str()) {
            return Err(unsupported(
                &path.key(key),
                format!(
                    "no such field: '{key}' in message xla.OpSharding (libtpu refuses it; fields: {})",
                    super::OP_SHARDING_FIELDS.join(", ")
                ),
            ));
        }
        if field == "type" {
            match item {
                JsonValue::String(name) if super::OP_SHARDING_TYPES.contains(&name.as_str()) => {}
                JsonValue::Number(n) if n.is_integer() => {}
                JsonValue::String(name) => {
                    return Err(unsupported(
                        &path.key(key),
                        format!(
                            "unknown enum value: '{name}' (libtpu's words; xla.OpSharding.Type is one of {})",
                            super::OP_SHARDING_TYPES.join(", ")
                        ),
                    ));
                }
                other => return Err(wrong(&path.key(key), "an enum name or number", other)),
            }
        }
    }
    Ok(super::ImplicitSharding { value })
}

/// `["0"]`: the single core of a one-core SparseCore kernel.
fn core_zero(value: JsonValue, path: &JsonPath) -> Result<(), ReadError> {
    let items = array(value, path)?;
    let ok = items.len() == 1 && int(&items[0], &path.index(0)).ok() == Some(0);
    if ok {
        Ok(())
    } else {
        Err(unsupported(
            path,
            "only [\"0\"] (a single-core SparseCore kernel) is supported",
        ))
    }
}

fn color(obj: &mut Obj) -> Result<MemorySpace, ReadError> {
    let (value, path) = obj.require("color")?;
    let c = uint(&value, &path)?;
    MemorySpace::from_color(c).ok_or_else(|| {
        unsupported(
            &path,
            format!("unknown memory space color {c} (colors are 0, 1, 2, 4, 5, 8, 10, 11, 12)"),
        )
    })
}

fn index(value: &JsonValue, path: &JsonPath) -> Result<usize, ReadError> {
    let v = uint(value, path)?;
    usize::try_from(v)
        .ok()
        .filter(|v| *v < 1 << 20)
        .ok_or_else(|| unsupported(path, format!("index {v} is too large")))
}

fn place(
    list: &mut Vec<Option<MemorySpace>>,
    i: usize,
    ms: MemorySpace,
    path: &JsonPath,
) -> Result<(), ReadError> {
    if list.len() <= i {
        list.resize(i + 1, None);
    }
    if list[i].is_some() {
        return Err(unsupported(path, format!("index {i} is given twice")));
    }
    list[i] = Some(ms);
    Ok(())
}

fn output_colors(
    value: JsonValue,
    path: &JsonPath,
    report: &mut ReadReport,
) -> Result<Option<Vec<Option<MemorySpace>>>, ReadError> {
    let items = array(value, path)?;
    let mut list = Vec::new();
    let mut tuple = None;
    for (i, item) in items.into_iter().enumerate() {
        let mut obj = Obj::new(item, path.index(i))?;
        let ms = color(&mut obj)?;
        let shape_index = obj.take("shape_index");
        if tuple.is_some_and(|t| t != shape_index.is_some()) {
            return Err(unsupported(
                &path.index(i),
                "either every entry has a shape_index or none has",
            ));
        }
        tuple = Some(shape_index.is_some());
        match shape_index {
            Some((value, p)) => {
                let idx = array(value, &p)?;
                if idx.len() != 1 {
                    return Err(unsupported(&p, "shape_index must have exactly one entry"));
                }
                let k = index(&idx[0], &p.index(0))?;
                place(&mut list, k, ms, &p)?;
            }
            None => {
                if !list.is_empty() {
                    return Err(unsupported(
                        &path.index(i),
                        "only one entry without shape_index is possible",
                    ));
                }
                list.push(Some(ms));
            }
        }
        obj.finish(report);
    }
    if list.is_empty() {
        return Ok(None);
    }
    if tuple == Some(true) && list.len() < 2 {
        // A tuple result: keep it a tuple so it is written back with shape_index.
        list.resize(2, None);
    }
    Ok(Some(list))
}

fn input_colors(
    value: JsonValue,
    path: &JsonPath,
    report: &mut ReadReport,
) -> Result<Option<Vec<Option<MemorySpace>>>, ReadError> {
    let items = array(value, path)?;
    let mut list = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        let mut obj = Obj::new(item, path.index(i))?;
        let (value, p) = obj.require("operand_index")?;
        let k = index(&value, &p)?;
        let ms = color(&mut obj)?;
        place(&mut list, k, ms, &path.index(i))?;
        obj.finish(report);
    }
    Ok((!list.is_empty()).then_some(list))
}

fn flags(
    value: JsonValue,
    path: &JsonPath,
    report: &mut ReadReport,
) -> Result<Vec<(String, FlagValue)>, ReadError> {
    let items = array(value, path)?;
    let mut out: Vec<(String, FlagValue)> = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let item_path = path.index(i);
        let mut obj = Obj::new(item, item_path.clone())?;
        let (name, p) = obj.require("flag_type")?;
        let name = string(name, &p)?;
        if out.iter().any(|(n, _)| *n == name) {
            return Err(unsupported(&p, format!("flag {name:?} is given twice")));
        }
        let (value, p) = obj.require("value")?;
        let mut v = Obj::new(value, p.clone())?;
        let mut found = Vec::new();
        if let Some((b, bp)) = v.take("boolean_value") {
            match b {
                JsonValue::Bool(b) => found.push(FlagValue::Bool(b)),
                other => return Err(wrong(&bp, "true or false", &other)),
            }
        }
        if let Some((n, np)) = v.take("integer_value") {
            let n = int(&n, &np)?;
            let n = i64::try_from(n)
                .map_err(|_| unsupported(&np, "integer_value must fit in int64"))?;
            found.push(FlagValue::Int(n));
        }
        if let Some((d, dp)) = v.take("double_value") {
            let d = match &d {
                JsonValue::Number(n) => n.as_f64(),
                JsonValue::String(s) => s.parse::<f64>().map_err(|_| wrong(&dp, "a number", &d))?,
                other => return Err(wrong(&dp, "a number", other)),
            };
            if !d.is_finite() {
                return Err(unsupported(&dp, "double_value must be finite"));
            }
            found.push(FlagValue::Double(d));
        }
        if found.len() != 1 {
            return Err(unsupported(
                &p,
                "a flag value has exactly one of boolean_value, integer_value, double_value",
            ));
        }
        v.finish(report);
        obj.finish(report);
        out.push((name, found[0]));
    }
    Ok(out)
}

impl BackendConfig {
    /// Reads a `backend_config` JSON document: everything JAX 0.12 writes,
    /// and the protobuf-JSON spellings (camelCase keys, int64 as strings,
    /// omitted zero/false fields).
    ///
    /// Keys the model has no field for are kept in the [`ReadReport`], not
    /// dropped. Malformed JSON, duplicate keys (also `collective_id` next to
    /// `collectiveId`), wrong types, bad base64 and values the model cannot
    /// hold are errors naming the JSON path.
    ///
    /// For every config JAX writes, `from_json(b)` then `to_json` with
    /// [`ReadReport::use_core_ids_or_default`] gives `b` back byte for byte.
    /// `ir_version` is `None` (it lives in the body) and `active_core_count`
    /// is `Some(1)` only when the JSON says so.
    pub fn from_json(bytes: &[u8]) -> Result<(BackendConfig, ReadReport), ReadError> {
        let root = parse_json(bytes).map_err(|e| match e {
            JsonSyntaxError::Malformed { path, message, .. } => ReadError::Json { path, message },
            JsonSyntaxError::DuplicateKey { path, key } => ReadError::DuplicateKey { path, key },
        })?;
        let mut report = ReadReport::default();
        let mut top = Obj::new(root, JsonPath::root())?;
        let (ccc, ccc_path) = top.require("custom_call_config")?;
        let mut ccc = Obj::new(ccc, ccc_path)?;

        let (body, body_path) = ccc.require("body")?;
        let mut c = BackendConfig {
            body: base64(body, &body_path)?,
            ir_version: None,
            has_communication: ccc.bool("has_communication", false)?,
            ..BackendConfig::default()
        };
        if let Some((v, p)) = ccc.take("collective_id") {
            let n = int(&v, &p)?;
            c.collective_id =
                Some(i32::try_from(n).map_err(|_| wrong(&p, "a 32-bit integer", &v))?);
        }
        if let Some((v, p)) = ccc.take("cost_estimate") {
            let mut obj = Obj::new(v, p)?;
            c.cost_estimate = Some(CostEstimate {
                bytes_accessed: obj.u64("bytes_accessed")?.unwrap_or(0),
                flops: obj.u64("flops")?.unwrap_or(0),
                remote_bytes_transferred: obj.u64("remote_bytes_transferred")?.unwrap_or(0),
                transcendentals: obj.u64("transcendentals")?.unwrap_or(0),
            });
            obj.finish(&mut report);
        }
        c.needs_hlo_passes = ccc.bool("needs_hlo_passes", false)?;
        c.serialization_format = match ccc.take("serialization_format") {
            None => None,
            Some((v, p)) => {
                let n = uint(&v, &p)?;
                Some(u32::try_from(n).map_err(|_| wrong(&p, "a 32-bit integer", &v))?)
            }
        };
        c.needs_layout_passes = ccc.bool("needs_layout_passes", false)?;
        c.shape_invariant_numerics = ccc.bool("shape_invariant_numerics", true)?;
        if let Some((v, p)) = ccc.take("allow_input_fusion") {
            let items = array(v, &p)?;
            let mut list = Vec::with_capacity(items.len());
            for (i, item) in items.into_iter().enumerate() {
                match item {
                    JsonValue::Bool(b) => list.push(b),
                    other => return Err(wrong(&p.index(i), "true or false", &other)),
                }
            }
            c.allow_input_fusion = Some(list);
        }
        c.internal_scratch_in_bytes = ccc.u64("internal_scratch_in_bytes")?;
        if let Some((v, p)) = ccc.take("output_memory_space_colors") {
            c.output_memory_spaces = output_colors(v, &p, &mut report)?;
        }
        if let Some((v, p)) = ccc.take("input_memory_space_colors") {
            c.input_memory_spaces = input_colors(v, &p, &mut report)?;
        }
        c.disable_bounds_checks = ccc.bool("disable_bounds_checks", false)?;
        c.disable_semaphore_checks = ccc.bool("disable_semaphore_checks", false)?;
        c.skip_device_barrier = ccc.bool("skip_device_barrier", false)?;
        if let Some((v, p)) = ccc.take("debug_locations") {
            let blob = base64(v, &p)?;
            c.debug_locations = (!blob.is_empty()).then_some(blob);
        }
        ccc.finish(&mut report);

        let sparse_core_config = top.take("sparse_core_config");
        if let Some((v, p)) = top.take("device_type") {
            let name = string(v, &p)?;
            c.device_type = Some(DeviceType::from_proto_name(&name).ok_or_else(|| {
                unsupported(&p, format!("unknown device type {name:?} (DEVICE_TYPE_TENSORCORE, DEVICE_TYPE_SPARSECORE)"))
            })?);
        }
        if let Some((v, p)) = sparse_core_config {
            if !c.is_sparse_core() {
                return Err(unsupported(
                    &p,
                    "sparse_core_config needs device_type DEVICE_TYPE_SPARSECORE",
                ));
            }
            let mut obj = Obj::new(v, p)?;
            if let Some((v, p)) = obj.take("core_ids") {
                core_zero(v, &p)?;
                c.active_core_count = Some(1);
                report.use_core_ids = Some(true);
            }
            if let Some((v, p)) = obj.take("tiling") {
                let name = string(v, &p)?;
                c.tiling = Some(Tiling::parse(&name).ok_or_else(|| {
                    unsupported(
                        &p,
                        format!("unknown tiling {name:?} (TILING_COMPACT, TILING_SPARSE_CORE)"),
                    )
                })?);
            }
            if let Some((v, p)) = obj.take("comp_env") {
                let mut env = Obj::new(v, p)?;
                if let Some((v, p)) = env.take("backend_opt_level") {
                    let name = string(v, &p)?;
                    c.opt_level = Some(OptLevel::parse(&name).ok_or_else(|| {
                        unsupported(&p, format!("unknown opt level {name:?} (O0, O1, O2, O3)"))
                    })?);
                }
                env.finish(&mut report);
            }
            obj.finish(&mut report);
        }
        if c.is_sparse_core() {
            c.tiling.get_or_insert(Tiling::Compact);
        }
        if let Some((v, p)) = top.take("scoped_memory_configs") {
            let items = array(v, &p)?;
            if items.len() != 1 {
                return Err(unsupported(
                    &p,
                    "exactly one scoped memory config (VMEM) is supported",
                ));
            }
            let item_path = p.index(0);
            let mut obj = Obj::new(
                items.into_iter().next().unwrap_or(JsonValue::Null),
                item_path.clone(),
            )?;
            let space = obj.u64("memory_space")?.unwrap_or(0);
            let offset = obj.u64("offset")?.unwrap_or(0);
            if space != 1 || offset != 0 {
                return Err(unsupported(
                    &item_path,
                    "only memory_space 1 (VMEM) at offset 0 is supported",
                ));
            }
            let (size, sp) = obj.require("size")?;
            c.vmem_limit_bytes = Some(uint(&size, &sp)?);
            obj.finish(&mut report);
        }
        if let Some((v, p)) = top.take("flag_configs") {
            c.flags = Some(flags(v, &p, &mut report)?);
        }
        if let Some((v, p)) = top.take("megachip_parallelism_config") {
            if !c.is_sparse_core() {
                return Err(unsupported(
                    &p,
                    "megachip_parallelism_config needs device_type DEVICE_TYPE_SPARSECORE",
                ));
            }
            if report.use_core_ids == Some(true) {
                return Err(unsupported(
                    &p,
                    "megachip_parallelism_config and sparse_core_config.core_ids exclude each other",
                ));
            }
            let mut obj = Obj::new(v, p)?;
            let (cores, cp) = obj.require("cores")?;
            core_zero(cores, &cp)?;
            c.active_core_count = Some(1);
            report.use_core_ids = Some(false);
            obj.finish(&mut report);
        }
        if let Some((v, p)) = top.take("implicit_sharding") {
            c.implicit_sharding = Some(implicit_sharding(v, &p)?);
        }
        top.finish(&mut report);
        Ok((c, report))
    }
}
