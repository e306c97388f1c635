//! Inputs the cargo-fuzz targets (`fuzz/`, see `fuzz/README.md`) found, kept as
//! regression tests. Each reproducer lives in `mlir-fixtures/fuzz/<target>/`
//! (the list with the guard each one needed is `mlir-fixtures/fuzz/README.md`)
//! with a blessed `.stderr` sibling: the CLI must exit 1 with that message and
//! write nothing to stdout (`BLESS=1` rewrites the `.stderr` files).

use tpu_custom_call::kernel::parse_module_bytes;
use tpu_custom_call::{Context, KernelError};

use crate::common::{Failures, check_golden, fixtures_dir, run_cli};

/// The CLI subcommand that reads a reproducer of each fuzz target.
const COMMANDS: &[(&str, &str)] = &[
    ("kernel_text", "kernel"),
    ("body_decoder", "kernel"),
    ("params_reader", "validate"),
    ("inspect", "inspect"),
];

#[test]
fn fuzz_reproducers_fail_cleanly() {
    let root = fixtures_dir().join("fuzz");
    let mut failures = Failures::new();
    let mut count = 0;
    for (target, command) in COMMANDS {
        let dir = root.join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut inputs: Vec<_> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_none_or(|e| e != "stderr"))
            .collect();
        inputs.sort();
        for input in inputs {
            count += 1;
            let name = input.file_name().unwrap().to_string_lossy().into_owned();
            let rel = format!("mlir-fixtures/fuzz/{target}/{name}");
            let (code, stdout, stderr) = run_cli(&[command, &rel]);
            failures.check(code == 1, || {
                format!("{rel}: exit code {code}, not 1; stderr: {stderr}")
            });
            failures.check(stdout.is_empty(), || format!("{rel}: wrote to stdout"));
            let golden = input.with_file_name(format!("{name}.stderr"));
            if let Some(diff) = check_golden(&golden, &stderr) {
                failures.fail(diff);
            }
        }
    }
    assert!(
        count > 0,
        "fuzz reproducers missing under {}",
        root.display()
    );
    failures.assert_none();
}

/// Guard of `kernel_text`'s first find (`text_lexer_reads_past_end.mlir`):
/// MLIR 22's lexer reads identifiers and comments until a character that
/// ends them, expecting the NUL `llvm::MemoryBuffer` usually puts after its
/// input. Text that is a slice of a larger buffer must parse as itself, not
/// as itself plus what follows it in memory.
#[test]
fn text_is_lexed_only_up_to_its_end() {
    let ctx = Context::new();
    let kernel = std::fs::read_to_string(fixtures_dir().join("kernels/add.mlir")).unwrap();
    // The slice ends inside a bare identifier (`unit`, then `s_...` follows)
    // and inside a comment (the next line is not MLIR).
    let mut failures = Failures::new();
    for (text, rest) in [
        (format!("{kernel}#flag = unit"), "s_or_more_letters"),
        (format!("{kernel}// a last comment"), "\n}} not mlir"),
    ] {
        let buffer = format!("{text}{rest}");
        let slice = &buffer.as_bytes()[..text.len()];
        let module = parse_module_bytes(
            &ctx,
            slice,
            "slice",
            tpu_custom_call::kernel::ModuleFormat::Text,
        );
        failures.ok(format!("{text:?}"), module);
        // The whole buffer is not a module: the slice above was read alone.
        let whole = parse_module_bytes(
            &ctx,
            buffer.as_bytes(),
            "whole",
            tpu_custom_call::kernel::ModuleFormat::Text,
        );
        failures.check(matches!(whole, Err(KernelError::Parse { .. })), || {
            format!("{text:?} and what follows it: {:?}", whole.err())
        });
    }
    failures.assert_none();
}

/// Attribute and type text (parsed from call attributes of a module by
/// `decode`) needs no such guard: MLIR copies it before lexing. A slice that
/// ends inside an identifier reads as itself.
#[test]
fn attribute_and_type_text_are_lexed_only_up_to_their_end() {
    use tpu_custom_call::melior::ir::{Attribute, Type};
    let ctx = Context::new();
    let attr = "unitsome_more";
    let parsed = Attribute::parse(ctx.mlir(), &attr[..4]).expect("unit attribute");
    assert_eq!(parsed.to_string(), "unit");
    let ty = "i32x_more";
    let parsed = Type::parse(ctx.mlir(), &ty[..3]).expect("i32 type");
    assert_eq!(parsed.to_string(), "i32");
}

/// `params_reader` finds: numbers beyond `f64` in flags and metadata are
/// refused by the PARAMS reader (they became `inf`, written back as `null`).
#[test]
fn params_numbers_beyond_f64_are_refused() {
    use tpu_custom_call::{Params, ParamsError};
    let dir = fixtures_dir().join("fuzz/params_reader");
    let flag = std::fs::read(dir.join("flag_double_beyond_f64.json")).unwrap();
    let err = Params::from_json(&flag).unwrap_err();
    assert!(
        matches!(&err, ParamsError::NonFiniteFlag { value, .. } if value == "inf"),
        "{err:?}"
    );
    let meta = std::fs::read(dir.join("metadata_number_beyond_f64.json")).unwrap();
    let err = Params::from_json(&meta).unwrap_err();
    assert_eq!(
        err.to_string(),
        "metadata value at $.metadata.scale[1] = 1e400 is not a finite number; JSON cannot hold it"
    );
    // The largest finite double still reads and round-trips (metadata
    // numbers by value: `to_json` respells them, `e308` as `e+308`).
    let ok =
        br#"{"flags": {"f": 1.7976931348623157e308}, "metadata": {"m": -1.7976931348623157e308}}"#;
    let params = Params::from_json(ok).unwrap();
    let again = Params::from_json(params.to_json().as_bytes()).unwrap();
    assert_eq!(again.flags, params.flags);
    let number = |p: &Params| match &p.metadata.as_ref().unwrap()[0].1 {
        tpu_custom_call::config::json::JsonValue::Number(n) => n.as_f64(),
        other => panic!("{other:?}"),
    };
    assert_eq!(number(&again), number(&params));
    assert_eq!(number(&params), -f64::MAX);
}

/// `params_reader` find: `Params::to_json` wrote metadata numbers through
/// serde_json's parser, which rounds some literals wrongly (`25e90` came back
/// as 2.4999999999999997e+91). The value must survive the round trip.
#[test]
fn params_metadata_numbers_keep_their_value() {
    use tpu_custom_call::Params;
    use tpu_custom_call::config::json::JsonValue;
    let found = b"{\n   \"metadata\": {\n\"xl: alag\": 25e90}\n}\n";
    let params = Params::from_json(found).unwrap();
    let again = Params::from_json(params.to_json().as_bytes()).unwrap();
    let value = |p: &Params| match &p.metadata.as_ref().unwrap()[0].1 {
        JsonValue::Number(n) => n.as_f64(),
        other => panic!("{other:?}"),
    };
    assert_eq!(value(&params), 2.5e91);
    assert_eq!(value(&again), 2.5e91, "{}", params.to_json());
    // Integers beyond i64 stay exact.
    let big = Params::from_json(br#"{"metadata": {"n": 18446744073709551615}}"#).unwrap();
    assert!(
        big.to_json().contains("18446744073709551615"),
        "{}",
        big.to_json()
    );
}

/// Issue 32: MLIR hands back an empty string with a null data pointer, and
/// `slice::from_raw_parts(null, 0)` is undefined behaviour (the debug build's
/// precondition check aborts the process). Every module of
/// `mlir-fixtures/fuzz/empty-strings/` puts an empty string where the readers
/// take one (`backend_config = ""` as `inspect`'s fuzzer found it, kernel
/// name, kernel metadata, call target, an attribute name; each in JAX's
/// pretty and in generic form; a pipeline placeholder naming the kernel
/// `@""`); every reader of the CLI must answer with a result or a clean error
/// (never a signal or a panic), the transcript blessed in `<name>.out`.
#[test]
fn empty_mlir_strings_are_read_without_undefined_behaviour() {
    let dir = fixtures_dir().join("fuzz/empty-strings");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    inputs.sort();
    assert!(
        inputs.len() >= 11,
        "reproducers missing under {}",
        dir.display()
    );
    let mut failures = Failures::new();
    for input in inputs {
        let name = input.file_name().unwrap().to_string_lossy().into_owned();
        let rel = format!("mlir-fixtures/fuzz/empty-strings/{name}");
        let verify = "builtin.module(tpu-custom-call-verify)";
        let lower = "builtin.module(tpu-custom-call-lower)";
        let mut transcript = String::new();
        for args in [
            vec!["inspect", &rel],
            vec!["inspect", &rel, "--json"],
            vec!["inspect", &rel, "--kernel", "--pretty"],
            vec!["diff", &rel, &rel],
            vec!["opt", &rel, "--pass-pipeline", verify],
            vec!["opt", &rel, "--pass-pipeline", lower],
        ] {
            let (code, stdout, stderr) = run_cli(&args);
            // `diff` exits 2 on an error, the others 1.
            let error = if args[0] == "diff" { 2 } else { 1 };
            failures.check(code == 0 || code == error, || {
                format!(
                    "{}: exit code {code} (a crash); stderr: {stderr}",
                    args.join(" ")
                )
            });
            let stdout = String::from_utf8_lossy(&stdout);
            transcript.push_str(&format!(
                "$ tpu-custom-call {}\nexit {code}\n{stdout}{stderr}\n",
                args.join(" ")
            ));
        }
        let golden = input.with_file_name(format!("{name}.out"));
        if let Some(diff) = check_golden(&golden, &transcript) {
            failures.fail(diff);
        }
    }
    failures.assert_none();
}
