//! TPU chips and what they have: one const table ([`CHIPS`]), a small `Copy`
//! enum ([`Chip`]) parsed from canonical names and JAX `device_kind` spellings,
//! and the checks JAX only makes on a live (or abstract) TPU, made here against
//! an explicit target ([`Chip::check`]).
//!
//! Values are JAX 0.12's `jax._src.tpu_info` (reference §9.1 for the chip
//! properties, §9.2 for `_get_tpu_info_impl`), **per TensorCore**: chip totals
//! such as HBM are divided by the chip's physical TensorCore count, as JAX does.
//! `mlir-fixtures/targets/jax_tpu_info.json` is the same table dumped from real
//! JAX (`scripts/jaxref/dump_tpu_info.py`); the integration tests compare both.
//!
//! Names: [`Chip`] parses its canonical name (`v5e`), JAX's `ChipVersion` value
//! (`7x`) and every `device_kind` JAX maps to it (`TPU v5 lite`, `TPU7x`),
//! ignoring ASCII case (`tpu7x`, `V5E`) but nothing else (no trimming, single
//! spaces as JAX writes them). JAX itself matches `device_kind` exactly; that
//! exact rule is [`Chip::from_device_kind`]. `Display` prints the canonical name.
//!
//! Without a target nothing here is consulted, as JAX on a host without a TPU
//! makes no chip checks. What a target checks is listed at [`Chip::check_all`].
//!
//! Policies: JAX 0.12's `use_core_ids` and `needs_layout_passes` rules do not
//! depend on the chip; [`use_core_ids`] and [`needs_layout_passes`] state them
//! so callers do not look for a chip dependence that is not there.

use std::fmt;
use std::str::FromStr;

use crate::analysis::KernelFacts;
use crate::config::{DeviceType, MemorySpace};

const KIB: u64 = 1024;
const MIB: u64 = 1024 * 1024;

/// A TPU chip JAX 0.12 knows (`jax._src.tpu_info.ChipVersion`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Chip {
    /// TPU v2 (`TPU v2`).
    V2,
    /// TPU v3 (`TPU v3`).
    V3,
    /// TPU v4i, the v4 lite chip (`TPU v4 lite`).
    V4i,
    /// TPU v4 (`TPU v4`).
    V4,
    /// TPU v5e, the v5 lite chip (`TPU v5e`, `TPU v5 lite`).
    V5e,
    /// TPU v5p (`TPU v5`, `TPU v5p`).
    V5p,
    /// TPU v6e, the v6 lite chip, Trillium (`TPU v6e`, `TPU v6 lite`).
    V6e,
    /// TPU7 (`TPU7`).
    V7,
    /// TPU7x, Ironwood (`TPU7x`).
    V7x,
    /// TPU8i (`TPU8i`).
    V8i,
    /// TPU8t (`TPU8t`).
    V8t,
}

/// SparseCore facts of a chip (JAX's `SparseCoreInfo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SparseCoreInfo {
    /// SparseCores per chip (`num_cores`).
    pub cores: u64,
    /// Vector subcores per SparseCore (`num_subcores`).
    pub subcores: u64,
    /// Lanes of a vector subcore (`num_lanes`).
    pub lanes: u64,
    /// VMEM per vector subcore, bytes (`vmem_capacity_bytes`).
    pub vmem_bytes_per_subcore: u64,
    /// DMA granule, bytes (`dma_granule_size_bytes`).
    pub dma_granule_bytes: u64,
}

/// Everything the table knows about one chip; sizes and rates per TensorCore.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChipInfo {
    /// The chip.
    pub chip: Chip,
    /// Canonical name (`v5e`), what `Display` prints.
    pub name: &'static str,
    /// JAX's `ChipVersion` value (`v5e`, `7x`).
    pub jax_chip_version: &'static str,
    /// Every `device_kind` JAX maps to this chip, in JAX's order.
    pub device_kinds: &'static [&'static str],
    /// TPU generation.
    pub generation: u32,
    /// Physical TensorCores per chip (`num_physical_tensor_cores_per_chip`).
    pub tensor_cores_per_chip: u64,
    /// The two TensorCores can act as one device (`supports_megacore`).
    pub megacore: bool,
    /// A lite chip (`is_lite`).
    pub lite: bool,
    /// Vector lanes (`num_lanes`).
    pub lanes: u64,
    /// Vector sublanes (`num_sublanes`).
    pub sublanes: u64,
    /// MXU column size (`mxu_column_size`).
    pub mxu_column_size: u64,
    /// MXUs per TensorCore (`num_mxus`).
    pub mxus: u64,
    /// 32-bit accumulator buffers per MXU, 0 where JAX has none (`num_accumulators`).
    pub accumulators: u64,
    /// VMEM per TensorCore, bytes (`vmem_capacity_bytes`).
    pub vmem_bytes: u64,
    /// SMEM per TensorCore, bytes (`smem_capacity_bytes`).
    pub smem_bytes: u64,
    /// CMEM per TensorCore, bytes; 0 when the chip has none (`cmem_capacity_bytes`).
    pub cmem_bytes: u64,
    /// HBM per TensorCore, bytes (`hbm_capacity_bytes`).
    pub hbm_bytes: u64,
    /// HBM bandwidth per TensorCore, bytes/s (`mem_bw_bytes_per_second`).
    pub hbm_bandwidth_bytes_per_second: u64,
    /// Peak bf16 ops/s per TensorCore (`bf16_ops_per_second`).
    pub bf16_ops_per_second: u64,
    /// Peak int8 ops/s per TensorCore, 0 when not available.
    pub int8_ops_per_second: u64,
    /// Peak fp8 ops/s per TensorCore, 0 when not available.
    pub fp8_ops_per_second: u64,
    /// Peak int4 ops/s per TensorCore, 0 when not available.
    pub int4_ops_per_second: u64,
    /// SparseCore facts, `None` for chips without SparseCores.
    pub sparse_core: Option<SparseCoreInfo>,
}

/// Per-TensorCore values shared by the chips of one `_get_tpu_info_impl` arm.
const fn info(
    chip: Chip,
    name: &'static str,
    jax: &'static str,
    kinds: &'static [&'static str],
) -> ChipInfo {
    ChipInfo {
        chip,
        name,
        jax_chip_version: jax,
        device_kinds: kinds,
        generation: 0,
        tensor_cores_per_chip: 0,
        megacore: false,
        lite: false,
        // §9.2 "Common parameters for all TensorCores": NUM_LANES, NUM_SUBLANES.
        lanes: 128,
        sublanes: 8,
        mxu_column_size: 0,
        mxus: 0,
        accumulators: 0,
        vmem_bytes: 0,
        smem_bytes: 0,
        cmem_bytes: 0,
        hbm_bytes: 0,
        hbm_bandwidth_bytes_per_second: 0,
        bf16_ops_per_second: 0,
        int8_ops_per_second: 0,
        fp8_ops_per_second: 0,
        int4_ops_per_second: 0,
        sparse_core: None,
    }
}

/// The chip table, in [`Chip`] order. Typed in from the reference: chip
/// properties from §9.1 (`ChipVersion`, `chip_version_from_device_kind`),
/// values from §9.2 (`_get_tpu_info_impl`), divided by the physical TensorCore
/// count where JAX divides (`x // tensor_cores_per_chip`, floats floored).
pub const CHIPS: [ChipInfo; 11] = [
    // §9.2 `case ChipVersion.TPU_V2`
    ChipInfo {
        generation: 2,
        tensor_cores_per_chip: 2,
        mxu_column_size: 128,
        mxus: 1,
        vmem_bytes: 16 * MIB,
        smem_bytes: 16 * KIB,
        hbm_bytes: 16_000_000_000 / 2,
        hbm_bandwidth_bytes_per_second: 716_000_000_000 / 2,
        bf16_ops_per_second: 46_000_000_000_000 / 2,
        ..info(Chip::V2, "v2", "v2", &["TPU v2"])
    },
    // §9.2 `case ChipVersion.TPU_V3`
    ChipInfo {
        generation: 3,
        tensor_cores_per_chip: 2,
        mxu_column_size: 128,
        mxus: 2,
        vmem_bytes: 16 * MIB,
        smem_bytes: 16 * KIB,
        hbm_bytes: 34_400_000_000 / 2,
        hbm_bandwidth_bytes_per_second: 825_000_000_000 / 2,
        bf16_ops_per_second: 140_000_000_000_000 / 2,
        ..info(Chip::V3, "v3", "v3", &["TPU v3"])
    },
    // §9.2 `case ChipVersion.TPU_V4I` (one TensorCore: nothing divided)
    ChipInfo {
        generation: 4,
        tensor_cores_per_chip: 1,
        lite: true,
        mxu_column_size: 128,
        mxus: 4,
        vmem_bytes: 16 * MIB,
        smem_bytes: MIB,
        cmem_bytes: 134_000_000,
        hbm_bytes: 8_590_000_000,
        hbm_bandwidth_bytes_per_second: 614_000_000_000,
        bf16_ops_per_second: 137_000_000_000_000,
        ..info(Chip::V4i, "v4i", "v4i", &["TPU v4 lite"])
    },
    // §9.2 `case ChipVersion.TPU_V4`
    ChipInfo {
        generation: 4,
        tensor_cores_per_chip: 2,
        megacore: true,
        mxu_column_size: 128,
        mxus: 4,
        vmem_bytes: 16 * MIB,
        smem_bytes: MIB,
        cmem_bytes: 134_000_000 / 2,
        hbm_bytes: 34_400_000_000 / 2,
        hbm_bandwidth_bytes_per_second: 1_230_000_000_000 / 2,
        bf16_ops_per_second: 275_000_000_000_000 / 2,
        ..info(Chip::V4, "v4", "v4", &["TPU v4"])
    },
    // §9.2 `case ChipVersion.TPU_V5E`
    ChipInfo {
        generation: 5,
        tensor_cores_per_chip: 1,
        lite: true,
        mxu_column_size: 128,
        mxus: 4,
        vmem_bytes: 128 * MIB,
        smem_bytes: MIB,
        hbm_bytes: 17_200_000_000,
        hbm_bandwidth_bytes_per_second: 820_000_000_000,
        bf16_ops_per_second: 197_000_000_000_000,
        int8_ops_per_second: 394_000_000_000_000,
        int4_ops_per_second: 788_000_000_000_000,
        ..info(Chip::V5e, "v5e", "v5e", &["TPU v5e", "TPU v5 lite"])
    },
    // §9.2 `case ChipVersion.TPU_V5P`
    ChipInfo {
        generation: 5,
        tensor_cores_per_chip: 2,
        megacore: true,
        mxu_column_size: 128,
        mxus: 4,
        vmem_bytes: 64 * MIB,
        smem_bytes: MIB,
        hbm_bytes: 103_000_000_000 / 2,
        hbm_bandwidth_bytes_per_second: 2_460_000_000_000 / 2,
        bf16_ops_per_second: 459_000_000_000_000 / 2,
        int8_ops_per_second: 918_000_000_000_000 / 2,
        int4_ops_per_second: 1_840_000_000_000_000 / 2,
        sparse_core: Some(SparseCoreInfo {
            cores: 4,
            subcores: 16,
            lanes: 8,
            vmem_bytes_per_subcore: 512 * KIB,
            dma_granule_bytes: 32,
        }),
        ..info(Chip::V5p, "v5p", "v5p", &["TPU v5", "TPU v5p"])
    },
    // §9.2 `case ChipVersion.TPU_V6E`
    ChipInfo {
        generation: 6,
        tensor_cores_per_chip: 1,
        lite: true,
        mxu_column_size: 256,
        mxus: 2,
        vmem_bytes: 128 * MIB,
        smem_bytes: MIB,
        hbm_bytes: 34_400_000_000,
        hbm_bandwidth_bytes_per_second: 1_640_000_000_000,
        bf16_ops_per_second: 920_000_000_000_000,
        int8_ops_per_second: 1_840_000_000_000_000,
        fp8_ops_per_second: 920_000_000_000_000,
        int4_ops_per_second: 3_680_000_000_000_000,
        sparse_core: Some(SparseCoreInfo {
            cores: 2,
            subcores: 16,
            lanes: 8,
            vmem_bytes_per_subcore: 256 * KIB,
            dma_granule_bytes: 32,
        }),
        ..info(Chip::V6e, "v6e", "v6e", &["TPU v6e", "TPU v6 lite"])
    },
    // §9.2 `case ChipVersion.TPU_7 | ChipVersion.TPU_7X` (one arm, two chips)
    ChipInfo { ..TPU7_VALUES },
    ChipInfo {
        chip: Chip::V7x,
        name: "v7x",
        jax_chip_version: "7x",
        device_kinds: &["TPU7x"],
        ..TPU7_VALUES
    },
    // §9.2 `case ChipVersion.TPU_8I`
    ChipInfo {
        generation: 8,
        tensor_cores_per_chip: 2,
        mxu_column_size: 256,
        mxus: 2,
        accumulators: 256,
        vmem_bytes: 192 * MIB,
        smem_bytes: MIB,
        hbm_bytes: 309_000_000_000 / 2,
        hbm_bandwidth_bytes_per_second: 8_600_000_000_000 / 2,
        bf16_ops_per_second: 1_101_000_000_000_000 / 2,
        fp8_ops_per_second: 8_808_000_000_000_000 / 2,
        sparse_core: Some(SparseCoreInfo {
            cores: 1,
            subcores: 4,
            lanes: 16,
            vmem_bytes_per_subcore: 512 * KIB,
            dma_granule_bytes: 64,
        }),
        ..info(Chip::V8i, "v8i", "8i", &["TPU8i"])
    },
    // §9.2 `case ChipVersion.TPU_8T` (one TensorCore; 16 sublanes)
    ChipInfo {
        generation: 8,
        tensor_cores_per_chip: 1,
        sublanes: 16,
        mxu_column_size: 256,
        mxus: 2,
        accumulators: 256,
        vmem_bytes: 128 * MIB,
        smem_bytes: MIB,
        hbm_bytes: 231_000_000_000,
        hbm_bandwidth_bytes_per_second: 6_400_000_000_000,
        bf16_ops_per_second: 996_100_000_000_000,
        int8_ops_per_second: 996_100_000_000_000,
        fp8_ops_per_second: 5_976_900_000_000_000,
        int4_ops_per_second: 11_953_800_000_000_000,
        sparse_core: Some(SparseCoreInfo {
            cores: 2,
            subcores: 16,
            lanes: 16,
            vmem_bytes_per_subcore: 256 * KIB,
            dma_granule_bytes: 64,
        }),
        ..info(Chip::V8t, "v8t", "8t", &["TPU8t"])
    },
];

// Row `i` of `CHIPS` is the chip with discriminant `i` (what `Chip::info` indexes by).
const _: () = {
    let mut i = 0;
    while i < CHIPS.len() {
        assert!(CHIPS[i].chip as usize == i);
        i += 1;
    }
};

/// §9.2 `case ChipVersion.TPU_7 | ChipVersion.TPU_7X`, as the TPU7 entry.
const TPU7_VALUES: ChipInfo = ChipInfo {
    generation: 7,
    tensor_cores_per_chip: 2,
    mxu_column_size: 256,
    mxus: 2,
    accumulators: 128,
    vmem_bytes: 64 * MIB,
    smem_bytes: MIB,
    hbm_bytes: 206_000_000_000 / 2,
    hbm_bandwidth_bytes_per_second: 7_400_000_000_000 / 2,
    bf16_ops_per_second: 2_310_000_000_000_000 / 2,
    fp8_ops_per_second: 4_600_000_000_000_000 / 2,
    sparse_core: Some(SparseCoreInfo {
        cores: 2,
        subcores: 16,
        lanes: 16,
        vmem_bytes_per_subcore: 512 * KIB,
        dma_granule_bytes: 32,
    }),
    ..info(Chip::V7, "v7", "7", &["TPU7"])
};

impl Chip {
    /// Every chip, in table order.
    pub const ALL: [Chip; 11] = [
        Chip::V2,
        Chip::V3,
        Chip::V4i,
        Chip::V4,
        Chip::V5e,
        Chip::V5p,
        Chip::V6e,
        Chip::V7,
        Chip::V7x,
        Chip::V8i,
        Chip::V8t,
    ];

    /// The chip's row of [`CHIPS`].
    pub const fn info(self) -> &'static ChipInfo {
        &CHIPS[self as usize]
    }

    /// The TensorCores that share one device's grid: 2 on megacore chips
    /// (v4, v5p: JAX's `supports_megacore`), where Mosaic splits the leading
    /// `parallel` grid dimension between them; 1 elsewhere (v7x's two
    /// TensorCores are two JAX devices).
    pub const fn grid_cores(self) -> usize {
        let info = self.info();
        if info.megacore && info.tensor_cores_per_chip > 1 {
            info.tensor_cores_per_chip as usize
        } else {
            1
        }
    }

    /// Canonical name (`v5e`).
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// The chip has SparseCores.
    pub const fn has_sparse_cores(self) -> bool {
        self.info().sparse_core.is_some()
    }

    /// JAX's exact `chip_version_from_device_kind` (case-sensitive, no
    /// aliases): `Some(V5e)` for `TPU v5 lite`, `None` for `tpu v5 lite`.
    pub fn from_device_kind(device_kind: &str) -> Option<Chip> {
        Chip::ALL
            .into_iter()
            .find(|chip| chip.info().device_kinds.contains(&device_kind))
    }

    /// Checks a kernel against this chip; the first failure, in the order of
    /// [`Chip::check_all`] (SparseCore availability, SparseCore cores, subcores
    /// — JAX's own order —, TensorCores, megacore, VMEM, memory spaces).
    pub fn check(self, query: &TargetQuery) -> Result<(), TargetError> {
        match self.check_all(query).into_iter().next() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    /// Every failure of a kernel against this chip (empty when it fits).
    ///
    /// - SparseCore kernel (`device_type = SparseCore`): the chip must have
    ///   SparseCores, the core-parallel bound must not exceed its SparseCores
    ///   and the subcore-parallel bound its subcores (JAX's `ScalarSubcoreMesh`
    ///   and `VectorSubcoreMesh` checks, §9.3, JAX's messages). Without
    ///   SparseCores the core counts are not compared.
    /// - Other kernels: a core-parallel bound must not exceed the chip's
    ///   physical TensorCores (JAX has no such check; no configuration of the
    ///   chip has more cores to place it on, so this is our own rule and
    ///   message). A `TensorCoreMesh` lowers to a `parallel`
    ///   dimension, like a grid, so it is not checkable from the kernel.
    /// - A logical device spans more than one TensorCore only on a megacore
    ///   chip (v4, v5p): JAX's `get_tpu_info_for_chip` rule and message.
    /// - `vmem_limit_bytes` and `internal_scratch_in_bytes` (both VMEM) must
    ///   fit the chip's VMEM per TensorCore, for every kernel kind. Negative
    ///   values are left to parameter validation.
    /// - Config memory spaces `SC_*` need SparseCores; kernel memory space
    ///   `vmem_shared` needs SparseCores and `cmem` needs CMEM (v4, v4i).
    ///   Each missing space is reported once.
    pub fn check_all(self, query: &TargetQuery) -> Vec<TargetError> {
        let info = self.info();
        let mut errors = Vec::new();
        let sparse = query.device_type == Some(DeviceType::SparseCore);
        if sparse {
            match info.sparse_core {
                None => errors.push(TargetError::NoSparseCores { chip: self }),
                Some(sc) => {
                    if let Some(requested) = query.core_count.filter(|&n| n > sc.cores) {
                        errors.push(TargetError::TooManySparseCores {
                            chip: self,
                            requested,
                            available: sc.cores,
                        });
                    }
                    if let Some(requested) = query.subcore_count.filter(|&n| n > sc.subcores) {
                        errors.push(TargetError::TooManySubcores {
                            chip: self,
                            requested,
                            available: sc.subcores,
                        });
                    }
                }
            }
        } else if let Some(requested) = query.core_count.filter(|&n| n > info.tensor_cores_per_chip)
        {
            errors.push(TargetError::TooManyTensorCores {
                chip: self,
                requested,
                available: info.tensor_cores_per_chip,
            });
        }
        if let Some(requested) = query
            .tensor_cores_per_device
            .filter(|&n| n != 1 && !info.megacore)
        {
            errors.push(TargetError::TensorCoresPerDevice {
                chip: self,
                requested,
            });
        }
        for (field, value) in [
            (VmemField::VmemLimitBytes, query.vmem_limit_bytes),
            (
                VmemField::InternalScratchInBytes,
                query.internal_scratch_in_bytes,
            ),
        ] {
            // libtpu compiles a limit above the VMEM (and ignores the scratch
            // size of SparseCore kernels): warnings of the `libtpu` module instead.
            let relaxed = field == VmemField::VmemLimitBytes
                || query.device_type == Some(DeviceType::SparseCore);
            if let Some(bytes) = value.and_then(|v| u64::try_from(v).ok())
                && bytes > info.vmem_bytes
                && !relaxed
            {
                errors.push(TargetError::VmemExceeded {
                    chip: self,
                    field,
                    bytes,
                    vmem_bytes: info.vmem_bytes,
                });
            }
        }
        let mut seen = Vec::new();
        for &space in &query.memory_spaces {
            if space_needs_sparse_cores(space) && !self.has_sparse_cores() && !seen.contains(&space)
            {
                seen.push(space);
                errors.push(TargetError::MemorySpaceUnavailable {
                    chip: self,
                    memory_space: space,
                });
            }
        }
        let mut seen = Vec::new();
        for &space in &query.kernel_memory_spaces {
            let missing = match space {
                TpuMemorySpace::VmemShared => !self.has_sparse_cores(),
                TpuMemorySpace::Cmem => info.cmem_bytes == 0,
                _ => false,
            };
            if missing && !seen.contains(&space) {
                seen.push(space);
                errors.push(TargetError::KernelMemorySpaceUnavailable {
                    chip: self,
                    memory_space: space,
                });
            }
        }
        errors
    }
}

const fn space_needs_sparse_cores(space: MemorySpace) -> bool {
    matches!(
        space,
        MemorySpace::ScScalarSemaphoreMem
            | MemorySpace::ScVectorSemaphoreMem
            | MemorySpace::ScScalarSmem
            | MemorySpace::ScVectorSmem
    )
}

/// JAX's name of a config memory space (`tpu_custom_call.MemorySpace`).
pub const fn memory_space_name(space: MemorySpace) -> &'static str {
    match space {
        MemorySpace::Hbm => "HBM",
        MemorySpace::Vmem => "VMEM",
        MemorySpace::SemaphoreMem => "SEMAPHORE_MEM",
        MemorySpace::Smem => "SMEM",
        MemorySpace::Host => "HOST",
        MemorySpace::ScScalarSemaphoreMem => "SC_SCALAR_SEMAPHORE_MEM",
        MemorySpace::ScVectorSemaphoreMem => "SC_VECTOR_SEMAPHORE_MEM",
        MemorySpace::ScScalarSmem => "SC_SCALAR_SMEM",
        MemorySpace::ScVectorSmem => "SC_VECTOR_SMEM",
    }
}

impl fmt::Display for Chip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Chip {
    type Err = TargetError;

    /// Canonical names, JAX `ChipVersion` values and JAX `device_kind`s, ASCII
    /// case ignored.
    fn from_str(name: &str) -> Result<Chip, TargetError> {
        Chip::ALL
            .into_iter()
            .find(|chip| chip.info().names().any(|n| n.eq_ignore_ascii_case(name)))
            .ok_or_else(|| TargetError::UnknownChip {
                name: name.to_string(),
            })
    }
}

impl ChipInfo {
    /// Every spelling that parses to this chip: canonical name, then
    /// [`ChipInfo::aliases`].
    pub fn names(&self) -> impl Iterator<Item = &'static str> + use<> {
        std::iter::once(self.name).chain(self.aliases())
    }

    /// The aliases: JAX's `ChipVersion` value when it differs from the
    /// canonical name (`7x`), then the `device_kind`s (`TPU7x`).
    pub fn aliases(&self) -> impl Iterator<Item = &'static str> + use<> {
        let jax = (self.jax_chip_version != self.name).then_some(self.jax_chip_version);
        jax.into_iter().chain(self.device_kinds.iter().copied())
    }
}

pub use crate::mosaic::vocab::TpuMemorySpace;

impl fmt::Display for TpuMemorySpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#tpu.memory_space<{}>", self.keyword())
    }
}

impl FromStr for TpuMemorySpace {
    type Err = TargetError;

    /// The keyword (`vmem_shared`) or the whole attribute
    /// (`#tpu.memory_space<vmem_shared>`), exactly.
    fn from_str(text: &str) -> Result<Self, TargetError> {
        let keyword = text
            .strip_prefix("#tpu.memory_space<")
            .and_then(|rest| rest.strip_suffix('>'))
            .unwrap_or(text);
        TpuMemorySpace::ALL
            .into_iter()
            .find(|space| space.keyword() == keyword)
            .ok_or_else(|| TargetError::UnknownMemorySpace {
                text: text.to_string(),
            })
    }
}

/// What a target check needs to know about one lowering: plain data, filled by
/// the caller from kernel analysis ([`TargetQuery::from_facts`]) and the
/// parameters. `None` and empty fields are not checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TargetQuery {
    /// The kernel's device type (`None` for TensorCore kernels, as JAX).
    pub device_type: Option<DeviceType>,
    /// Iteration bound of the `core_parallel` dimension (JAX's active core count).
    pub core_count: Option<u64>,
    /// Iteration bound of the `subcore_parallel` dimension (SparseCore vector subcores).
    pub subcore_count: Option<u64>,
    /// TensorCores one logical device spans (a JAX device's `num_cores`: 2 for
    /// a v4 or v5p in megacore mode, else 1).
    pub tensor_cores_per_device: Option<u64>,
    /// The `vmem_limit_bytes` parameter.
    pub vmem_limit_bytes: Option<i64>,
    /// The `internal_scratch_in_bytes` parameter.
    pub internal_scratch_in_bytes: Option<i64>,
    /// Config memory spaces used (input and output memory space colors).
    pub memory_spaces: Vec<MemorySpace>,
    /// Memory spaces of the kernel's memrefs.
    pub kernel_memory_spaces: Vec<TpuMemorySpace>,
}

impl TargetQuery {
    /// Device type and core count from kernel analysis; the rest empty.
    pub fn from_facts(facts: &KernelFacts) -> Self {
        TargetQuery {
            device_type: facts.device_type,
            core_count: facts.active_core_count,
            ..TargetQuery::default()
        }
    }
}

/// Which VMEM-sized parameter a [`TargetError::VmemExceeded`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VmemField {
    /// `vmem_limit_bytes`.
    VmemLimitBytes,
    /// `internal_scratch_in_bytes`.
    InternalScratchInBytes,
}

impl fmt::Display for VmemField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            VmemField::VmemLimitBytes => "vmem_limit_bytes",
            VmemField::InternalScratchInBytes => "internal_scratch_in_bytes",
        })
    }
}

/// A target name that is not known, or a kernel that does not fit its target.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TargetError {
    /// The name is no chip's canonical name or alias.
    #[error(
        "unknown TPU target `{name}`: known chips are {} (JAX device kinds such as `TPU v5 lite` and `TPU7x` \
         work too; `tpu-custom-call targets` lists every name)",
        known_names()
    )]
    UnknownChip {
        /// The name given.
        name: String,
    },
    /// Not a `tpu` dialect memory space.
    #[error(
        "unknown Mosaic memory space `{text}`: expected one of any, vmem, smem, hbm, cmem, semaphore_mem, \
         vmem_shared, host"
    )]
    UnknownMemorySpace {
        /// The text given.
        text: String,
    },
    /// A SparseCore kernel on a chip without SparseCores (JAX's
    /// `get_sparse_core_info`, §9.3).
    #[error("The current TPU does not have SparseCores")]
    NoSparseCores {
        /// The target.
        chip: Chip,
    },
    /// The core-parallel bound of a SparseCore kernel exceeds the chip's
    /// SparseCores (JAX's SparseCore mesh check, §9.3).
    #[error(
        "Mesh has {requested} cores, but the current TPU chip has only {available} SparseCores"
    )]
    TooManySparseCores {
        /// The target.
        chip: Chip,
        /// The core-parallel iteration bound.
        requested: u64,
        /// The chip's SparseCores.
        available: u64,
    },
    /// The subcore-parallel bound exceeds the subcores of a SparseCore
    /// (JAX's `VectorSubcoreMesh` check, §9.3).
    #[error(
        "Mesh has {requested} subcores, but the current TPU chip has only {available} subcores"
    )]
    TooManySubcores {
        /// The target.
        chip: Chip,
        /// The subcore-parallel iteration bound.
        requested: u64,
        /// Subcores per SparseCore.
        available: u64,
    },
    /// The core-parallel bound of a TensorCore kernel exceeds the chip's
    /// physical TensorCores (JAX has no message for this).
    #[error(
        "core_parallel dimension has {requested} cores, but {chip} has only {available} TensorCore{}: \
         lower the iteration bound of the core_parallel dimension to at most {available}",
        if *available == 1 { "" } else { "s" }
    )]
    TooManyTensorCores {
        /// The target.
        chip: Chip,
        /// The core-parallel iteration bound.
        requested: u64,
        /// Physical TensorCores per chip.
        available: u64,
    },
    /// Several TensorCores per logical device on a chip without megacore
    /// (JAX's `get_tpu_info_for_chip`, §9.2).
    #[error(
        "Lite chips, single core chips, and dual-core chips that do not support Megacore must have \
         num_tensor_cores_per_logical_device=1, but got {requested}."
    )]
    TensorCoresPerDevice {
        /// The target.
        chip: Chip,
        /// TensorCores per logical device asked for.
        requested: u64,
    },
    /// A VMEM-sized parameter above the chip's VMEM per TensorCore.
    #[error("`{field}` = {} exceeds the {} of VMEM on {chip}", mib(*bytes), mib(*vmem_bytes))]
    VmemExceeded {
        /// The target.
        chip: Chip,
        /// Which parameter.
        field: VmemField,
        /// Its value.
        bytes: u64,
        /// The chip's VMEM per TensorCore.
        vmem_bytes: u64,
    },
    /// A config memory space the chip does not have.
    #[error(
        "memory space {} (color {}) needs SparseCores, which {chip} does not have",
        memory_space_name(*memory_space),
        memory_space.color()
    )]
    MemorySpaceUnavailable {
        /// The target.
        chip: Chip,
        /// The memory space.
        memory_space: MemorySpace,
    },
    /// A kernel memref memory space the chip does not have.
    #[error(
        "kernel memory space `{memory_space}` needs {}, which {chip} does not have",
        if *memory_space == TpuMemorySpace::Cmem { "CMEM (v4 and v4i have it)" } else { "SparseCores" }
    )]
    KernelMemorySpaceUnavailable {
        /// The target.
        chip: Chip,
        /// The memory space.
        memory_space: TpuMemorySpace,
    },
}

fn known_names() -> String {
    Chip::ALL.map(Chip::name).join(", ")
}

/// `300 MiB`; sizes that are not whole MiB also in bytes (`1.43 MiB (1500000 bytes)`).
pub(crate) fn mib(bytes: u64) -> String {
    if bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{:.2} MiB ({bytes} bytes)", bytes as f64 / MIB as f64)
    }
}

/// Whether the config names SparseCore cores with `sparse_core_config.core_ids`
/// (`true`) or the legacy `megachip_parallelism_config` (`false`).
///
/// JAX 0.12 (§5.1): `not ctx.is_forward_compat() and
/// is_libtpu_at_least("0.0.50")`; the libtpu check is always true off a Cloud
/// TPU VM, which is what a compiler targeting a chip it does not run on is.
/// The chip plays no part, so neither does the target here.
pub const fn use_core_ids(forward_compatible: bool) -> bool {
    !forward_compatible
}

/// The effective `needs_layout_passes`.
///
/// JAX 0.12 (`_lower_to_custom_call_config`, §4.1): `needs_layout_passes or
/// not device_type`, so a TensorCore kernel (device type `None`) always gets
/// `true`, a SparseCore kernel what was asked (Pallas' default is `true`,
/// `as_tpu_kernel`'s `None`, `lowered_as_tpu_kernel`'s `false`). An explicit
/// `device_type` (never produced by JAX's own analysis) counts as given, as in
/// JAX. The chip plays no part.
pub const fn needs_layout_passes(requested: Option<bool>, device_type: Option<DeviceType>) -> bool {
    matches!(requested, Some(true)) || device_type.is_none()
}
