//! Sharding annotations of a program's `@main`, and global arrays split
//! into per-device shards and assembled back.
//!
//! JAX writes how each argument and result of a sharded program is laid out
//! over the program's devices in one of two forms:
//!
//! - GSPMD: `mhlo.sharding = "{devices=[4,1]<=[4]}"`, `"{replicated}"`,
//!   `"{maximal device=0}"`, `"{devices=[2,1,2]<=[4] last_tile_dim_replicate}"`,
//!   transposed iotas (`<=[2,2]T(1,0)`) and explicit device lists
//!   (`{devices=[2,2]0,2,1,3}`): [`Sharding::parse_hlo`];
//! - Shardy (JAX's default): `sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>`
//!   over a module-level `sdy.mesh @mesh = <["x"=4]>` (axes, optional
//!   `device_ids`, sub-axes `"x":(1)2`, open `?` dimensions, priorities,
//!   `replicated={...}`): [`Mesh::parse`] and [`Sharding::parse_sdy`].
//!
//! Both become one [`Sharding`]: replicated, maximal (one device holds the
//! value), or tiled (a tile count per dimension, optional copies of each
//! tile, and the device of each tile and copy). Device numbers are the
//! program's logical device ids (partition ids `0..N` of
//! `mhlo.num_partitions = N`), as in the module's text.
//!
//! [`Sharding::split`] cuts a global [`Array`] into one shard per device,
//! as `jax.device_put(x, sharding)` places it; [`Sharding::assemble`] puts
//! per-device results back into the global array, checking that every copy
//! of a tile agrees (an error names the device that disagrees with the first
//! holder of that tile, the element and both values).
//!
//! Decisions (see docs/execute.md): a dimension its tile count does not
//! divide is refused, as JAX refuses it (`jax.device_put` raises, and JAX
//! never lowers an uneven sharding onto `@main`); a maximal value is handed
//! whole to every device (XLA's SPMD partitioner gives it its full shape on
//! every device) and read back from its device only; Shardy's `unreduced`
//! axes (partial sums) and GSPMD's `manual` subgroups are refused with what
//! is unsupported; an unannotated argument or result is replicated (what
//! XLA's partitioner assumes for `@main` without an annotation).
//!
//! [`MainShardings::from_text`] reads every annotation of `@main` from the
//! module's text (JAX's pretty form or the generic form), with the module's
//! `sdy.mesh` declarations and `mhlo.num_partitions`.

use std::fmt;

use crate::exec::{Array, Data};

/// Why a sharding annotation could not be read or applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShardingError {
    /// The text is not a sharding annotation this module reads.
    #[error("cannot read the sharding `{text}`: {message}")]
    Syntax {
        /// The annotation.
        text: String,
        /// What is wrong, and where.
        message: String,
    },
    /// A well-formed annotation of a kind that cannot be split or assembled.
    #[error("the sharding `{text}` is not supported: {what}")]
    Unsupported {
        /// The annotation.
        text: String,
        /// What is not supported, and why.
        what: String,
    },
    /// A Shardy sharding names a mesh the module does not declare.
    #[error(
        "the sharding `{text}` names the mesh @{mesh}, which the module does not declare (sdy.mesh @{mesh} = <...>)"
    )]
    UnknownMesh {
        /// The annotation.
        text: String,
        /// The mesh's name.
        mesh: String,
    },
    /// The sharding does not fit the array or the devices.
    #[error("sharding {sharding} on {what}: {message}")]
    Mismatch {
        /// The sharding, printed in GSPMD form.
        sharding: String,
        /// The array it was applied to (its shape, or its name).
        what: String,
        /// What does not fit.
        message: String,
    },
    /// Copies of the same tile differ between devices.
    #[error("{0}")]
    Disagree(Box<Disagreement>),
}

/// Where two devices' copies of the same tile differ ([`ShardingError::Disagree`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "sharding {sharding}: device {device}'s copy of {what} differs from device {first_device}'s at index {index:?}: {value} vs {first_value}"
)]
pub struct Disagreement {
    /// The sharding, printed in GSPMD form.
    pub sharding: String,
    /// The array (its shape, or its name).
    pub what: String,
    /// The device whose copy differs.
    pub device: usize,
    /// The first device holding the same tile.
    pub first_device: usize,
    /// The global index of the first differing element.
    pub index: Vec<usize>,
    /// `device`'s value.
    pub value: String,
    /// `first_device`'s value.
    pub first_value: String,
}

fn syntax(text: &str, message: impl Into<String>) -> ShardingError {
    ShardingError::Syntax {
        text: text.to_string(),
        message: message.into(),
    }
}

/// How an array is laid out over a program's devices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sharding {
    /// Every device holds the whole array.
    Replicated,
    /// One device holds the array (`{maximal device=N}`).
    Maximal {
        /// The device.
        device: usize,
    },
    /// The array is cut into tiles, each held by one or more devices.
    Tiled(Tiling),
}

/// The tiles of a [`Sharding::Tiled`] array and their devices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tiling {
    /// Tiles along each dimension of the array (at least one above 1).
    pub tiles: Vec<usize>,
    /// Copies of each tile (the trailing replicated dimension of GSPMD's
    /// tile assignment; 1 without one).
    pub replicas: usize,
    /// The device of each tile and copy, row-major over `tiles ++
    /// [replicas]`: each of `0..devices.len()` exactly once.
    pub devices: Vec<usize>,
}

/// The part of a global array one device holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// The device.
    pub device: usize,
    /// The shard's first element in the global array, per dimension.
    pub offsets: Vec<usize>,
    /// The shard's shape.
    pub shape: Vec<usize>,
}

impl Sharding {
    /// A tiled sharding, normalised: no tile above 1 is [`Sharding::Replicated`].
    /// The device list must hold each of `0..tiles*replicas` once.
    pub fn tiled(
        tiles: Vec<usize>,
        replicas: usize,
        devices: Vec<usize>,
    ) -> Result<Sharding, String> {
        let n: usize = tiles.iter().product::<usize>() * replicas;
        if tiles.contains(&0) || replicas == 0 {
            return Err("a tile count of 0".into());
        }
        if devices.len() != n {
            return Err(format!(
                "the tile assignment has {} devices, its dimensions {:?} need {n}",
                devices.len(),
                tiles.iter().chain([&replicas]).collect::<Vec<_>>()
            ));
        }
        let mut seen = vec![false; n];
        for &d in &devices {
            if d >= n {
                return Err(format!("device {d} is outside 0..{n}"));
            }
            if std::mem::replace(&mut seen[d], true) {
                return Err(format!("device {d} appears twice"));
            }
        }
        if tiles.iter().all(|&t| t == 1) {
            return Ok(Sharding::Replicated);
        }
        Ok(Sharding::Tiled(Tiling {
            tiles,
            replicas,
            devices,
        }))
    }

    /// Reads a GSPMD sharding as JAX writes it in `mhlo.sharding` (the
    /// string's value, braces included): `{replicated}`, `{maximal
    /// device=N}`, `{devices=[d0,...]<=[n]}`, `{devices=[...]<=[a,b]T(1,0)}`,
    /// `{devices=[...]i,j,k,...}`, each with an optional `
    /// last_tile_dim_replicate` or ` last_tile_dims={replicated}`; metadata is
    /// ignored. Tuple shardings (`{{...}, {...}}`), `{manual}` and manual
    /// subgroups are refused.
    pub fn parse_hlo(text: &str) -> Result<Sharding, ShardingError> {
        let t = text.trim();
        let inner = t
            .strip_prefix('{')
            .and_then(|s| s.strip_suffix('}'))
            .ok_or_else(|| syntax(text, "a GSPMD sharding is written in braces: {...}"))?
            .trim();
        if inner.starts_with('{') {
            return Err(ShardingError::Unsupported {
                text: text.to_string(),
                what:
                    "a tuple sharding (JAX annotates each argument and result of @main on its own)"
                        .into(),
            });
        }
        // Metadata (`metadata={op_name="..."}`) says where the sharding came from.
        let inner = match inner.find("metadata=") {
            Some(i) => inner[..i].trim(),
            None => inner,
        };
        let words: Vec<&str> = inner.split_whitespace().collect();
        match words.first().copied() {
            Some("replicated") if words.len() == 1 => return Ok(Sharding::Replicated),
            Some("manual") | Some("unknown") => {
                return Err(ShardingError::Unsupported {
                    text: text.to_string(),
                    what: format!(
                        "`{}`: the value has no global layout to split or assemble",
                        words[0]
                    ),
                });
            }
            Some("maximal") => {
                let device = words
                    .get(1)
                    .and_then(|w| w.strip_prefix("device="))
                    .and_then(|n| n.parse().ok())
                    .filter(|_| words.len() == 2)
                    .ok_or_else(|| syntax(text, "expected `maximal device=N`"))?;
                return Ok(Sharding::Maximal { device });
            }
            _ => {}
        }
        let rest = inner.strip_prefix("devices=").ok_or_else(|| {
            syntax(
                text,
                "expected `replicated`, `maximal device=N` or `devices=[...]`",
            )
        })?;
        let (dims, rest) = bracketed_numbers(rest).ok_or_else(|| {
            syntax(
                text,
                "expected the tile assignment's dimensions `devices=[d0,d1,...]`",
            )
        })?;
        let (devices, rest) = if let Some(r) = rest.strip_prefix("<=") {
            let (reshape, r) = bracketed_numbers(r)
                .ok_or_else(|| syntax(text, "expected `<=[n,...]` after the dimensions"))?;
            let (perm, r) = match r.strip_prefix('T') {
                Some(r) => {
                    let r = r
                        .strip_prefix('(')
                        .ok_or_else(|| syntax(text, "expected `T(p0,p1,...)`"))?;
                    let close = r.find(')').ok_or_else(|| syntax(text, "unclosed `T(`"))?;
                    let perm = numbers(&r[..close]).ok_or_else(|| {
                        syntax(text, "the transpose `T(...)` is not a list of numbers")
                    })?;
                    (Some(perm), &r[close + 1..])
                }
                None => (None, r),
            };
            (
                iota_devices(&reshape, perm.as_deref()).map_err(|m| syntax(text, m))?,
                r,
            )
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let list = numbers(&rest[..end])
                .ok_or_else(|| syntax(text, "expected `<=[...]` or a device list `i,j,...`"))?;
            (list, &rest[end..])
        };
        let mut replicate = false;
        for word in rest.split_whitespace() {
            match word {
                "last_tile_dim_replicate" | "last_tile_dims={replicated}" => replicate = true,
                w if w.starts_with("last_tile_dims=") => {
                    return Err(ShardingError::Unsupported {
                        text: text.to_string(),
                        what: format!("`{w}`: only replicated subgroups are supported"),
                    });
                }
                w => return Err(syntax(text, format!("unexpected `{w}`"))),
            }
        }
        let (tiles, replicas) = if replicate {
            let (last, tiles) = dims.split_last().ok_or_else(|| {
                syntax(text, "last_tile_dim_replicate needs a replicated dimension")
            })?;
            (tiles.to_vec(), *last)
        } else {
            (dims, 1)
        };
        Sharding::tiled(tiles, replicas, devices).map_err(|m| syntax(text, m))
    }

    /// Reads a Shardy sharding: `#sdy.sharding<@mesh, [{"x"}, {}]>` (or
    /// without `#sdy.sharding`, as `sdy.manual_computation` prints it, or with
    /// an inline `mesh<[...]>`), over the module's `meshes`.
    pub fn parse_sdy(text: &str, meshes: &[Mesh]) -> Result<Sharding, ShardingError> {
        let t = text.trim();
        let body = t.strip_prefix("#sdy.sharding").unwrap_or(t).trim();
        let body = body
            .strip_prefix('<')
            .and_then(|s| s.strip_suffix('>'))
            .ok_or_else(|| syntax(text, "expected #sdy.sharding<mesh, [dimensions]>"))?
            .trim();
        let (mesh, rest) = if let Some(r) = body.strip_prefix('@') {
            let end = r
                .find(|c: char| c == ',' || c.is_whitespace())
                .unwrap_or(r.len());
            let name = &r[..end];
            let mesh = meshes
                .iter()
                .find(|m| m.name == name)
                .cloned()
                .ok_or_else(|| ShardingError::UnknownMesh {
                    text: text.to_string(),
                    mesh: name.to_string(),
                })?;
            (mesh, &r[end..])
        } else if let Some(r) = body.strip_prefix("mesh") {
            let close = matching(r, 0).ok_or_else(|| syntax(text, "unclosed inline mesh<...>"))?;
            (
                Mesh::parse("", &r[..=close]).map_err(|e| rewrap(e, text))?,
                &r[close + 1..],
            )
        } else {
            return Err(syntax(text, "expected the mesh (`@name` or `mesh<[...]>`)"));
        };
        let rest = rest
            .trim_start()
            .strip_prefix(',')
            .ok_or_else(|| syntax(text, "expected `,` after the mesh"))?
            .trim_start();
        if !rest.starts_with('[') {
            return Err(syntax(text, "expected the dimension shardings `[...]`"));
        }
        let close = matching(rest, 0).ok_or_else(|| syntax(text, "unclosed `[`"))?;
        let dims_text = &rest[1..close];
        let mut dims: Vec<Vec<AxisRef>> = Vec::new();
        for part in split_top(dims_text) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            // `{"x", "y"}`, `{"x", ?}`, `{?}`, `{}p1`
            let close = part
                .find('}')
                .filter(|_| part.starts_with('{'))
                .ok_or_else(|| syntax(text, format!("expected `{{axes}}`, found `{part}`")))?;
            let axes = parse_axis_list(&part[..=close]).map_err(|m| syntax(text, m))?;
            dims.push(axes);
        }
        // `replicated={"y"}` and `unreduced={"x"}` follow the dimensions.
        let tail = rest[close + 1..].trim();
        for item in split_top(tail) {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            if let Some(a) = item.strip_prefix("replicated=") {
                parse_axis_list(a).map_err(|m| syntax(text, m))?;
            } else if item.starts_with("unreduced=") || item.starts_with("reduced=") {
                return Err(ShardingError::Unsupported {
                    text: text.to_string(),
                    what:
                        "unreduced axes (each device holds a partial sum, not a part of the array)"
                            .into(),
                });
            } else {
                return Err(syntax(text, format!("unexpected `{item}`")));
            }
        }
        mesh.sharding(&dims).map_err(|m| syntax(text, m))
    }

    /// The sharding in GSPMD's text (`{devices=[2,1,2]0,1,2,3
    /// last_tile_dim_replicate}`, device lists written out).
    pub fn to_hlo_text(&self) -> String {
        self.to_string()
    }

    /// The devices holding the array (or a part of it), ascending, for a
    /// program of `devices` devices.
    fn holders(&self, devices: usize) -> Vec<usize> {
        match self {
            Sharding::Maximal { device } => vec![*device],
            _ => (0..devices).collect(),
        }
    }

    fn check_devices(&self, devices: usize, what: &str) -> Result<(), ShardingError> {
        let bad = match self {
            Sharding::Replicated => None,
            Sharding::Maximal { device } => (*device >= devices)
                .then(|| format!("device {device} is not one of the program's {devices} devices")),
            Sharding::Tiled(t) => (t.devices.len() != devices).then(|| {
                format!(
                    "the tile assignment has {} devices, the program {devices}",
                    t.devices.len()
                )
            }),
        };
        match bad {
            Some(message) => Err(self.mismatch(what, message)),
            None => Ok(()),
        }
    }

    fn mismatch(&self, what: &str, message: String) -> ShardingError {
        ShardingError::Mismatch {
            sharding: self.to_string(),
            what: what.to_string(),
            message,
        }
    }

    /// The shape of each device's shard of a `shape` array.
    pub fn shard_shape(&self, shape: &[usize]) -> Result<Vec<usize>, ShardingError> {
        match self {
            Sharding::Replicated | Sharding::Maximal { .. } => Ok(shape.to_vec()),
            Sharding::Tiled(t) => {
                let what = shape_text(shape);
                if t.tiles.len() != shape.len() {
                    return Err(self.mismatch(
                        &what,
                        format!(
                            "it tiles {} dimensions, the array has {}",
                            t.tiles.len(),
                            shape.len()
                        ),
                    ));
                }
                shape
                    .iter()
                    .zip(&t.tiles)
                    .enumerate()
                    .map(|(i, (&n, &k))| {
                        if n % k == 0 {
                            Ok(n / k)
                        } else {
                            Err(self.mismatch(
                                &what,
                                format!(
                                    "dimension {i} (size {n}) is not divisible by its {k} tiles \
                                     (JAX refuses uneven shardings too)"
                                ),
                            ))
                        }
                    })
                    .collect()
            }
        }
    }

    /// The shard of each of a program's `devices` devices, in device order.
    pub fn shards(&self, shape: &[usize], devices: usize) -> Result<Vec<Shard>, ShardingError> {
        self.check_devices(devices, &shape_text(shape))?;
        let shard_shape = self.shard_shape(shape)?;
        let Sharding::Tiled(t) = self else {
            return Ok((0..devices)
                .map(|device| Shard {
                    device,
                    offsets: vec![0; shape.len()],
                    shape: shard_shape.clone(),
                })
                .collect());
        };
        let mut out: Vec<Option<Shard>> = vec![None; devices];
        for (pos, &device) in t.devices.iter().enumerate() {
            // `pos` is row-major over tiles ++ [replicas]: drop the copy index.
            let mut tile = pos / t.replicas;
            let mut offsets = vec![0; shape.len()];
            for d in (0..shape.len()).rev() {
                offsets[d] = (tile % t.tiles[d]) * shard_shape[d];
                tile /= t.tiles[d];
            }
            out[device] = Some(Shard {
                device,
                offsets,
                shape: shard_shape.clone(),
            });
        }
        Ok(out
            .into_iter()
            .map(|s| s.expect("checked: every device once"))
            .collect())
    }

    /// Cuts a global array into the shard of each of `devices` devices
    /// (index = device), as `jax.device_put(global, sharding)` places it. A
    /// maximal value is given whole to every device.
    pub fn split(&self, global: &Array, devices: usize) -> Result<Vec<Array>, ShardingError> {
        let shards = self.shards(&global.shape, devices)?;
        Ok(shards
            .iter()
            .map(|s| {
                let idx = block_indices(&global.shape, &s.offsets, &s.shape);
                Array::new(global.elem, s.shape.clone(), global.data.gather(&idx))
            })
            .collect())
    }

    /// Assembles per-device results (index = device) into the global array of
    /// `shape`, checking that every device holding a copy of a tile holds the
    /// same values (floats bit for bit, NaNs alike). A maximal value is read
    /// from its device; the others' are ignored. `what` names the value in
    /// errors (`result 0`).
    pub fn assemble(
        &self,
        parts: &[Array],
        shape: &[usize],
        what: &str,
    ) -> Result<Array, ShardingError> {
        let what = format!("{what} {}", shape_text(shape));
        let devices = parts.len();
        let shards = self.shards(shape, devices).map_err(|e| match e {
            ShardingError::Mismatch {
                sharding, message, ..
            } => ShardingError::Mismatch {
                sharding,
                what: what.clone(),
                message,
            },
            e => e,
        })?;
        let holders = self.holders(devices);
        let Some(first) = holders.first().map(|&d| &parts[d]) else {
            return Err(self.mismatch(&what, "no devices".into()));
        };
        let elem = first.elem;
        for &d in &holders {
            let p = &parts[d];
            if p.elem != elem || p.shape != shards[d].shape {
                return Err(self.mismatch(
                    &what,
                    format!(
                        "device {d} returned {} {}, its shard is {elem} {}",
                        p.elem,
                        shape_text(&p.shape),
                        shape_text(&shards[d].shape)
                    ),
                ));
            }
        }
        let n: usize = shape.iter().product();
        let mut data = Data::filled(elem, n, 0.0);
        // The first holder of each global element (by shard offsets).
        let mut owner: std::collections::HashMap<Vec<usize>, usize> = Default::default();
        for &d in &holders {
            let s = &shards[d];
            let idx = block_indices(shape, &s.offsets, &s.shape);
            match owner.get(&s.offsets) {
                None => {
                    owner.insert(s.offsets.clone(), d);
                    data.scatter(&idx, &parts[d].data);
                }
                Some(&first_device) => {
                    let a = &parts[first_device].data;
                    let b = &parts[d].data;
                    if let Some(k) = (0..b.len()).find(|&k| !same_element(a, b, k)) {
                        return Err(ShardingError::Disagree(Box::new(Disagreement {
                            sharding: self.to_string(),
                            what,
                            device: d,
                            first_device,
                            index: unravel(idx[k], shape),
                            value: element_text(b, k),
                            first_value: element_text(a, k),
                        })));
                    }
                }
            }
        }
        Ok(Array::new(elem, shape.to_vec(), data))
    }
}

impl fmt::Display for Sharding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sharding::Replicated => write!(f, "{{replicated}}"),
            Sharding::Maximal { device } => write!(f, "{{maximal device={device}}}"),
            Sharding::Tiled(t) => {
                let mut dims: Vec<String> = t.tiles.iter().map(|d| d.to_string()).collect();
                if t.replicas > 1 {
                    dims.push(t.replicas.to_string());
                }
                let devs: Vec<String> = t.devices.iter().map(|d| d.to_string()).collect();
                write!(f, "{{devices=[{}]{}", dims.join(","), devs.join(","))?;
                if t.replicas > 1 {
                    write!(f, " last_tile_dim_replicate")?;
                }
                write!(f, "}}")
            }
        }
    }
}

/// One axis a dimension is sharded over: a mesh axis, or a sub-axis
/// `"x":(pre)size` of it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct AxisRef {
    name: String,
    sub: Option<(usize, usize)>,
}

/// A Shardy device mesh (`sdy.mesh @name = <["x"=2, "y"=2], device_ids=[...]>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mesh {
    /// The mesh's symbol name (without `@`; empty for an inline mesh).
    pub name: String,
    /// Axes, major first, with their sizes.
    pub axes: Vec<(String, usize)>,
    /// The device at each mesh position (row-major over the axes); `None`
    /// for `0..size` in order.
    pub device_ids: Option<Vec<usize>>,
}

impl Mesh {
    /// Reads a mesh's value, `<["x"=4]>`, `<["x"=2, "y"=2], device_ids=[0,2,1,3]>`,
    /// `<[], device_ids=[3]>` (a maximal mesh) or `<[]>`, named `name`.
    pub fn parse(name: &str, text: &str) -> Result<Mesh, ShardingError> {
        let t = text.trim();
        let body = t
            .strip_prefix('<')
            .and_then(|s| s.strip_suffix('>'))
            .ok_or_else(|| syntax(text, "a mesh is written <[axes]...>"))?
            .trim();
        if !body.starts_with('[') {
            return Err(syntax(text, "expected the mesh axes `[...]`"));
        }
        let close = matching(body, 0).ok_or_else(|| syntax(text, "unclosed `[`"))?;
        let mut axes = Vec::new();
        for part in split_top(&body[1..close]) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let (n, size) = part
                .split_once('=')
                .ok_or_else(|| syntax(text, format!("expected `\"axis\"=size`, found `{part}`")))?;
            let n = unquote(n.trim())
                .ok_or_else(|| syntax(text, format!("axis name `{n}` is not quoted")))?;
            let size: usize =
                size.trim().parse().ok().filter(|&s| s > 0).ok_or_else(|| {
                    syntax(text, format!("axis `{n}` has size `{}`", size.trim()))
                })?;
            if axes.iter().any(|(a, _): &(String, usize)| *a == n) {
                return Err(syntax(text, format!("axis `{n}` appears twice")));
            }
            axes.push((n, size));
        }
        let mut device_ids = None;
        let tail = body[close + 1..].trim();
        for item in split_top(tail) {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let ids = item
                .strip_prefix("device_ids")
                .map(str::trim_start)
                .and_then(|r| r.strip_prefix('='))
                .and_then(|r| bracketed_numbers(r.trim()))
                .filter(|(_, r)| r.trim().is_empty())
                .ok_or_else(|| syntax(text, format!("unexpected `{item}`")))?
                .0;
            device_ids = Some(ids);
        }
        let mesh = Mesh {
            name: name.to_string(),
            axes,
            device_ids,
        };
        if let Some(ids) = &mesh.device_ids {
            let n = mesh.size();
            if ids.len() != n {
                return Err(syntax(
                    text,
                    format!("{} device ids for a mesh of {n} devices", ids.len()),
                ));
            }
        }
        Ok(mesh)
    }

    /// Every `sdy.mesh @name = <...>` declared in a module's text (JAX's pretty
    /// form; the generic form's `"sdy.mesh"() <{mesh = #sdy.mesh<...>, sym_name = "name"}>`
    /// too).
    pub fn all_in_text(text: &str) -> Result<Vec<Mesh>, ShardingError> {
        let mut out = Vec::new();
        for line in text.lines() {
            let l = line.trim_start();
            if let Some(r) = l.strip_prefix("sdy.mesh @") {
                let (name, r) = r
                    .split_once('=')
                    .ok_or_else(|| syntax(line, "expected `sdy.mesh @name = <...>`"))?;
                let r = r.trim_start();
                let close = matching(r, 0).ok_or_else(|| syntax(line, "unclosed mesh `<`"))?;
                out.push(Mesh::parse(name.trim(), &r[..=close])?);
            } else if l.starts_with("\"sdy.mesh\"()") {
                let m = l
                    .find("#sdy.mesh")
                    .ok_or_else(|| syntax(line, "expected `mesh = #sdy.mesh<...>`"))?;
                let r = &l[m + "#sdy.mesh".len()..];
                let close = matching(r, 0).ok_or_else(|| syntax(line, "unclosed mesh `<`"))?;
                let name = l
                    .split_once("sym_name = \"")
                    .and_then(|(_, n)| n.split_once('"'))
                    .map(|(n, _)| n)
                    .ok_or_else(|| syntax(line, "expected `sym_name = \"...\"`"))?;
                out.push(Mesh::parse(name, &r[..=close])?);
            }
        }
        Ok(out)
    }

    /// Number of devices.
    pub fn size(&self) -> usize {
        self.axes.iter().map(|(_, s)| s).product()
    }

    fn axis_size(&self, name: &str) -> Option<usize> {
        self.axes.iter().find(|(n, _)| n == name).map(|(_, s)| *s)
    }

    /// The sharding of an array whose dimension `d` is sharded over
    /// `dims[d]`'s axes (major first).
    fn sharding(&self, dims: &[Vec<AxisRef>]) -> Result<Sharding, String> {
        let mut used: Vec<(String, usize, usize)> = Vec::new(); // (axis, pre, size)
        for r in dims.iter().flatten() {
            let full = self
                .axis_size(&r.name)
                .ok_or_else(|| format!("the mesh @{} has no axis \"{}\"", self.name, r.name))?;
            let (pre, size) = r.sub.unwrap_or((1, full));
            if pre * size > full || full % (pre * size) != 0 {
                return Err(format!(
                    "sub-axis \"{}\":({pre}){size} does not divide the axis (size {full})",
                    r.name
                ));
            }
            // overlapping uses of one axis
            for (n, p, s) in &used {
                if *n == r.name && pre < p * s && *p < pre * size {
                    return Err(format!("axis \"{}\" is used twice", r.name));
                }
            }
            used.push((r.name.clone(), pre, size));
        }
        let n = self.size();
        let ids: Vec<usize> = self.device_ids.clone().unwrap_or_else(|| (0..n).collect());
        if self.axes.is_empty() {
            // A maximal mesh (`<[], device_ids=[k]>`) or the empty mesh.
            return Ok(match ids.as_slice() {
                [k] if self.device_ids.is_some() => Sharding::Maximal { device: *k },
                _ => Sharding::Replicated,
            });
        }
        let tiles: Vec<usize> = dims
            .iter()
            .map(|axes| {
                axes.iter()
                    .map(|r| {
                        r.sub
                            .map_or_else(|| self.axis_size(&r.name).unwrap_or(1), |(_, s)| s)
                    })
                    .product()
            })
            .collect();
        let ntiles: usize = tiles.iter().product();
        let replicas = n / ntiles;
        let mut devices = vec![usize::MAX; n];
        let mut copies = vec![0usize; ntiles];
        for (pos, &device) in ids.iter().enumerate() {
            // coordinates of `pos`, row-major over the axes
            let mut coords = vec![0; self.axes.len()];
            let mut p = pos;
            for (a, (_, s)) in self.axes.iter().enumerate().rev() {
                coords[a] = p % s;
                p /= s;
            }
            let mut tile = 0;
            for (d, axes) in dims.iter().enumerate() {
                let mut t = 0;
                for r in axes {
                    let a = self
                        .axes
                        .iter()
                        .position(|(n, _)| *n == r.name)
                        .unwrap_or(0);
                    let full = self.axes[a].1;
                    let (c, size) = match r.sub {
                        Some((pre, size)) => ((coords[a] / (full / (pre * size))) % size, size),
                        None => (coords[a], full),
                    };
                    t = t * size + c;
                }
                tile = tile * tiles[d] + t;
            }
            let copy = copies[tile];
            copies[tile] += 1;
            devices[tile * replicas + copy] = device;
        }
        Sharding::tiled(tiles, replicas, devices)
    }
}

/// The sharding annotations of a module's `@main`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MainShardings {
    /// `mhlo.num_partitions` (1 without it).
    pub num_partitions: usize,
    /// Each argument's sharding (`None`: not annotated).
    pub args: Vec<Option<Sharding>>,
    /// Each result's sharding (`None`: not annotated).
    pub results: Vec<Option<Sharding>>,
}

impl MainShardings {
    /// Reads `@main`'s annotations (`mhlo.sharding` and `sdy.sharding`) from a
    /// module's text, with its `sdy.mesh` declarations.
    pub fn from_text(text: &str) -> Result<MainShardings, ShardingError> {
        let meshes = Mesh::all_in_text(text)?;
        let num_partitions = text
            .split_once("mhlo.num_partitions = ")
            .and_then(|(_, r)| {
                let end = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
                r[..end].parse().ok()
            })
            .unwrap_or(1);
        let (args, results) = main_signature(text).ok_or_else(|| {
            syntax(
                "@main",
                "the module has no `func.func public @main(...)` this reads",
            )
        })?;
        let read = |attrs: &str| -> Result<Option<Sharding>, ShardingError> {
            if let Some(v) = attribute_value(attrs, "mhlo.sharding") {
                let s = unquote(v).ok_or_else(|| syntax(v, "mhlo.sharding is not a string"))?;
                return Sharding::parse_hlo(&s).map(Some);
            }
            if let Some(v) = attribute_value(attrs, "sdy.sharding") {
                return Sharding::parse_sdy(v, &meshes).map(Some);
            }
            Ok(None)
        };
        Ok(MainShardings {
            num_partitions,
            args: args.iter().map(|a| read(a)).collect::<Result<_, _>>()?,
            results: results.iter().map(|a| read(a)).collect::<Result<_, _>>()?,
        })
    }
}

// ---------------------------------------------------------------------------
// text helpers

fn rewrap(e: ShardingError, text: &str) -> ShardingError {
    match e {
        ShardingError::Syntax { message, .. } => syntax(text, message),
        e => e,
    }
}

fn numbers(s: &str) -> Option<Vec<usize>> {
    if s.trim().is_empty() {
        return Some(Vec::new());
    }
    s.split(',').map(|n| n.trim().parse().ok()).collect()
}

/// `[1,2,3]rest` -> ([1,2,3], rest).
fn bracketed_numbers(s: &str) -> Option<(Vec<usize>, &str)> {
    let r = s.strip_prefix('[')?;
    let close = r.find(']')?;
    Some((numbers(&r[..close])?, &r[close + 1..]))
}

/// The devices of an iota tile assignment `<=[reshape]T(perm)`.
fn iota_devices(reshape: &[usize], perm: Option<&[usize]>) -> Result<Vec<usize>, String> {
    let n: usize = reshape.iter().product();
    let Some(perm) = perm else {
        return Ok((0..n).collect());
    };
    let mut sorted = perm.to_vec();
    sorted.sort_unstable();
    if sorted != (0..reshape.len()).collect::<Vec<_>>() {
        return Err(format!(
            "T{perm:?} is not a permutation of the {} reshape dimensions",
            reshape.len()
        ));
    }
    // Element at transposed position q (row-major over reshape[perm[i]])
    // is iota at the position whose coordinate perm[i] is q's i-th.
    let tdims: Vec<usize> = perm.iter().map(|&p| reshape[p]).collect();
    let mut strides = vec![1; reshape.len()];
    for i in (0..reshape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * reshape[i + 1];
    }
    Ok((0..n)
        .map(|mut q| {
            let mut src = 0;
            for i in (0..tdims.len()).rev() {
                src += (q % tdims[i]) * strides[perm[i]];
                q /= tdims[i];
            }
            src
        })
        .collect())
}

/// The index of the bracket closing the one at `open` (`<`, `[`, `{`, `(`),
/// skipping string literals.
fn matching(s: &str, open: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut depth = 0i32;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'"' => i = skip_string(b, i)?,
            b'<' | b'[' | b'{' | b'(' => depth += 1,
            b'>' if i > 0 && b[i - 1] == b'-' => {}
            b'>' | b']' | b'}' | b')' => {
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

/// The index of the closing quote of the string literal starting at `i`.
fn skip_string(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'"' => return Some(j),
            _ => j += 1,
        }
    }
    None
}

/// Splits at top-level commas (outside brackets and strings).
fn split_top(s: &str) -> Vec<&str> {
    let b = s.as_bytes();
    let (mut out, mut depth, mut start, mut i) = (Vec::new(), 0i32, 0, 0);
    while i < b.len() {
        match b[i] {
            b'"' => i = skip_string(b, i).unwrap_or(b.len()),
            b'<' | b'[' | b'{' | b'(' => depth += 1,
            b'>' if i > 0 && b[i - 1] == b'-' => {}
            b'>' | b']' | b'}' | b')' => depth -= 1,
            b',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&s[start..]);
    out
}

/// A string literal's value (`\"` and `\\` unescaped, `\XX` hex bytes too).
fn unquote(s: &str) -> Option<String> {
    let inner = s.trim().strip_prefix('"')?.strip_suffix('"')?;
    let b = inner.as_bytes();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            if let Some(h) = inner
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                out.push(h);
                i += 3;
            } else {
                out.push(b[i + 1]);
                i += 2;
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// `{"x", "y":(1)2, ?}p1` -> the axes (open `?` and priorities ignored).
fn parse_axis_list(s: &str) -> Result<Vec<AxisRef>, String> {
    let s = s.trim();
    let inner = s
        .strip_prefix('{')
        .and_then(|r| r.rfind('}').map(|c| &r[..c]))
        .ok_or_else(|| format!("expected `{{axes}}`, found `{s}`"))?;
    let mut out = Vec::new();
    for part in split_top(inner) {
        let part = part.trim();
        if part.is_empty() || part == "?" {
            continue;
        }
        let (name, sub) = match part.find("\":") {
            Some(i) => (&part[..=i], Some(part[i + 2..].trim())),
            None => (part, None),
        };
        let name = unquote(name).ok_or_else(|| format!("axis `{part}` is not a quoted name"))?;
        let sub = match sub {
            Some(sub) => {
                let r = sub
                    .strip_prefix('(')
                    .and_then(|r| r.split_once(')'))
                    .ok_or_else(|| format!("sub-axis `{part}` is not `\"axis\":(pre)size`"))?;
                let pre =
                    r.0.trim()
                        .parse()
                        .map_err(|_| format!("sub-axis `{part}`"))?;
                let size =
                    r.1.trim()
                        .parse()
                        .map_err(|_| format!("sub-axis `{part}`"))?;
                Some((pre, size))
            }
            None => None,
        };
        out.push(AxisRef { name, sub });
    }
    Ok(out)
}

/// The attribute-dictionary text of each argument and result of `@main`.
fn main_signature(text: &str) -> Option<(Vec<String>, Vec<String>)> {
    let start = ["func.func public @main(", "func.func @main("]
        .iter()
        .find_map(|p| text.find(p).map(|i| i + p.len() - 1))?;
    let rest = &text[start..];
    let close = matching(rest, 0)?;
    let args = split_top(&rest[1..close])
        .into_iter()
        .filter(|a| !a.trim().is_empty())
        .map(|a| attr_dict(a).to_string())
        .collect();
    let after = rest[close + 1..].trim_start();
    let results = match after.strip_prefix("->") {
        None => Vec::new(),
        Some(r) => {
            let r = r.trim_start();
            if r.starts_with('(') {
                let c = matching(r, 0)?;
                split_top(&r[1..c])
                    .into_iter()
                    .filter(|a| !a.trim().is_empty())
                    .map(|a| attr_dict(a).to_string())
                    .collect()
            } else {
                // one result without attributes: `-> tensor<...> {`
                vec![String::new()]
            }
        }
    };
    Some((args, results))
}

/// The `{...}` attribute dictionary of one argument or result (`%arg0:
/// tensor<4xf32> {a = 1} loc(...)`), or "".
fn attr_dict(s: &str) -> &str {
    let b = s.as_bytes();
    let mut i = 0;
    let mut depth = 0i32;
    while i < b.len() {
        match b[i] {
            b'"' => i = skip_string(b, i).unwrap_or(b.len()),
            b'{' if depth == 0 => return matching(s, i).map_or("", |c| &s[i..=c]),
            b'<' | b'[' | b'(' => depth += 1,
            b'>' if i > 0 && b[i - 1] == b'-' => {}
            b'>' | b']' | b')' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    ""
}

/// The value text of `name` in an attribute dictionary `{a = 1, b = "x"}`.
fn attribute_value<'a>(dict: &'a str, name: &str) -> Option<&'a str> {
    let inner = dict.trim().strip_prefix('{')?.strip_suffix('}')?;
    split_top(inner).into_iter().find_map(|e| {
        let (n, v) = e.split_once('=')?;
        (n.trim() == name || unquote(n.trim()).as_deref() == Some(name)).then(|| v.trim())
    })
}

fn shape_text(shape: &[usize]) -> String {
    format!(
        "[{}]",
        shape
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Row-major global indices of the block at `offsets` of `block` shape.
fn block_indices(shape: &[usize], offsets: &[usize], block: &[usize]) -> Vec<usize> {
    let n: usize = block.iter().product();
    let mut strides = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1];
    }
    (0..n)
        .map(|mut k| {
            let mut g = 0;
            for d in (0..block.len()).rev() {
                g += (offsets[d] + k % block[d]) * strides[d];
                k /= block[d];
            }
            g
        })
        .collect()
}

fn unravel(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut out = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        out[d] = i % shape[d];
        i /= shape[d];
    }
    out
}

fn same_element(a: &Data, b: &Data, k: usize) -> bool {
    match (a, b) {
        (Data::F32(x), Data::F32(y)) => {
            x[k].to_bits() == y[k].to_bits() || (x[k].is_nan() && y[k].is_nan())
        }
        (Data::F64(x), Data::F64(y)) => {
            x[k].to_bits() == y[k].to_bits() || (x[k].is_nan() && y[k].is_nan())
        }
        (Data::I64(x), Data::I64(y)) => x[k] == y[k],
        _ => false,
    }
}

fn element_text(d: &Data, k: usize) -> String {
    match d {
        Data::I64(v) => v[k].to_string(),
        d => format!("{:?}", d.get_f64(k)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::ElemType;

    fn iota(shape: &[usize]) -> Array {
        let n: usize = shape.iter().product();
        Array::new(
            ElemType::Int(32),
            shape.to_vec(),
            Data::I64((0..n as i64).collect()),
        )
    }

    fn tiled(tiles: &[usize], replicas: usize, devices: &[usize]) -> Sharding {
        Sharding::tiled(tiles.to_vec(), replicas, devices.to_vec()).unwrap()
    }

    // JAX 0.12's own annotations (tests/data/programs/*/module.mlir,
    // tests/data/program-shardings/cases.json).
    #[test]
    fn gspmd_texts_jax_writes() {
        assert_eq!(
            Sharding::parse_hlo("{replicated}").unwrap(),
            Sharding::Replicated
        );
        assert_eq!(
            Sharding::parse_hlo("{maximal device=2}").unwrap(),
            Sharding::Maximal { device: 2 }
        );
        assert_eq!(
            Sharding::parse_hlo("{devices=[4,1]<=[4]}").unwrap(),
            tiled(&[4, 1], 1, &[0, 1, 2, 3])
        );
        assert_eq!(
            Sharding::parse_hlo("{devices=[2,1,2]<=[4] last_tile_dim_replicate}").unwrap(),
            tiled(&[2, 1], 2, &[0, 1, 2, 3])
        );
        // P(("y", "x")) on a 2x2 mesh: device order 0, 2, 1, 3
        assert_eq!(
            Sharding::parse_hlo("{devices=[4,1]<=[2,2]T(1,0)}").unwrap(),
            tiled(&[4, 1], 1, &[0, 2, 1, 3])
        );
        assert_eq!(
            Sharding::parse_hlo("{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}").unwrap(),
            tiled(&[1, 2], 2, &[0, 2, 1, 3])
        );
        assert_eq!(
            Sharding::parse_hlo("{devices=[4,1]1,0,3,2}").unwrap(),
            tiled(&[4, 1], 1, &[1, 0, 3, 2])
        );
        assert_eq!(
            Sharding::parse_hlo("{devices=[2,1,2]1,3,0,2 last_tile_dim_replicate}").unwrap(),
            tiled(&[2, 1], 2, &[1, 3, 0, 2])
        );
        // all tiles 1: replicated
        assert_eq!(
            Sharding::parse_hlo("{devices=[1,1,4]<=[4] last_tile_dim_replicate}").unwrap(),
            Sharding::Replicated
        );
        // printed back in GSPMD form and read again
        let s =
            Sharding::parse_hlo("{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}").unwrap();
        assert_eq!(
            s.to_string(),
            "{devices=[1,2,2]0,2,1,3 last_tile_dim_replicate}"
        );
        assert_eq!(Sharding::parse_hlo(&s.to_string()).unwrap(), s);
    }

    #[test]
    fn bad_gspmd_texts_say_what_is_wrong() {
        for (text, want) in [
            ("replicated", "braces"),
            ("{devices=[4,1]<=[3]}", "need 4"),
            ("{devices=[2,2]0,1,1,3}", "device 1 appears twice"),
            ("{devices=[2,2]<=[2,2]T(0,0)}", "not a permutation"),
            ("{maximal device=x}", "maximal device=N"),
            ("{devices=[2,1]<=[2] frobnicate}", "unexpected `frobnicate`"),
        ] {
            let e = Sharding::parse_hlo(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
        assert!(matches!(
            Sharding::parse_hlo("{manual}"),
            Err(ShardingError::Unsupported { .. })
        ));
        assert!(matches!(
            Sharding::parse_hlo("{{replicated}, {maximal device=0}}"),
            Err(ShardingError::Unsupported { .. })
        ));
        assert!(matches!(
            Sharding::parse_hlo("{devices=[2,1,2]<=[4] last_tile_dims={manual}}"),
            Err(ShardingError::Unsupported { .. })
        ));
    }

    #[test]
    fn shardy_texts_jax_writes() {
        let meshes = Mesh::all_in_text(
            "module {\n  sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]> {stablehlo.mesh = {axes = []}}\n  \
             sdy.mesh @m1 = <[\"x\"=4]>\n  sdy.mesh @p = <[\"x\"=2, \"y\"=2], device_ids=[0, 2, 3, 1]>\n  \
             sdy.mesh @maximal_mesh_2 = <[], device_ids=[2]>\n}",
        )
        .unwrap();
        assert_eq!(meshes.len(), 4);
        let p = |t: &str| Sharding::parse_sdy(t, &meshes).unwrap();
        assert_eq!(
            p(r#"#sdy.sharding<@m1, [{"x"}, {}]>"#),
            tiled(&[4, 1], 1, &[0, 1, 2, 3])
        );
        assert_eq!(p(r#"#sdy.sharding<@mesh, [{}, {}]>"#), Sharding::Replicated);
        assert_eq!(
            p(r#"#sdy.sharding<@mesh, [{"x"}, {}]>"#),
            tiled(&[2, 1], 2, &[0, 1, 2, 3])
        );
        assert_eq!(
            p(r#"#sdy.sharding<@mesh, [{"y"}, {"x"}]>"#),
            tiled(&[2, 2], 1, &[0, 2, 1, 3])
        );
        assert_eq!(
            p(r#"#sdy.sharding<@mesh, [{"y", "x"}, {}]>"#),
            tiled(&[4, 1], 1, &[0, 2, 1, 3])
        );
        assert_eq!(
            p(r#"#sdy.sharding<@mesh, [{}, {"y"}]>"#),
            tiled(&[1, 2], 2, &[0, 2, 1, 3])
        );
        assert_eq!(
            p(r#"#sdy.sharding<@p, [{"x"}, {}]>"#),
            tiled(&[2, 1], 2, &[0, 2, 3, 1])
        );
        assert_eq!(
            p(r#"#sdy.sharding<@maximal_mesh_2, []>"#),
            Sharding::Maximal { device: 2 }
        );
        // open dimensions, priorities and explicit replication change nothing here
        assert_eq!(
            p(r#"#sdy.sharding<@mesh, [{"x", ?}p1, {?}], replicated={"y"}>"#),
            tiled(&[2, 1], 2, &[0, 1, 2, 3])
        );
        // sub-axes: "x":(1)2 is the major half of a size-4 axis
        assert_eq!(
            p(r#"#sdy.sharding<@m1, [{"x":(1)2}, {}]>"#),
            tiled(&[2, 1], 2, &[0, 1, 2, 3])
        );
        assert_eq!(
            p(r#"#sdy.sharding<@m1, [{"x":(2)2}, {}]>"#),
            tiled(&[2, 1], 2, &[0, 2, 1, 3])
        );
        // as sdy.manual_computation prints it, and with an inline mesh
        assert_eq!(p(r#"<@m1, [{"x"}, {}]>"#), tiled(&[4, 1], 1, &[0, 1, 2, 3]));
        assert_eq!(
            p(r#"#sdy.sharding<mesh<["a"=2]>, [{"a"}]>"#),
            tiled(&[2], 1, &[0, 1])
        );
    }

    #[test]
    fn bad_shardy_texts_say_what_is_wrong() {
        let meshes = vec![Mesh::parse("mesh", r#"<["x"=4]>"#).unwrap()];
        let e = |t: &str| Sharding::parse_sdy(t, &meshes).unwrap_err();
        assert!(matches!(
            e(r#"#sdy.sharding<@other, [{"x"}]>"#),
            ShardingError::UnknownMesh { .. }
        ));
        assert!(
            e(r#"#sdy.sharding<@mesh, [{"z"}]>"#)
                .to_string()
                .contains("no axis \"z\"")
        );
        assert!(
            e(r#"#sdy.sharding<@mesh, [{"x"}, {"x"}]>"#)
                .to_string()
                .contains("used twice")
        );
        assert!(matches!(
            e(r#"#sdy.sharding<@mesh, [{}], unreduced={"x"}>"#),
            ShardingError::Unsupported { .. }
        ));
        assert!(Mesh::parse("m", r#"<["x"=4], device_ids=[0, 1]>"#).is_err());
        assert!(Mesh::parse("m", r#"<[x=4]>"#).is_err());
    }

    #[test]
    fn split_and_assemble_round_trip() {
        let x = iota(&[4, 6]);
        for text in [
            "{replicated}",
            "{devices=[4,1]<=[4]}",
            "{devices=[2,2]<=[2,2]T(1,0)}",
            "{devices=[2,1,2]<=[4] last_tile_dim_replicate}",
            "{devices=[1,2,2]1,3,0,2 last_tile_dim_replicate}",
        ] {
            let s = Sharding::parse_hlo(text).unwrap();
            let parts = s.split(&x, 4).unwrap();
            assert_eq!(parts.len(), 4);
            assert_eq!(
                s.assemble(&parts, &[4, 6], "result 0").unwrap(),
                x,
                "{text}"
            );
        }
        // [4, 6] over {devices=[2,2]<=[2,2]T(1,0)}: device 1 holds tile (1, 0)
        let s = Sharding::parse_hlo("{devices=[2,2]<=[2,2]T(1,0)}").unwrap();
        let parts = s.split(&x, 4).unwrap();
        assert_eq!(parts[1].shape, vec![2, 3]);
        assert_eq!(parts[1].data, Data::I64(vec![12, 13, 14, 18, 19, 20]));
    }

    #[test]
    fn maximal_values_go_whole_to_every_device_and_come_back_from_theirs() {
        let s = Sharding::Maximal { device: 2 };
        let x = iota(&[2, 3]);
        let mut parts = s.split(&x, 4).unwrap();
        assert!(parts.iter().all(|p| *p == x));
        parts[0] = iota(&[1]); // other devices' buffers are ignored
        assert_eq!(s.assemble(&parts, &[2, 3], "result 0").unwrap(), x);
        assert!(
            s.split(&x, 2)
                .unwrap_err()
                .to_string()
                .contains("device 2 is not one of")
        );
    }

    #[test]
    fn disagreeing_copies_name_the_device() {
        let s = Sharding::parse_hlo("{devices=[2,1,2]<=[4] last_tile_dim_replicate}").unwrap();
        let x = iota(&[4, 2]);
        let mut parts = s.split(&x, 4).unwrap();
        // devices 2 and 3 hold rows 2..4; device 3's copy differs at row 3, column 1
        if let Data::I64(v) = &mut parts[3].data {
            v[3] = 99;
        }
        match s.assemble(&parts, &[4, 2], "result 1").unwrap_err() {
            ShardingError::Disagree(d) => {
                assert_eq!((d.device, d.first_device), (3, 2));
                assert_eq!(d.index, vec![3, 1]);
                assert_eq!((d.value.as_str(), d.first_value.as_str()), ("99", "7"));
            }
            e => panic!("{e}"),
        }
        let r = Sharding::Replicated;
        let mut parts = r.split(&x, 4).unwrap();
        parts[1] = Array::new(ElemType::Int(32), vec![4, 2], Data::I64(vec![0; 8]));
        let e = r
            .assemble(&parts, &[4, 2], "result 0")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(
                "device 1's copy of result 0 [4, 2] differs from device 0's at index [0, 1]"
            ),
            "{e}"
        );
    }

    #[test]
    fn shapes_that_do_not_fit_are_refused() {
        let s = Sharding::parse_hlo("{devices=[4,1]<=[4]}").unwrap();
        let e = s.split(&iota(&[10, 2]), 4).unwrap_err().to_string();
        assert!(
            e.contains("dimension 0 (size 10) is not divisible by its 4 tiles"),
            "{e}"
        );
        let e = s.split(&iota(&[8]), 4).unwrap_err().to_string();
        assert!(e.contains("it tiles 2 dimensions, the array has 1"), "{e}");
        let e = s.split(&iota(&[8, 2]), 8).unwrap_err().to_string();
        assert!(
            e.contains("the tile assignment has 4 devices, the program 8"),
            "{e}"
        );
        let parts = s.split(&iota(&[8, 2]), 4).unwrap();
        let e = s
            .assemble(&parts[..3], &[8, 2], "result 0")
            .unwrap_err()
            .to_string();
        assert!(e.contains("result 0 [8, 2]"), "{e}");
        let mut parts = parts;
        parts[2] = iota(&[3, 2]);
        let e = s
            .assemble(&parts, &[8, 2], "result 0")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("device 2 returned i32 [3, 2], its shard is i32 [2, 2]"),
            "{e}"
        );
    }

    #[test]
    fn main_annotations_from_module_text() {
        // JAX 0.12's text (tests/data/programs/sharded_mlp_gspmd_4dev, ring_all_gather_4dev)
        let gspmd = r#"module @jit_sharded_mlp attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x32xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}, %arg1: tensor<64xf32> {mhlo.sharding = "{replicated}"}, %arg2: tensor<4xf32> loc("x")) -> (tensor<16x16xf32> {jax.result_info = "result[0]", mhlo.sharding = "{devices=[2,2]<=[4] last_tile_dim_replicate}"}, tensor<16xf32> {jax.result_info = "result[1]"}) {
    return %0, %1 : tensor<16x16xf32>, tensor<16xf32>
  }
}"#;
        let m = MainShardings::from_text(gspmd).unwrap();
        assert_eq!(m.num_partitions, 4);
        assert_eq!(m.args.len(), 3);
        assert_eq!(m.args[0], Some(tiled(&[2, 1], 2, &[0, 1, 2, 3])));
        assert_eq!(m.args[1], Some(Sharding::Replicated));
        assert_eq!(m.args[2], None);
        assert_eq!(m.results, vec![Some(tiled(&[2], 2, &[0, 1, 2, 3])), None]);
        let sdy = r#"module @jit_ring_all_gather attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<32x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<32x128xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    return %0 : tensor<32x128xf32>
  }
}"#;
        let m = MainShardings::from_text(sdy).unwrap();
        assert_eq!(m.args, vec![Some(tiled(&[4, 1], 1, &[0, 1, 2, 3]))]);
        assert_eq!(m.results, vec![Some(Sharding::Replicated)]);
        let plain = "module {\n  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  }\n}";
        let m = MainShardings::from_text(plain).unwrap();
        assert_eq!((m.num_partitions, m.args.len(), m.results.len()), (1, 1, 1));
        assert!(MainShardings::from_text("module {}").is_err());
    }
}
