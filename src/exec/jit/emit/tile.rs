//! Strip-mining of elementwise bodies: a kernel body whose big vectors all
//! have one shape `S` and are computed by elementwise ops, splat constants,
//! broadcasts of scalars, `tpu.iota` and whole-vector loads and stores is
//! emitted as one loop nest over tiles of `S` (`1 x .. x 1 x W`, at most 64
//! bytes), the whole body per tile. Every intermediate value then lives in
//! registers: `tcc-bufferize-vectors` would otherwise store each value with
//! several uses into a whole-block heap buffer (JAX's philox: 124 buffers of
//! 256 KiB per block, the run bound by memory traffic).
//!
//! Semantics are those of the untiled body: the ops are elementwise, every
//! tile runs the body's ops in order, and no ref the body stores vectors to
//! is read by it (checked), so the order of tiles is invisible. Bounds checks
//! stay whole-access checks, emitted before the loop in program order.

use std::collections::{HashMap, HashSet};

use super::super::super::array::{Array, Data};
use super::super::super::dtype::ElemType;
use super::super::super::program::{Block, Inst, Kind, Slot, VTy};
use super::{E, Em, shaped, storage};

/// What each instruction of a tiled body is.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    /// Emitted once, before the loop (scalars, unit vectors, memrefs).
    Outer,
    /// Emitted per tile.
    Tile,
}

fn unit(s: &[usize]) -> bool {
    s.iter().all(|&d| d == 1)
}

/// Bytes of a kernel element in a tile value (storage for memrefs).
fn elem_bytes(e: ElemType) -> usize {
    (e.bits() as usize).div_ceil(8).max(1)
}

impl Em<'_> {
    /// Emits `b` (the kernel function's body) tiled when it qualifies;
    /// `Ok(false)` (nothing emitted) when it does not.
    pub(super) fn tiled_body(&mut self, b: &Block) -> E<bool> {
        let Some(plan) = self.plan(b) else {
            return Ok(false);
        };
        let Plan {
            roles,
            shape,
            width,
        } = plan;
        let rank = shape.len();
        let mut tile = vec![1usize; rank];
        tile[rank - 1] = width;
        // Outer ops, in order.
        let body = &b.insts[..b.insts.len() - usize::from(ends_in_yield(b))];
        for (inst, role) in body.iter().zip(&roles) {
            if *role == Role::Outer {
                self.inst(inst)?;
            }
        }
        // Whole-access bounds checks of the tiled loads and stores, in
        // program order; their clamped indices.
        let mut bases: HashMap<usize, (String, String, ElemType, Vec<String>)> = HashMap::new();
        for (k, (inst, role)) in body.iter().zip(&roles).enumerate() {
            if *role != Role::Tile {
                continue;
            }
            let (base, idx) = match inst.kind {
                Kind::Load { .. } => (inst.segment_or(0, 0), inst.index_operands(1)),
                Kind::Store { .. } => (inst.segment_or(1, 1), inst.index_operands(2)),
                _ => continue,
            };
            let (at, mt, mem) = self.checked(inst, base, &idx, &shape)?;
            let open = at.find('[').unwrap_or(at.len());
            let m = at[..open].to_string();
            let safe: Vec<String> = at[open..]
                .trim_matches(|c| c == '[' || c == ']')
                .split(", ")
                .map(str::to_string)
                .collect();
            bases.insert(k, (m, mt, mem.elem, safe));
        }
        // The loop nest.
        let mut ivs = Vec::with_capacity(rank);
        for (d, &n) in shape.iter().enumerate() {
            let iv = self.fresh("tv");
            let ub = self.fresh("tn");
            let st = self.fresh("ts");
            let step = if d + 1 == rank { width } else { 1 };
            self.line(&format!("{ub} = arith.constant {n} : index"));
            self.line(&format!("{st} = arith.constant {step} : index"));
            self.line(&format!("scf.for {iv} = %c0 to {ub} step {st} {{"));
            self.depth += 1;
            ivs.push(iv);
        }
        for (k, (inst, role)) in body.iter().zip(&roles).enumerate() {
            if *role != Role::Tile {
                continue;
            }
            let t = retile(inst, &shape, &tile);
            match &inst.kind {
                Kind::Load { .. } | Kind::Store { .. } => {
                    let (m, mt, elem, safe) = bases[&k].clone();
                    self.tile_access(&t, &m, &mt, elem, &safe, &ivs, &tile)?;
                }
                Kind::Iota(d) => self.tile_iota(&t, d, &shape, &tile, &ivs)?,
                _ => self.inst(&t)?,
            }
        }
        for _ in 0..rank {
            self.depth -= 1;
            self.line("}");
        }
        self.free_heap();
        self.line("\"func.return\"() : () -> ()");
        Ok(true)
    }

    /// Whether `b` can be tiled, and how.
    fn plan(&self, b: &Block) -> Option<Plan> {
        let n = b.insts.len();
        if n == 0 {
            return None;
        }
        if ends_in_yield(b) && !b.insts[n - 1].args.is_empty() {
            return None;
        }
        let body = &b.insts[..n - usize::from(ends_in_yield(b))];
        let mut shape: Option<Vec<usize>> = None;
        let mut roles = Vec::with_capacity(body.len());
        let mut tiled: HashSet<Slot> = HashSet::new();
        // Refs by the slot they resolve to (memref identities followed).
        let mut alias: HashMap<Slot, Slot> = HashMap::new();
        let root = |alias: &HashMap<Slot, Slot>, mut s: Slot| {
            while let Some(&p) = alias.get(&s) {
                s = p;
            }
            s
        };
        let (mut stored, mut read) = (HashSet::new(), HashSet::new());
        let mut bytes = 1usize;
        let big = |t: &VTy, shape: &mut Option<Vec<usize>>| -> Option<bool> {
            match t {
                VTy::Vector(_, s) if !s.is_empty() && !unit(s) => {
                    match shape {
                        None => *shape = Some(s.clone()),
                        Some(x) if x == s => {}
                        _ => return None,
                    }
                    Some(true)
                }
                _ => Some(false),
            }
        };
        for inst in body {
            if !inst.regions.is_empty() || inst.fused.is_some() {
                return None;
            }
            let mut any_big = false;
            for t in inst.res_ty.iter().chain(&inst.arg_ty) {
                if matches!(t, VTy::MemRef(..)) {
                    continue;
                }
                any_big |= big(t, &mut shape)?;
            }
            let uses_tiled = inst.args.iter().any(|a| tiled.contains(a));
            let role = match &inst.kind {
                Kind::Load { strides } => {
                    if !any_big {
                        return None;
                    }
                    if strides.iter().any(|&s| s != 1) || inst.has_mask(2) {
                        return None;
                    }
                    read.insert(root(&alias, inst.segment_or(0, 0)));
                    Role::Tile
                }
                Kind::Store {
                    strides,
                    add: false,
                    sublanes: None,
                } => {
                    if !any_big || strides.iter().any(|&s| s != 1) || inst.has_mask(3) {
                        return None;
                    }
                    stored.insert(root(&alias, inst.segment_or(1, 1)));
                    Role::Tile
                }
                // A dropped op (a load nothing uses): emits nothing.
                Kind::Nop => Role::Outer,
                Kind::ScalarLoad => {
                    read.insert(root(&alias, *inst.args.first()?));
                    Role::Outer
                }
                Kind::Identity => {
                    if any_big {
                        return None;
                    }
                    if let (Some(&a), Some(&r)) = (inst.args.first(), inst.res.first()) {
                        alias.insert(r, a);
                    }
                    Role::Outer
                }
                Kind::Const(a) => {
                    if any_big {
                        let first = a.data.get_f64(0).to_bits();
                        let splat = match &a.data {
                            Data::I64(v) => v.iter().all(|x| *x == v[0]),
                            _ => (0..a.len()).all(|i| a.data.get_f64(i).to_bits() == first),
                        };
                        if !splat || a.is_empty() {
                            return None;
                        }
                        Role::Tile
                    } else {
                        Role::Outer
                    }
                }
                Kind::Broadcast => {
                    if !any_big {
                        Role::Outer
                    } else if uses_tiled {
                        return None;
                    } else {
                        Role::Tile
                    }
                }
                Kind::Iota(d) if any_big => {
                    // Integer iotas whose values fit (as `Em::iota`).
                    let (VTy::Vector(ElemType::Int(w) | ElemType::UInt(w), s),) =
                        (&inst.res_ty[0],)
                    else {
                        return None;
                    };
                    let d: Vec<usize> = if d.is_empty() {
                        (0..s.len()).collect()
                    } else {
                        d.iter().copied().filter(|&x| x < s.len()).collect()
                    };
                    let total: u128 = d.iter().map(|&x| s[x] as u128).product();
                    if !(2..=64).contains(w) || total == 0 || total - 1 > (1u128 << (w - 1)) - 1 {
                        return None;
                    }
                    Role::Tile
                }
                Kind::Bin(_)
                | Kind::Un(_)
                | Kind::CmpI(_)
                | Kind::CmpF(_)
                | Kind::Select
                | Kind::Cast(_)
                | Kind::Fma => {
                    if any_big {
                        // Every vector operand and result tile-shaped.
                        for t in inst.res_ty.iter().chain(&inst.arg_ty) {
                            if let VTy::Vector(_, s) = t
                                && unit(s)
                            {
                                return None;
                            }
                        }
                        Role::Tile
                    } else {
                        Role::Outer
                    }
                }
                k if super::pure(k) && !any_big => Role::Outer,
                _ => return None,
            };
            if role == Role::Outer && uses_tiled {
                return None;
            }
            if role == Role::Tile {
                tiled.extend(inst.res.iter().copied());
                for t in inst.res_ty.iter().chain(&inst.arg_ty) {
                    let e = match t {
                        VTy::Vector(e, _) => *e,
                        // Scalars (indices, broadcast sources) are outside
                        // the tile.
                        VTy::Scalar(_) => continue,
                        VTy::MemRef(e, ..) => {
                            if storage(*e)? == "f32" {
                                ElemType::F32
                            } else {
                                ElemType::F64
                            }
                        }
                        VTy::Other(_) => return None,
                    };
                    bytes = bytes.max(elem_bytes(e));
                }
            }
            roles.push(role);
        }
        if stored.iter().any(|s| read.contains(s)) {
            return None;
        }
        let shape = shape?;
        let last = *shape.last()?;
        let total: usize = shape.iter().product();
        if total * bytes <= 64 {
            return None;
        }
        let width = (1..=last)
            .rev()
            .find(|w| last % w == 0 && w * bytes <= 64)?;
        Some(Plan {
            roles,
            shape,
            width,
        })
    }

    /// A tiled load or store: the tile at the access's clamped indices plus
    /// the tile's position (the whole access was checked before the loop).
    #[allow(clippy::too_many_arguments)]
    fn tile_access(
        &mut self,
        inst: &Inst,
        m: &str,
        mt: &str,
        elem: ElemType,
        safe: &[String],
        ivs: &[String],
        tile: &[usize],
    ) -> E<()> {
        let mut at = Vec::with_capacity(safe.len());
        let lead = safe.len() - ivs.len();
        for (d, s) in safe.iter().enumerate() {
            if d < lead {
                at.push(s.clone());
            } else {
                let a = self.fresh("ta");
                self.line(&format!("{a} = arith.addi {s}, {} : index", ivs[d - lead]));
                at.push(a);
            }
        }
        let at = at.join(", ");
        let vty = match inst.kind {
            Kind::Load { .. } => inst.res_ty[0].clone(),
            _ => self.ty(inst, inst.segment_or(0, 0))?,
        };
        if vty.elem() != Some(elem) {
            return Err(self.refuse(inst, "an access of another element type"));
        }
        let st = storage(elem).ok_or_else(|| self.refuse(inst, "memref element type"))?;
        let inb = vec!["true"; tile.len()].join(", ");
        let stt = shaped(Some(tile), st);
        if matches!(inst.kind, Kind::Load { .. }) {
            let raw = self.fresh("r");
            let pad = self.fresh("z");
            let zero = if st == "i64" { "0" } else { "0.0" };
            self.line(&format!("{pad} = arith.constant {zero} : {st}"));
            self.line(&format!(
                "{raw} = vector.transfer_read {m}[{at}], {pad} {{in_bounds = [{inb}]}} : {mt}, {stt}"
            ));
            let v = self.convert(&raw, elem, Some(tile), false);
            self.names.insert(inst.res[0], v);
            self.tys.insert(inst.res[0], inst.res_ty[0].clone());
        } else {
            let val = inst.segment_or(0, 0);
            let v = self.name(inst, val)?;
            let s = self.convert(&v, elem, Some(tile), true);
            self.line(&format!(
                "vector.transfer_write {s}, {m}[{at}] {{in_bounds = [{inb}]}} : {stt}, {mt}"
            ));
        }
        Ok(())
    }

    /// `tpu.iota` of the whole shape, for the tile at `ivs`.
    fn tile_iota(
        &mut self,
        inst: &Inst,
        iota_dims: &[usize],
        shape: &[usize],
        tile: &[usize],
        ivs: &[String],
    ) -> E<()> {
        let rt = inst.res_ty[0].clone();
        let Some(e) = rt.elem() else {
            return Err(self.refuse(inst, "iota type"));
        };
        let w = match e {
            ElemType::Int(w) | ElemType::UInt(w) if (2..=64).contains(&w) => w,
            _ => return Err(self.refuse(inst, "a tiled iota of this type")),
        };
        let rank = shape.len();
        let iota_dims: Vec<usize> = if iota_dims.is_empty() {
            (0..rank).collect()
        } else {
            iota_dims.iter().copied().filter(|&d| d < rank).collect()
        };
        let total: u128 = iota_dims.iter().map(|&d| shape[d] as u128).product();
        if total == 0 || total - 1 > (1u128 << (w - 1)) - 1 {
            return Err(self.refuse(inst, "a tiled iota whose values overflow"));
        }
        let et = format!("i{w}");
        let t = shaped(Some(tile), &et);
        let width = tile[rank - 1];
        let mut acc: Option<String> = None;
        let mut weight: u128 = 1;
        for &d in iota_dims.iter().rev() {
            // The index along `d` of each element of the tile, as `index`.
            let v = if d + 1 == rank {
                let all = (0..width).map(|k| k.to_string()).collect::<Vec<_>>();
                let lane = self.fresh("ti");
                self.line(&format!(
                    "{lane} = arith.constant dense<[{}]> : vector<{width}xindex>",
                    all.join(", ")
                ));
                let base = self.fresh("ti");
                self.line(&format!(
                    "{base} = vector.broadcast {} : index to vector<{width}xindex>",
                    ivs[d]
                ));
                let sum = self.fresh("ti");
                self.line(&format!(
                    "{sum} = arith.addi {lane}, {base} : vector<{width}xindex>"
                ));
                let c = self.fresh("ti");
                self.line(&format!(
                    "{c} = arith.index_cast {sum} : vector<{width}xindex> to vector<{width}x{et}>"
                ));
                let r = self.fresh("ti");
                self.line(&format!(
                    "{r} = vector.shape_cast {c} : vector<{width}x{et}> to {t}"
                ));
                r
            } else {
                let c = self.fresh("ti");
                self.line(&format!(
                    "{c} = arith.index_cast {} : index to {et}",
                    ivs[d]
                ));
                let r = self.fresh("ti");
                self.line(&format!("{r} = vector.broadcast {c} : {et} to {t}"));
                r
            };
            let v = if weight != 1 {
                let k = self.fresh("ti");
                self.line(&format!(
                    "{k} = arith.constant dense<{}> : {t}",
                    weight as i64
                ));
                let r = self.fresh("ti");
                self.line(&format!("{r} = arith.muli {v}, {k} : {t}"));
                r
            } else {
                v
            };
            acc = Some(match acc {
                None => v,
                Some(p) => {
                    let r = self.fresh("ti");
                    self.line(&format!("{r} = arith.addi {p}, {v} : {t}"));
                    r
                }
            });
            weight *= shape[d] as u128;
        }
        let r = acc.ok_or_else(|| self.refuse(inst, "iota of no dimension"))?;
        self.names.insert(inst.res[0], r);
        self.tys.insert(inst.res[0], rt);
        Ok(())
    }
}

/// How a body is tiled.
struct Plan {
    roles: Vec<Role>,
    shape: Vec<usize>,
    width: usize,
}

fn ends_in_yield(b: &Block) -> bool {
    b.insts
        .last()
        .is_some_and(|i| matches!(i.kind, Kind::Yield))
}

/// `inst` with every vector type of shape `shape` given shape `tile` (splat
/// constants of that shape too).
fn retile(inst: &Inst, shape: &[usize], tile: &[usize]) -> Inst {
    let mut t = inst.clone();
    let fix = |ty: &mut VTy| {
        if let VTy::Vector(_, s) = ty
            && s == shape
        {
            *s = tile.to_vec();
        }
    };
    t.res_ty.iter_mut().for_each(fix);
    t.arg_ty.iter_mut().for_each(fix);
    if let Kind::Const(a) = &inst.kind
        && a.shape == shape
    {
        let n: usize = tile.iter().product();
        let data = match &a.data {
            Data::F32(v) => Data::F32(vec![v[0]; n]),
            Data::F64(v) => Data::F64(vec![v[0]; n]),
            Data::I64(v) => Data::I64(vec![v[0]; n]),
        };
        t.kind = Kind::Const(Array::new(a.elem, tile.to_vec(), data));
    }
    t
}

impl Inst {
    /// The first slot of operand segment `seg`, or operand `plain` when the
    /// op has no segments.
    fn segment_or(&self, seg: usize, plain: usize) -> Slot {
        if self.segments.is_empty() {
            self.args[plain]
        } else {
            self.segment(seg)[0]
        }
    }

    /// The index operands of a load (`from` = 1) or store (`from` = 2).
    fn index_operands(&self, from: usize) -> Vec<Slot> {
        if self.segments.is_empty() {
            self.args[from..].to_vec()
        } else {
            self.segment(from).to_vec()
        }
    }

    /// Whether the mask segment `seg` is present.
    fn has_mask(&self, seg: usize) -> bool {
        !self.segments.is_empty() && !self.segment(seg).is_empty()
    }
}
