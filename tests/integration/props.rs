//! Property tests (proptest) of the PARAMS.json reader and writer.
//!
//! Case counts default to 256 (CI-affordable); set `PROPTEST_CASES=10000` for
//! the long run (`PROPTEST_CASES=10000 cargo test --test integration props::`).

use proptest::prelude::*;
use tpu_custom_call::params::PARAM_KEYS;
use tpu_custom_call::{Params, ParamsError, SideEffect};

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(256);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

prop_compose! {
    fn valid_params()(
        kernel_name in proptest::option::of("[a-z_][a-z0-9_]{0,15}"),
        vmem in proptest::option::of(0i64..(1 << 30)),
        scratch in proptest::option::of(0i64..(1 << 24)),
        collective_id in proptest::option::of(0i64..1024),
        side_effects in prop_oneof![
            Just(SideEffect::Pure),
            Just(SideEffect::DataflowSideEffecting),
            Just(SideEffect::SideEffecting),
        ],
        bools in proptest::array::uniform8(any::<bool>()),
        fusion in proptest::option::of(proptest::collection::vec(any::<bool>(), 0..6)),
    ) -> Params {
        Params {
            kernel_name,
            vmem_limit_bytes: vmem,
            internal_scratch_in_bytes: scratch,
            collective_id,
            allow_collective_id_without_custom_barrier: bools[0],
            has_side_effects: side_effects,
            disable_bounds_checks: bools[1],
            disable_semaphore_checks: bools[2],
            skip_device_barrier: bools[3],
            shape_invariant_numerics: bools[4],
            needs_layout_passes: bools[5],
            needs_hlo_passes: bools[6],
            forward_compatible: bools[7],
            allow_input_fusion: fusion,
            ..Params::default()
        }
    }
}

/// A JSON value of a kind no parameter takes for most keys.
fn odd_value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("\"\\u0000\"".to_string()),
        Just("[[[]]]".to_string()),
        Just("{\"x\": {}}".to_string()),
        Just("-1".to_string()),
        Just("1e400".to_string()),
        Just("99999999999999999999999".to_string()),
        Just("\"not a value\"".to_string()),
        Just("[1, \"a\", null]".to_string()),
        Just("1.5".to_string()),
    ]
}

proptest! {
    #![proptest_config(config())]

    /// Params -> to_json -> from_json gives the same params.
    #[test]
    fn valid_params_round_trip(params in valid_params()) {
        let json = params.to_json();
        let back = Params::from_json(json.as_bytes());
        prop_assert_eq!(back.as_ref().ok(), Some(&params), "{}\n{:?}", json, back);
    }

    /// A known key with an odd value is an error naming that key, or is
    /// accepted; never a panic.
    #[test]
    fn odd_values_name_their_key(key in proptest::sample::select(PARAM_KEYS.to_vec()), value in odd_value()) {
        let json = format!("{{\"{key}\": {value}}}");
        if let Err(err) = Params::from_json(json.as_bytes()) {
            match &err {
                ParamsError::Json { path, .. } => prop_assert!(path.to_string().contains(key), "{}", err),
                _ => prop_assert_eq!(err.key().map(|k| k.name()), Some(key), "{}", err),
            }
            prop_assert!(!err.to_string().is_empty());
        }
    }

    /// Arbitrary bytes never panic the reader.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = Params::from_json(&bytes);
        let _ = Params::from_json_all(&bytes);
    }
}

// ---------------------------------------------------------------------------
// Backend configs
// ---------------------------------------------------------------------------

use tpu_custom_call::analysis::KernelFacts;
use tpu_custom_call::config::json::{JsonPath, PathSegment};
use tpu_custom_call::params::ParamsCostEstimate;
use tpu_custom_call::{
    BackendConfig, CostEstimate, DeviceType, FlagValue, MemorySpace, OptLevel, ReadError, Tiling,
    WriteError, lower_config,
};

/// A flag name JAX writes as valid JSON: printable ASCII without `"` or `\`.
fn flag_name() -> impl Strategy<Value = String> {
    "[ !#-\\[\\]-~]{1,24}"
}

fn flag_value() -> impl Strategy<Value = FlagValue> {
    prop_oneof![
        any::<bool>().prop_map(FlagValue::Bool),
        any::<i64>().prop_map(FlagValue::Int),
        any::<f64>()
            .prop_filter("finite", |v| v.is_finite())
            .prop_map(FlagValue::Double),
    ]
}

/// Flags with distinct names (JAX's flags are a dict).
fn flags() -> impl Strategy<Value = Option<Vec<(String, FlagValue)>>> {
    proptest::option::of(
        proptest::collection::btree_map(flag_name(), flag_value(), 0..5)
            .prop_map(|m| m.into_iter().collect()),
    )
}

fn memory_space() -> impl Strategy<Value = MemorySpace> {
    proptest::sample::select(MemorySpace::ALL.to_vec())
}

/// The memory spaces JAX writes for inputs.
fn input_memory_space() -> impl Strategy<Value = MemorySpace> {
    proptest::sample::select(vec![MemorySpace::Hbm, MemorySpace::Vmem, MemorySpace::Smem])
}

fn cost() -> impl Strategy<Value = CostEstimate> {
    (any::<u64>(), any::<u64>(), any::<u64>(), any::<u64>()).prop_map(|(a, b, c, d)| CostEstimate {
        flops: a,
        transcendentals: b,
        bytes_accessed: c,
        remote_bytes_transferred: d,
    })
}

prop_compose! {
    /// Any backend config the writer accepts (every field in its domain).
    fn any_config()(
        body in proptest::collection::vec(any::<u8>(), 0..64),
        debug in proptest::option::of(proptest::collection::vec(any::<u8>(), 0..32)),
        ints in (
            proptest::option::of(any::<i32>()),
            proptest::option::of(any::<u64>()),
            proptest::option::of(any::<u64>()),
            proptest::option::of(any::<u32>()),
            proptest::option::of(0u64..4),
            proptest::option::of(any::<u32>()),
        ),
        bools in proptest::array::uniform8(any::<bool>()),
        device in proptest::option::of(prop_oneof![Just(DeviceType::TensorCore), Just(DeviceType::SparseCore)]),
        cost in proptest::option::of(cost()),
        flags in flags(),
        fusion in proptest::option::of(proptest::collection::vec(any::<bool>(), 0..6)),
        outputs in proptest::option::of(proptest::collection::vec(proptest::option::of(memory_space()), 0..4)),
        inputs in proptest::option::of(proptest::collection::vec(proptest::option::of(input_memory_space()), 0..4)),
        tiling in proptest::option::of(prop_oneof![Just(Tiling::Compact), Just(Tiling::SparseCore)]),
        opt in proptest::option::of(proptest::sample::select(vec![OptLevel::O0, OptLevel::O1, OptLevel::O2, OptLevel::O3])),
    ) -> BackendConfig {
        let (collective_id, vmem, scratch, format, cores, ir) = ints;
        BackendConfig {
            body,
            ir_version: ir,
            has_communication: bools[0],
            collective_id,
            device_type: device,
            cost_estimate: cost,
            needs_hlo_passes: bools[1],
            needs_layout_passes: bools[2],
            vmem_limit_bytes: vmem,
            flags,
            allow_input_fusion: fusion,
            serialization_format: format,
            internal_scratch_in_bytes: scratch,
            output_memory_spaces: outputs,
            disable_bounds_checks: bools[3],
            disable_semaphore_checks: bools[4],
            active_core_count: cores,
            input_memory_spaces: inputs,
            skip_device_barrier: bools[5],
            shape_invariant_numerics: bools[6],
            tiling,
            opt_level: opt,
            debug_locations: debug,
            implicit_sharding: None,
        }
    }
}

prop_compose! {
    /// Parameters every rule accepts for a kernel with `facts`, and those facts.
    fn valid_call()(
        sparse_core in any::<bool>(),
        communication in any::<bool>(),
        cores in proptest::option::of(1u64..3),
        vmem in proptest::option::of(1i64..(1 << 40)),
        scratch in proptest::option::of(0i64..(1 << 30)),
        collective_id in proptest::option::of(0i64..1024),
        cost in proptest::option::of((0i64..i64::MAX, 0i64..i64::MAX, 0i64..i64::MAX, 0i64..i64::MAX)),
        flags in flags(),
        fusion in proptest::option::of(proptest::collection::vec(any::<bool>(), 0..6)),
        outputs in proptest::option::of(proptest::collection::vec(proptest::option::of(memory_space()), 1..2)),
        inputs in proptest::option::of(proptest::collection::vec(proptest::option::of(input_memory_space()), 0..4)),
        bools in proptest::array::uniform8(any::<bool>()),
        tiling in proptest::option::of(prop_oneof![Just(Tiling::Compact), Just(Tiling::SparseCore)]),
        opt in proptest::option::of(proptest::sample::select(vec![OptLevel::O0, OptLevel::O1, OptLevel::O2, OptLevel::O3])),
        ir_version in proptest::option::of(11u32..=18),
    ) -> (Params, KernelFacts) {
        let facts = KernelFacts {
            has_communication: communication,
            has_custom_barrier: false,
            device_type: sparse_core.then_some(DeviceType::SparseCore),
            active_core_count: cores,
        };
        let outputs = outputs.map(|list| {
            list.into_iter()
                .map(|m| m.filter(|m| sparse_core || !m.is_sparse_core_only()))
                .collect()
        });
        let params = Params {
            vmem_limit_bytes: vmem,
            internal_scratch_in_bytes: scratch,
            collective_id,
            allow_collective_id_without_custom_barrier: true,
            cost_estimate: cost.map(|(a, b, c, d)| ParamsCostEstimate {
                flops: a,
                transcendentals: b,
                bytes_accessed: c,
                remote_bytes_transferred: d,
            }),
            flags,
            allow_input_fusion: fusion,
            output_memory_spaces: outputs,
            input_memory_spaces: inputs,
            disable_bounds_checks: bools[0],
            disable_semaphore_checks: bools[1],
            skip_device_barrier: bools[2],
            shape_invariant_numerics: bools[3],
            needs_layout_passes: !sparse_core || bools[4],
            needs_hlo_passes: bools[5],
            tiling: if sparse_core { tiling } else { None },
            opt_level: if sparse_core { opt } else { None },
            ir_version,
            ..Params::default()
        };
        (params, facts)
    }
}

/// The leaves (non-container values) of a JSON value, with their paths.
fn leaves(value: &serde_json::Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                path.push(k.clone());
                leaves(v, path, out);
                path.pop();
            }
        }
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                path.push(i.to_string());
                leaves(v, path, out);
                path.pop();
            }
        }
        _ => out.push(path.clone()),
    }
}

fn leaf_mut<'a>(value: &'a mut serde_json::Value, path: &[String]) -> &'a mut serde_json::Value {
    path.iter().fold(value, |v, step| match v {
        serde_json::Value::Array(items) => &mut items[step.parse::<usize>().unwrap()],
        other => &mut other[step.as_str()],
    })
}

/// The JSON path (`$.a.b[0]`) of `path`, as the reader spells it.
fn json_path(path: &[String]) -> String {
    JsonPath(
        path.iter()
            .map(|s| match s.parse::<usize>() {
                Ok(i) => PathSegment::Index(i),
                Err(_) => PathSegment::Key(s.clone()),
            })
            .collect(),
    )
    .to_string()
}

proptest! {
    #![proptest_config(config())]

    /// Any config the writer accepts reads back as its canonical form, and
    /// writing that gives the same bytes (read(write(x)) == x.canonical()).
    /// (Found: the writer accepted a flag given twice, which the reader
    /// refuses; now `WriteError::DuplicateFlag`.)
    #[test]
    fn backend_configs_round_trip(config in any_config(), use_core_ids in any::<bool>()) {
        let mut twice = config.clone();
        if let Some(first) = twice.flags.as_ref().and_then(|f| f.first().cloned()) {
            twice.flags.as_mut().unwrap().push(first);
            let is_duplicate_flag = matches!(twice.to_json(use_core_ids), Err(WriteError::DuplicateFlag { .. }));
            prop_assert!(is_duplicate_flag);
        }
        let json = config.to_json(use_core_ids).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let (read, report) = BackendConfig::from_json(json.as_bytes())
            .map_err(|e| TestCaseError::fail(format!("{e}\n{json}")))?;
        prop_assert_eq!(&read, &config.canonical(), "{}", json);
        prop_assert!(report.unknown_keys.is_empty());
        let again = read.to_json(report.use_core_ids_or_default()).unwrap();
        prop_assert_eq!(again, json);
    }

    /// Valid parameters -> config (every rule passes) -> JSON -> read: the
    /// same parameters come back, field by field.
    #[test]
    fn params_round_trip_through_the_backend_config((params, facts) in valid_call()) {
        let built = lower_config(&params, &facts, b"body".to_vec(), None, params.ir_version)
            .map_err(|e| TestCaseError::fail(format!("{e}: {params:?}")))?;
        let json = built.to_json(params.use_core_ids()).unwrap();
        let (read, _) = BackendConfig::from_json(json.as_bytes()).unwrap();
        prop_assert_eq!(&read, &built.canonical());
        let to_u64 = |v: Option<i64>| v.map(|v| v as u64);
        prop_assert_eq!(read.vmem_limit_bytes, to_u64(params.vmem_limit_bytes));
        prop_assert_eq!(read.internal_scratch_in_bytes, to_u64(params.internal_scratch_in_bytes));
        prop_assert_eq!(read.collective_id.map(i64::from), params.collective_id);
        prop_assert_eq!(&read.flags, &params.flags);
        prop_assert_eq!(&read.allow_input_fusion, &params.allow_input_fusion);
        prop_assert_eq!(
            read.cost_estimate.map(|c| [c.flops, c.transcendentals, c.bytes_accessed, c.remote_bytes_transferred]),
            params.cost_estimate.map(|c| [c.flops, c.transcendentals, c.bytes_accessed, c.remote_bytes_transferred].map(|v| v as u64))
        );
        prop_assert_eq!(read.disable_bounds_checks, params.disable_bounds_checks);
        prop_assert_eq!(read.disable_semaphore_checks, params.disable_semaphore_checks);
        prop_assert_eq!(read.skip_device_barrier, params.skip_device_barrier);
        prop_assert_eq!(read.shape_invariant_numerics, params.shape_invariant_numerics);
        prop_assert_eq!(read.needs_layout_passes, params.needs_layout_passes);
        prop_assert_eq!(read.needs_hlo_passes, params.needs_hlo_passes);
        prop_assert_eq!(read.has_communication, facts.has_communication);
        prop_assert_eq!(read.is_sparse_core(), facts.device_type == Some(DeviceType::SparseCore));
        if read.is_sparse_core() {
            prop_assert_eq!(read.tiling, Some(params.tiling.unwrap_or(Tiling::Compact)));
            prop_assert_eq!(read.opt_level, params.opt_level);
        }
        prop_assert_eq!(read.body.as_slice(), b"body");
    }

    /// One value of a valid config's JSON replaced by a value of another
    /// kind: an error naming that value's JSON path (or, when the new value
    /// is also valid there, a config); never a panic.
    #[test]
    fn corrupted_backend_configs_name_the_field(
        config in any_config(),
        pick in any::<proptest::sample::Index>(),
        odd in prop_oneof![
            Just(serde_json::json!({"x": 1})),
            Just(serde_json::json!([1, "a"])),
            Just(serde_json::json!("not a value")),
            Just(serde_json::json!(-1)),
            Just(serde_json::json!(1.5)),
            Just(serde_json::json!(99999999999999999999u128 as f64)),
            Just(serde_json::Value::Null),
            Just(serde_json::json!(true)),
        ],
    ) {
        let json = config.to_json(true).unwrap();
        let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
        let mut all = Vec::new();
        leaves(&value, &mut Vec::new(), &mut all);
        prop_assume!(!all.is_empty());
        let path = pick.get(&all).clone();
        let leaf = leaf_mut(&mut value, &path);
        let was_kind = std::mem::discriminant(&*leaf);
        let odd_is_object = odd.is_object();
        *leaf = odd;
        let text = serde_json::to_string(&value).unwrap();
        match BackendConfig::from_json(text.as_bytes()) {
            Err(err) => {
                let message = err.to_string();
                let named = match &err {
                    ReadError::WrongType { path: p, .. } | ReadError::Unsupported { path: p, .. } => {
                        p.to_string().starts_with(&json_path(&path[..path.len().saturating_sub(1)]))
                    }
                    _ => message.contains(path.last().map(String::as_str).unwrap_or("")),
                };
                prop_assert!(named, "{} does not name {} ({})", message, json_path(&path), text);
            }
            Ok(_) => {
                // Only a value of the same kind, or null (protobuf's default)
                // or a number where a string was (int64 spellings) may pass;
                // an object never fits a leaf.
                prop_assert!(!odd_is_object || was_kind == std::mem::discriminant(&serde_json::json!({})), "{}", text);
            }
        }
    }
}

// ----- the nesting check's fast path (16-byte chunks) against the exact scan -----

use tpu_custom_call::mosaic::vocab::{check_text_nesting, text_nesting};

/// Text made of MLIR's nesting-relevant pieces: brackets, `->`, strings with
/// escapes, comments, alias definitions and uses, dialect attributes, plain
/// runs, newlines.
fn nesting_text() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        proptest::sample::select(vec![
            "(",
            ")",
            "[",
            "]",
            "{",
            "}",
            "<",
            ">",
            "->",
            "-",
            "\n",
            "#a = ",
            "#a",
            "#loc1 = loc(",
            "#loc1",
            "!t = ",
            "!t",
            "#tpu.memory_space<vmem>",
            "\"k.py\"",
            "\"a\\\"(\\\\\"",
            "\"(#!/<[{->\"",
            "\"((((((((((((((((((((((((\"",
            "\">>>>>>>>>>>>>>>>>>>>>>>>>\"",
            "// c(((\n",
            "/",
            "x",
            "%0 = ",
            ", ",
            "memref<8x128xf32>",
            "    ",
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        proptest::collection::vec(proptest::sample::select(b"abc ,:=0189%".to_vec()), 1..24),
    ];
    proptest::collection::vec(piece, 0..80).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(config())]

    /// The fast check gives the exact scan's verdict and error position, for
    /// limits around the text's depth.
    #[test]
    fn fast_nesting_check_equals_the_exact_scan(text in nesting_text(), limit in 0usize..12) {
        let exact = text_nesting(&text, limit).map(drop);
        prop_assert_eq!(check_text_nesting(&text, limit), exact);
    }
}

/// Every golden kernel: the fast check and the exact scan agree at the
/// kernel's own depth, one below it and at the crate's limit.
#[test]
fn fast_nesting_check_agrees_on_golden_kernels() {
    let mut failures = crate::common::Failures::new();
    let cases = crate::common::golden_cases();
    assert!(!cases.is_empty(), "no golden cases");
    for case in cases {
        let Ok(text) = std::fs::read(case.join("kernel_pre_serde.generic.mlir")) else {
            continue;
        };
        let depth = text_nesting(&text, usize::MAX).expect("no limit");
        for limit in [
            depth,
            depth.saturating_sub(1),
            tpu_custom_call::kernel::MAX_TEXT_NESTING,
        ] {
            failures.eq(
                format!("{} limit {limit}", case.display()),
                check_text_nesting(&text, limit),
                text_nesting(&text, limit).map(drop),
            );
        }
    }
    failures.assert_none();
}

proptest! {
    #![proptest_config(config())]

    /// Grid arithmetic never wraps: `contract::grid::steps` accepts a grid
    /// exactly when every bound is in libtpu's range and the exact product
    /// (u128, saturating only far past the limit) is at most 2147483646, and
    /// then returns that product; the estimate's reduced grids of an
    /// accepted grid never have more steps than it.
    #[test]
    fn grid_steps_never_wrap(
        grid in proptest::collection::vec(
            prop_oneof![
                -5i64..70_000,
                Just(0i64),
                Just(2_147_483_518i64),
                Just(2_147_483_519i64),
                Just(2_147_483_646i64),
                Just(2_147_483_647i64),
                Just(1_085_102_592_571_150_096i64),
                Just(i64::MAX),
                any::<i64>(),
            ],
            0..6,
        )
    ) {
        use tpu_custom_call::contract::grid::{self, MAX_BOUND, MAX_STEPS};
        let dynamic = grid.contains(&i64::MIN);
        let in_range = grid.iter().all(|&b| b == i64::MIN || (0..=MAX_BOUND).contains(&b));
        let compiled = grid.iter().all(|&b| b <= grid::MAX_COMPILED_BOUND);
        let exact = grid.iter().try_fold(1u128, |acc, &b| acc.checked_mul(b.max(0) as u128));
        let zero = grid.contains(&0);
        match grid::steps("k", &grid) {
            Ok(Some(n)) => {
                prop_assert!(in_range && compiled && !dynamic);
                prop_assert_eq!(Some(u128::from(n)), exact);
                prop_assert!(n <= MAX_STEPS);
                if n > 0 {
                    for reduced in tpu_custom_call::compile::estimate::reduced_grids(&grid, 64) {
                        let r: u128 = reduced.iter().map(|&d| d.max(1) as u128).product();
                        prop_assert!(r <= u128::from(n), "{:?} of {:?}", reduced, grid);
                    }
                }
            }
            Ok(None) => prop_assert!(in_range && compiled && dynamic),
            Err(grid::GridError::Bound { bound, .. }) => {
                prop_assert!(!in_range);
                prop_assert!(!(0..=MAX_BOUND).contains(&bound));
            }
            Err(grid::GridError::BoundNotCompiled { bound, .. }) => {
                prop_assert!(in_range);
                prop_assert!(bound > grid::MAX_COMPILED_BOUND && bound <= MAX_BOUND);
            }
            Err(_) => {
                prop_assert!(in_range && !dynamic && !zero);
                prop_assert!(exact.is_none_or(|p| p > u128::from(MAX_STEPS)));
            }
        }
    }
}
