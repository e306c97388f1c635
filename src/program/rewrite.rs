//! The module XLA's CPU compiler gets: every `stablehlo.custom_call
//! @tpu_custom_call` becomes a typed XLA FFI custom call of ours
//! (`api_version = 4`, target [`FFI_TARGET`], `backend_config = {tcc_site =
//! N : i64}`), everything else as it was.
//!
//! JAX's pretty text (`Lowered.as_text()`, `Exported.mlir_module()`) is
//! rewritten as text, call statement by call statement, so every other byte
//! reaches XLA as JAX wrote it (the StableHLO, CHLO and Shardy ops our
//! pass-through dialects only partly know). Generic text and bytecode are
//! read into a module, the calls' attributes set, and printed in generic
//! form. The call keeps its operands, results, `operand_layouts`,
//! `result_layouts`, `output_operand_aliases`, `has_side_effect` and
//! shardings, so XLA lays out and aliases the buffers as on a TPU.
//! One compatibility rewrite besides: JAX 0.12's
//! `#stablehlo.replica_group_mesh_axes`, which the plugin's StableHLO does
//! not know, becomes the explicit groups it stands for
//! ([`explicit_replica_groups`]).

use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use melior::ir::{Attribute, OperationRef};

use crate::context::capture;
use crate::decode::{dictionary_entries, is_tpu_custom_call, matching};
use crate::kernel::{BYTECODE_MAGIC, PrintOptions};

use super::ProgramError;

/// The custom-call target our handler is registered under with XLA.
pub const FFI_TARGET: &str = "tpu_custom_call_cpu_executor";

/// The name of the call-site attribute in the rewritten `backend_config`.
pub const SITE_ATTRIBUTE: &str = "tcc_site";

/// What a call site becomes: its process-wide id ([`SITE_ATTRIBUTE`]).
#[derive(Clone, Copy, Debug)]
pub struct SiteRewrite {
    /// The site id.
    pub site: u64,
}

/// The module text for XLA: `sites[i]` for call `i` (pre-order, as
/// [`crate::decode::find_calls`] numbers them).
pub fn rewrite_module(
    ctx: &crate::Context,
    bytes: &[u8],
    name: &str,
    sites: &[SiteRewrite],
) -> Result<String, ProgramError> {
    let text = if !bytes.starts_with(BYTECODE_MAGIC)
        && let Ok(text) = std::str::from_utf8(bytes)
        && text.contains("stablehlo.custom_call @")
    {
        rewrite_pretty(ctx, text, name, sites)?
    } else {
        rewrite_parsed(ctx, bytes, name, sites)?
    };
    explicit_replica_groups(&text).map_err(|m| bad(name, m))
}

/// JAX 0.12 writes the replica groups of a collective inside `shard_map`
/// over a Shardy mesh as `#stablehlo.replica_group_mesh_axes<mesh = @m,
/// axes = [#stablehlo.axis_ref<name = "x">]>`, which the plugin's StableHLO
/// (v1.13.3) does not know ("unknown StableHLO attribute", measured). Each
/// becomes the explicit groups it stands for, `dense<[[0, 1, 2, 3]]> :
/// tensor<1x4xi64>`: one group per coordinate of the mesh's other axes, the
/// devices along the named axes (the first named the major one), numbered
/// by the mesh's `device_ids` (default: row-major iota). Sub-axes are left
/// as they are (XLA then refuses them by name).
pub fn explicit_replica_groups(text: &str) -> Result<String, String> {
    const NEEDLE: &str = "#stablehlo.replica_group_mesh_axes<";
    if !text.contains(NEEDLE) {
        return Ok(text.to_string());
    }
    let meshes = super::sharding::Mesh::all_in_text(text).map_err(|e| e.to_string())?;
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    while let Some(found) = text[from..].find(NEEDLE) {
        let start = from + found;
        let open = start + NEEDLE.len() - 1;
        let close = matching_angle(text, open).ok_or("unclosed replica_group_mesh_axes")?;
        let inner = &text[open + 1..close];
        out.push_str(&text[from..start]);
        match mesh_groups(inner, &meshes) {
            Some(groups) => {
                let n = groups.len();
                let k = groups.first().map_or(0, Vec::len);
                let rows: Vec<String> = groups
                    .iter()
                    .map(|g| {
                        format!(
                            "[{}]",
                            g.iter()
                                .map(ToString::to_string)
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    })
                    .collect();
                out.push_str(&format!(
                    "dense<[{}]> : tensor<{n}x{k}xi64>",
                    rows.join(", ")
                ));
            }
            None => out.push_str(&text[start..=close]),
        }
        from = close + 1;
    }
    out.push_str(&text[from..]);
    Ok(out)
}

/// The index of the `>` closing the `<` at `open` (strings skipped, `->`
/// not counted).
fn matching_angle(text: &str, open: usize) -> Option<usize> {
    let b = text.as_bytes();
    let (mut depth, mut i) = (0i32, open);
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'<' => depth += 1,
            b'>' if i > 0 && b[i - 1] == b'-' => {}
            b'>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The groups of `mesh = @m, axes = [...]`, or `None` when they are not
/// plain axes of a known mesh.
fn mesh_groups(inner: &str, meshes: &[super::sharding::Mesh]) -> Option<Vec<Vec<usize>>> {
    let name = inner.split("mesh = @").nth(1)?;
    let name = &name[..name.find([',', ' ', '>']).unwrap_or(name.len())];
    let mesh = meshes.iter().find(|m| m.name == name)?;
    let axes_text = inner.split("axes = [").nth(1)?;
    if axes_text.contains("sub_axis") {
        return None;
    }
    let mut named = Vec::new();
    for part in axes_text.split("name = \"").skip(1) {
        let n = &part[..part.find('"')?];
        named.push(mesh.axes.iter().position(|(a, _)| a == n)?);
    }
    let sizes: Vec<usize> = mesh.axes.iter().map(|&(_, s)| s).collect();
    let total: usize = sizes.iter().product();
    let ids: Vec<usize> = mesh
        .device_ids
        .clone()
        .unwrap_or_else(|| (0..total).collect());
    if ids.len() != total {
        return None;
    }
    let others: Vec<usize> = (0..sizes.len()).filter(|a| !named.contains(a)).collect();
    // Row-major position of a full coordinate.
    let flat = |coord: &[usize]| {
        coord
            .iter()
            .zip(&sizes)
            .fold(0, |acc, (&c, &s)| acc * s + c)
    };
    let count = |axes: &[usize]| axes.iter().map(|&a| sizes[a]).product::<usize>();
    let coords = |axes: &[usize], mut k: usize, coord: &mut Vec<usize>| {
        for &a in axes.iter().rev() {
            coord[a] = k % sizes[a];
            k /= sizes[a];
        }
    };
    let mut groups = Vec::new();
    for o in 0..count(&others) {
        let mut coord = vec![0; sizes.len()];
        coords(&others, o, &mut coord);
        let mut group = Vec::new();
        for g in 0..count(&named) {
            coords(&named, g, &mut coord);
            group.push(ids[flat(&coord)]);
        }
        groups.push(group);
    }
    Some(groups)
}

fn bad(name: &str, message: impl Into<String>) -> ProgramError {
    ProgramError::Module {
        source_name: name.to_string(),
        message: message.into(),
    }
}

/// Rewrites each pretty `stablehlo.custom_call @tpu_custom_call(...) {...}
/// : (...) -> ...` statement in place.
fn rewrite_pretty(
    ctx: &crate::Context,
    text: &str,
    name: &str,
    sites: &[SiteRewrite],
) -> Result<String, ProgramError> {
    const NEEDLE: &str = "stablehlo.custom_call @tpu_custom_call(";
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    let mut index = 0;
    while let Some(found) = text[from..].find(NEEDLE) {
        let start = from + found;
        let line = text[..start].matches('\n').count() + 1;
        let err = |m: &str| bad(name, format!("line {line}: {m}"));
        let site = sites
            .get(index)
            .ok_or_else(|| err("more tpu_custom_calls than decoded"))?;
        let open = start + NEEDLE.len() - 1;
        let close = matching(text, open, b'(', b')').ok_or_else(|| err("unbalanced operands"))?;
        let rest = &text[close + 1..];
        let dict_start = close + 1 + (rest.len() - rest.trim_start().len());
        if !text[dict_start..].starts_with('{') {
            return Err(err("expected an attribute dictionary after the operands"));
        }
        let dict_end =
            matching(text, dict_start, b'{', b'}').ok_or_else(|| err("unbalanced attributes"))?;
        let after = text[dict_end + 1..].trim_start();
        let Some(ty) = after.strip_prefix(':') else {
            return Err(err("expected `:` and the function type"));
        };
        let ty_start = text.len() - ty.trim_start().len();
        let operands = &text[open + 1..close];
        let dict =
            rewrite_dict(ctx, &text[dict_start..=dict_end], site, false).map_err(|m| err(&m))?;
        out.push_str(&text[from..start]);
        out.push_str(&format!(
            "stablehlo.custom_call @{FFI_TARGET}({operands}) {dict} : "
        ));
        from = ty_start;
        index += 1;
    }
    out.push_str(&text[from..]);
    if index != sites.len() {
        return Err(bad(
            name,
            format!(
                "{} tpu_custom_call(s) decoded, {index} found in the text",
                sites.len()
            ),
        ));
    }
    Ok(out)
}

/// Whether `name` prints bare as a dictionary key.
fn bare_key(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'))
}

/// A call's attribute dictionary (or generic properties) with the typed FFI
/// call's entries: `call_target_name` (in `generic` properties only: the
/// pretty form prints it as `@name`), `api_version = 4`, `backend_config`
/// with the site.
fn rewrite_dict(
    ctx: &crate::Context,
    dict_text: &str,
    site: &SiteRewrite,
    generic: bool,
) -> Result<String, String> {
    let (dict, diagnostics) = capture(ctx, || Attribute::parse(ctx, dict_text));
    let dict = dict.ok_or_else(|| {
        format!(
            "the call's attributes do not parse: {}",
            diagnostics
                .iter()
                .map(|d| d.message.clone())
                .collect::<Vec<_>>()
                .join("; ")
        )
    })?;
    Ok(format!(
        "{{{}}}",
        dict_entries(dictionary_entries(dict), site, generic).join(", ")
    ))
}

/// The entries of the rewritten dictionary, printed.
fn dict_entries(
    entries: Vec<(String, Attribute<'_>)>,
    site: &SiteRewrite,
    generic: bool,
) -> Vec<String> {
    let mut out = Vec::new();
    for (key, value) in entries {
        let value = value.to_string();
        let printed_key = if bare_key(&key) {
            key.clone()
        } else {
            format!("{key:?}")
        };
        match key.as_str() {
            "backend_config" | "api_version" | "call_target_name" => {}
            _ => out.push(format!("{printed_key} = {value}")),
        }
    }
    out.push("api_version = 4 : i32".to_string());
    out.push(format!(
        "backend_config = {{{SITE_ATTRIBUTE} = {} : i64}}",
        site.site
    ));
    if generic {
        out.push(format!("call_target_name = \"{FFI_TARGET}\""));
    }
    out
}

/// Generic text or bytecode: the module is read, each call's attributes
/// set, and the module printed in generic form.
fn rewrite_parsed(
    ctx: &crate::Context,
    bytes: &[u8],
    name: &str,
    sites: &[SiteRewrite],
) -> Result<String, ProgramError> {
    let module =
        crate::interop::read_module(ctx, bytes, name).map_err(|e| bad(name, e.to_string()))?;
    let mut ops = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if is_tpu_custom_call(op) {
            ops.push(op.to_raw());
        }
        WalkResult::Advance
    });
    if ops.len() != sites.len() {
        return Err(bad(
            name,
            format!(
                "{} tpu_custom_call(s) decoded, {} found in the module",
                sites.len(),
                ops.len()
            ),
        ));
    }
    for (raw, site) in ops.into_iter().zip(sites) {
        // SAFETY: `raw` was collected from the live module above.
        let op = unsafe { OperationRef::from_raw(raw) };
        let set = |key: &str, text: &str| -> Result<(), ProgramError> {
            let attr = Attribute::parse(ctx, text)
                .ok_or_else(|| bad(name, format!("cannot build attribute `{text}`")))?;
            crate::ffi::set_attribute_by_name(op, key, attr);
            Ok(())
        };
        set("call_target_name", &format!("\"{FFI_TARGET}\""))?;
        set("api_version", "4 : i32")?;
        set(
            "backend_config",
            &format!("{{{SITE_ATTRIBUTE} = {} : i64}}", site.site),
        )?;
    }
    crate::kernel::print_module(
        &module,
        PrintOptions {
            generic: true,
            debug_info: false,
        },
    )
    .map_err(|e| bad(name, e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mesh_axes_become_explicit_replica_groups() {
        let text = r#"sdy.mesh @m = <["x"=2, "y"=2]>
  %2 = "stablehlo.all_reduce"(%1) <{replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @m, axes = [#stablehlo.axis_ref<name = "y">]>, use_global_device_ids}>
  %3 = "stablehlo.all_reduce"(%1) <{replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @m, axes = [#stablehlo.axis_ref<name = "x">]>}>
  %4 = "stablehlo.all_reduce"(%1) <{replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @m, axes = [#stablehlo.axis_ref<name = "y">, #stablehlo.axis_ref<name = "x">]>}>"#;
        let out = explicit_replica_groups(text).unwrap();
        assert!(
            out.contains("replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global"),
            "{out}"
        );
        assert!(
            out.contains("replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>}>"),
            "{out}"
        );
        assert!(
            out.contains("replica_groups = dense<[[0, 2, 1, 3]]> : tensor<1x4xi64>}>"),
            "{out}"
        );
        let with_ids = r#"sdy.mesh @m = <["x"=4], device_ids=[3, 2, 1, 0]>
  <{replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @m, axes = [#stablehlo.axis_ref<name = "x">]>}>"#;
        assert!(
            explicit_replica_groups(with_ids)
                .unwrap()
                .contains("dense<[[3, 2, 1, 0]]>")
        );
    }

    #[test]
    fn keys_print_bare_or_quoted() {
        assert!(bare_key("mhlo.sharding"));
        assert!(!bare_key("a b"));
    }
}
