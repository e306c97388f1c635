//! The collective idioms of [`Body`]: device ids (`lax.axis_index`, mesh and
//! logical device ids), the barrier semaphore, signals to another device and
//! `pl.multiple_of`, as Pallas lowers them under `jax.shard_map`.

use melior::dialect::arith;
use melior::ir::{Value, ValueLike};

use super::{Body, Operand};
use crate::mosaic::BuildError;
use crate::mosaic::attrs::{self, MemorySpace};
use crate::mosaic::ops;

/// The device a remote DMA or a semaphore signal goes to (`device_id=` of
/// `pltpu.make_async_remote_copy` and `pl.semaphore_signal`).
///
/// `Mesh`: the target's coordinates in the kernel's `shard_map` mesh
/// ([`crate::mosaic::pallas::KernelSpec::mesh`]), one per mesh axis
/// (`device_id=(right,)`, JAX 0.12's default `DeviceIdType.MESH`): Pallas
/// computes the logical id `0 + c0 * stride0 + …` where the device id is
/// used. A value or an array of values converts to it. `Logical`: the
/// logical device id itself (`device_id_type=pl.DeviceIdType.LOGICAL`, which
/// JAX 0.12 deprecates: giving any `device_id_type` warns).
#[derive(Clone, Debug)]
pub enum DeviceId<'c, 'a> {
    /// Mesh coordinates, one per mesh axis.
    Mesh(Vec<Operand<'c, 'a>>),
    /// A logical device id.
    Logical(Operand<'c, 'a>),
}

impl<'c, 'a> DeviceId<'c, 'a> {
    /// `device_id=id, device_id_type=pl.DeviceIdType.LOGICAL`.
    pub fn logical(id: impl Into<Operand<'c, 'a>>) -> Self {
        DeviceId::Logical(id.into())
    }

    /// `device_id=(c0, c1, …)`: mesh coordinates.
    pub fn mesh<T: Into<Operand<'c, 'a>>>(coordinates: impl IntoIterator<Item = T>) -> Self {
        DeviceId::Mesh(coordinates.into_iter().map(Into::into).collect())
    }
}

impl<'c, 'a> From<Value<'c, 'a>> for DeviceId<'c, 'a> {
    fn from(value: Value<'c, 'a>) -> Self {
        DeviceId::Mesh(vec![value.into()])
    }
}

impl<'c, 'a, const N: usize> From<[Value<'c, 'a>; N]> for DeviceId<'c, 'a> {
    fn from(values: [Value<'c, 'a>; N]) -> Self {
        DeviceId::mesh(values)
    }
}

impl<'c, 'a> Body<'c, 'a> {
    /// Whether `r` is one of the kernel's operand refs (an input or output).
    pub(super) fn is_operand(&self, r: Value<'c, '_>) -> bool {
        self.operands.iter().any(|o| {
            // SAFETY: two live values compared.
            unsafe { mlir_sys::mlirValueEqual(o.to_raw(), r.to_raw()) }
        })
    }

    /// An `i32` value of an operand (an integer becomes a constant).
    fn i32_operand(&self, op: &str, x: Operand<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        let i32_type = melior::ir::r#type::IntegerType::new(self.ctx, 32).into();
        match x {
            Operand::Int(i) => Ok(self.i32(
                i32::try_from(i)
                    .map_err(|_| self.error(op, format!("device id {i} does not fit an i32")))?,
            )),
            Operand::Value(v) if v.r#type() == i32_type => Ok(v),
            other => Err(self.error(
                op,
                format!("device id {other:?}: give an integer or an i32 value"),
            )),
        }
    }

    /// The logical device id of `device`, computed as Pallas computes it
    /// where a DMA or signal uses it: mesh coordinates `0 + c0 * stride0 +
    /// c1 * stride1 …` (row-major strides of the mesh).
    pub(super) fn device_value(
        &self,
        op: &str,
        device: &DeviceId<'c, 'a>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let coordinates = match device {
            DeviceId::Logical(id) => return self.i32_operand(op, *id),
            DeviceId::Mesh(coordinates) => coordinates,
        };
        if coordinates.len() != self.mesh.len() {
            return Err(self.error(op, format!(
                "Number of device ids must match the number of mesh axes, but got {} ids for a {}D mesh: give one coordinate per axis of KernelSpec::mesh, or DeviceId::logical",
                coordinates.len(),
                self.mesh.len()
            )));
        }
        let mut sum: Option<Value<'c, 'a>> = None;
        for (d, &c) in coordinates.iter().enumerate() {
            let stride: i64 = self.mesh[d + 1..].iter().map(|(_, n)| n).product();
            let c = self.i32_operand(op, c)?;
            let term = self.mul(c, stride)?;
            sum = Some(match sum {
                None => self.add(0, term)?,
                Some(acc) => self.add(acc, term)?,
            });
        }
        Ok(sum.unwrap_or_else(|| self.i32(0)))
    }

    /// `lax.axis_index(name)` of a `shard_map` mesh axis
    /// ([`crate::mosaic::pallas::KernelSpec::mesh`]): `tpu.device_id`, then
    /// `(id / stride) % size` with unsigned division (`arith.divui`,
    /// `arith.remui`), as Pallas lowers it.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*;
    /// # use tpu_custom_call::mosaic::attrs::MemorySpace;
    /// # use tpu_custom_call::melior::ir::{Type, operation::OperationLike};
    /// let ctx = tpu_custom_call::Context::new();
    /// let x = || Arg::memref(&ctx, &[8, 128], Type::float32(&ctx), MemorySpace::Vmem);
    /// let spec = KernelSpec::new("k").mesh(&[("x", 4)]).input(x()).output(x());
    /// let module = spec.build(&ctx, |k| {
    ///     let me = k.axis_index("x")?; // lax.axis_index("x")
    ///     k.store(k.outputs[0], k.add(k.load(k.inputs[0])?, k.astype(me, Type::float32(k.ctx()))?)?)
    /// })?;
    /// let text = module.as_operation().to_string();
    /// assert!(text.contains("tpu.device_id") && text.contains("arith.remui"));
    /// # Ok::<(), tpu_custom_call::mosaic::BuildError>(())
    /// ```
    pub fn axis_index(&self, name: &str) -> Result<Value<'c, 'a>, BuildError> {
        let Some(d) = self.mesh.iter().position(|(n, _)| n == name) else {
            let names: Vec<&str> = self.mesh.iter().map(|(n, _)| n.as_str()).collect();
            return Err(self.error(
                "axis_index",
                format!(
                    "no mesh axis `{name}`: the kernel's mesh axes are {names:?} (KernelSpec::mesh)"
                ),
            ));
        };
        let id = self.one(ops::device_id(self.ctx, self.location));
        let size = self.i32(self.i32_size("axis_index", self.mesh[d].1)?);
        let stride: i64 = self.mesh[d + 1..].iter().map(|(_, n)| n).product();
        let stride = self.i32(self.i32_size("axis_index", stride)?);
        let quotient = self.one(arith::divui(id, stride, self.location));
        Ok(self.one(arith::remui(quotient, size, self.location)))
    }

    fn i32_size(&self, op: &str, n: i64) -> Result<i32, BuildError> {
        i32::try_from(n).map_err(|_| self.error(op, format!("mesh size {n} does not fit an i32")))
    }

    /// `pltpu.get_barrier_semaphore()`: `tpu.sem_barrier`, the semaphore
    /// the devices of a collective kernel meet at (the call's
    /// `collective_id` names it: give one in PARAMS.json).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let barrier = k.barrier_semaphore()?; // pltpu.get_barrier_semaphore()
    ///     k.semaphore_signal_to(barrier, 1, DeviceId::logical(0))?;
    ///     k.semaphore_wait(barrier, 1)
    /// });
    /// assert!(text.contains("tpu.sem_barrier") && text.contains("tpu.sem_signal"));
    /// ```
    pub fn barrier_semaphore(&self) -> Result<Value<'c, 'a>, BuildError> {
        let ty = attrs::memref(
            self.ctx,
            &[],
            attrs::semaphore_type(self.ctx),
            MemorySpace::SemaphoreMem,
            None,
        );
        Ok(self.one(ops::sem_barrier(self.ctx, ty, self.location)))
    }

    /// `pl.semaphore_signal(sem, amount, device_id=device)`: `tpu.sem_signal`
    /// of a semaphore of another device (mesh coordinates, or
    /// [`DeviceId::logical`]): the amount, then the device id.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*;
    /// # use tpu_custom_call::mosaic::attrs::MemorySpace;
    /// # use tpu_custom_call::melior::ir::{Type, operation::OperationLike};
    /// let ctx = tpu_custom_call::Context::new();
    /// let x = || Arg::memref(&ctx, &[8, 128], Type::float32(&ctx), MemorySpace::Any);
    /// let spec = KernelSpec::new("k").mesh(&[("x", 4)]).input(x()).output(x());
    /// let module = spec.build(&ctx, |k| {
    ///     let right = k.rem(k.add(k.axis_index("x")?, 1)?, 4)?;
    ///     let barrier = k.barrier_semaphore()?;
    ///     // pl.semaphore_signal(barrier, 1, device_id=(right,))
    ///     k.semaphore_signal_to(barrier, 1, [right])?;
    ///     k.semaphore_wait(barrier, 1)
    /// })?;
    /// assert!(module.as_operation().to_string().contains("tpu.sem_signal"));
    /// # Ok::<(), tpu_custom_call::mosaic::BuildError>(())
    /// ```
    pub fn semaphore_signal_to(
        &self,
        sem: Value<'c, 'a>,
        amount: impl Into<Operand<'c, 'a>>,
        device: impl Into<DeviceId<'c, 'a>>,
    ) -> Result<(), BuildError> {
        let amount = self.sem_amount("semaphore_signal", amount.into())?;
        let device = self.device_value("semaphore_signal", &device.into())?;
        self.append(
            ops::SemSignal::new(sem, amount)
                .device(device)
                .build(self.ctx, self.location),
        );
        Ok(())
    }

    /// `pl.multiple_of(x, n)`: `tpu.assume_multiple` (the compiler may
    /// assume `x` is a multiple of `n`: aligned dynamic slices).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let row = k.multiple_of(k.mul(k.program_id(0)?, 8)?, 8)?; // pl.multiple_of(i * 8, 8)
    ///     k.store(k.outputs[0], k.load_at(k.inputs[0], &[ds(row, 8)])?)
    /// });
    /// assert!(text.contains("tpu.assume_multiple"));
    /// ```
    pub fn multiple_of(&self, x: Value<'c, 'a>, n: i32) -> Result<Value<'c, 'a>, BuildError> {
        if n <= 0 {
            return Err(self.error(
                "multiple_of",
                format!("multiple {n}: give a positive multiple"),
            ));
        }
        Ok(self.one(ops::assume_multiple(self.ctx, x, n, self.location)))
    }
}
