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
                ParamsError::Invalid { key: named, .. } => prop_assert!(named.starts_with(key), "{} for {}", named, key),
                ParamsError::Json { path, .. } => prop_assert!(path.to_string().contains(key), "{}", err),
                other => prop_assert!(false, "{other:?}"),
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
