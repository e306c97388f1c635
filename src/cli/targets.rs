//! `tpu-custom-call targets`: the TPU chip table, all chips or one, as text or JSON.

use serde_json::{Value, json};
use tpu_custom_call::target::{CHIPS, ChipInfo, SparseCoreInfo};
use tpu_custom_call::{Chip, TargetError};

use super::{CliResult, write_output};

/// Arguments of `targets`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Values are per TensorCore, as JAX 0.12's jax._src.tpu_info gives them.\n\n\
Examples:\n  tpu-custom-call targets\n  tpu-custom-call targets v5p\n  \
tpu-custom-call targets 'TPU v5 lite'\n  tpu-custom-call targets --json | jq '.[].vmem_bytes'"
)]
pub struct Args {
    /// One chip to show in full: canonical name (v5e), JAX chip version (7x) or device_kind
    /// (`TPU v5 lite`, `TPU7x`); ASCII case is ignored.
    pub name: Option<String>,
    /// Print JSON (every number, sizes in bytes): an array of chips, or one chip with NAME.
    #[arg(long)]
    pub json: bool,
}

/// Runs `targets`.
pub fn run(args: Args) -> CliResult {
    let chip = match &args.name {
        Some(name) => Some(
            name.parse::<Chip>()
                .map_err(|e: TargetError| e.to_string())?,
        ),
        None => None,
    };
    let out = match (chip, args.json) {
        (None, false) => table(),
        (None, true) => pretty(&Value::Array(CHIPS.iter().map(chip_json).collect())),
        (Some(chip), false) => detail(chip.info()),
        (Some(chip), true) => pretty(&chip_json(chip.info())),
    };
    write_output(None, out.as_bytes())
}

fn pretty(value: &Value) -> String {
    // A `Value` built here always serializes.
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// One chip as JSON: names, then every number in table order (sizes in bytes).
pub fn chip_json(info: &ChipInfo) -> Value {
    json!({
        "name": info.name,
        "jax_chip_version": info.jax_chip_version,
        "aliases": info.aliases().collect::<Vec<_>>(),
        "device_kinds": info.device_kinds,
        "generation": info.generation,
        "tensor_cores_per_chip": info.tensor_cores_per_chip,
        "megacore": info.megacore,
        "lite": info.lite,
        "lanes": info.lanes,
        "sublanes": info.sublanes,
        "mxu_column_size": info.mxu_column_size,
        "mxus": info.mxus,
        "accumulators": info.accumulators,
        "vmem_bytes": info.vmem_bytes,
        "smem_bytes": info.smem_bytes,
        "cmem_bytes": info.cmem_bytes,
        "hbm_bytes": info.hbm_bytes,
        "hbm_bandwidth_bytes_per_second": info.hbm_bandwidth_bytes_per_second,
        "bf16_ops_per_second": info.bf16_ops_per_second,
        "int8_ops_per_second": info.int8_ops_per_second,
        "fp8_ops_per_second": info.fp8_ops_per_second,
        "int4_ops_per_second": info.int4_ops_per_second,
        "sparse_core": info.sparse_core.map(|sc| json!({
            "cores": sc.cores,
            "subcores": sc.subcores,
            "lanes": sc.lanes,
            "vmem_bytes_per_subcore": sc.vmem_bytes_per_subcore,
            "dma_granule_bytes": sc.dma_granule_bytes,
        })),
    })
}

/// Every chip, one row each, columns aligned.
fn table() -> String {
    let header = [
        "chip",
        "gen",
        "TCs",
        "megacore",
        "lite",
        "lanes",
        "sublanes",
        "MXU",
        "MXUs",
        "VMEM",
        "SMEM",
        "CMEM",
        "HBM",
        "SparseCores",
        "device kinds",
    ];
    let rows: Vec<Vec<String>> = CHIPS
        .iter()
        .map(|c| {
            vec![
                c.name.to_string(),
                c.generation.to_string(),
                c.tensor_cores_per_chip.to_string(),
                yes_no(c.megacore),
                yes_no(c.lite),
                c.lanes.to_string(),
                c.sublanes.to_string(),
                c.mxu_column_size.to_string(),
                c.mxus.to_string(),
                size(c.vmem_bytes),
                size(c.smem_bytes),
                size(c.cmem_bytes),
                size(c.hbm_bytes),
                c.sparse_core
                    .map_or_else(|| "-".to_string(), sparse_core_short),
                c.device_kinds.join(", "),
            ]
        })
        .collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    for row in std::iter::once(&header).chain(&rows) {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, &width)| format!("{cell:<width$}"))
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out.push_str(
        "\nPer TensorCore (JAX 0.12 jax._src.tpu_info). MXU: column size. SparseCores: cores x subcores \
         (vector lanes, VMEM per subcore, DMA granule).\n",
    );
    out
}

fn sparse_core_short(sc: SparseCoreInfo) -> String {
    format!(
        "{}x{} ({} lanes, {}, {} B)",
        sc.cores,
        sc.subcores,
        sc.lanes,
        size(sc.vmem_bytes_per_subcore),
        sc.dma_granule_bytes
    )
}

/// One chip, every field on its own line.
fn detail(c: &ChipInfo) -> String {
    let mut lines: Vec<(&str, String)> = vec![
        ("chip", c.name.to_string()),
        ("aliases", c.aliases().collect::<Vec<_>>().join(", ")),
        ("JAX chip version", c.jax_chip_version.to_string()),
        ("JAX device kinds", c.device_kinds.join(", ")),
        ("generation", c.generation.to_string()),
        ("TensorCores per chip", c.tensor_cores_per_chip.to_string()),
        ("megacore", yes_no(c.megacore)),
        ("lite", yes_no(c.lite)),
        ("lanes", c.lanes.to_string()),
        ("sublanes", c.sublanes.to_string()),
        ("MXU column size", c.mxu_column_size.to_string()),
        ("MXUs per TensorCore", c.mxus.to_string()),
        ("accumulators per MXU", c.accumulators.to_string()),
        ("VMEM per TensorCore", bytes(c.vmem_bytes)),
        ("SMEM per TensorCore", bytes(c.smem_bytes)),
        ("CMEM per TensorCore", bytes(c.cmem_bytes)),
        ("HBM per TensorCore", bytes(c.hbm_bytes)),
        (
            "HBM bandwidth",
            format!("{} bytes/s", c.hbm_bandwidth_bytes_per_second),
        ),
        ("bf16 ops/s", c.bf16_ops_per_second.to_string()),
        ("int8 ops/s", c.int8_ops_per_second.to_string()),
        ("fp8 ops/s", c.fp8_ops_per_second.to_string()),
        ("int4 ops/s", c.int4_ops_per_second.to_string()),
    ];
    match c.sparse_core {
        None => lines.push(("SparseCores", "none".to_string())),
        Some(sc) => {
            lines.push(("SparseCores", sc.cores.to_string()));
            lines.push(("SparseCore subcores", sc.subcores.to_string()));
            lines.push(("SparseCore lanes", sc.lanes.to_string()));
            lines.push((
                "SparseCore VMEM per subcore",
                bytes(sc.vmem_bytes_per_subcore),
            ));
            lines.push((
                "SparseCore DMA granule",
                format!("{} bytes", sc.dma_granule_bytes),
            ));
        }
    }
    let width = lines.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    let mut out = String::new();
    for (key, value) in lines {
        out.push_str(&format!("{key:<width$}  {value}\n"));
    }
    out
}

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.to_string()
}

/// `64 MiB (67108864 bytes)`, `0 bytes`.
fn bytes(n: u64) -> String {
    if n == 0 {
        "0 bytes".to_string()
    } else {
        format!("{} ({n} bytes)", size(n))
    }
}

/// Short size: binary units when exact (`16 KiB`, `64 MiB`; KiB only below
/// 1 MiB), else decimal
/// (`17.2 GB`, `134 MB`); `-` for 0.
fn size(n: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * 1024;
    if n == 0 {
        "-".to_string()
    } else if n.is_multiple_of(MIB) {
        format!("{} MiB", n / MIB)
    } else if n < MIB && n.is_multiple_of(KIB) {
        format!("{} KiB", n / KIB)
    } else if n >= 1_000_000_000 {
        format!("{} GB", decimal(n, 1_000_000_000))
    } else {
        format!("{} MB", decimal(n, 1_000_000))
    }
}

/// `n / unit` with at most two decimals, trailing zeros dropped.
fn decimal(n: u64, unit: u64) -> String {
    let hundredths = (n as u128 * 100 + unit as u128 / 2) / unit as u128;
    let text = format!("{}.{:02}", hundredths / 100, hundredths % 100);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}
