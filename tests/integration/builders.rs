//! Building kernels in memory (issue 19): dialects loaded for melior's own
//! builders, typed `tpu` attributes and types, the Pallas kernel function, the
//! add/matmul examples byte for byte against the text path, and one instance of
//! every `tpu` op checked by jaxlib.

use super::common;
use crate::common::oneshot::{self as lower, LowerOptions};
use tpu_custom_call::melior::dialect::{arith, func};
use tpu_custom_call::melior::ir::attribute::{IntegerAttribute, StringAttribute, TypeAttribute};
use tpu_custom_call::melior::ir::operation::OperationLike;
use tpu_custom_call::melior::ir::r#type::{FunctionType, MemRefType, RankedTensorType};
use tpu_custom_call::melior::ir::{
    Attribute, Block, BlockLike, Location, Module, OperationRef, Region, RegionLike, Type,
    ValueLike,
};
use tpu_custom_call::mosaic::attrs::{
    self, ContractPrecision, ConvDimensionNumbers, CoreType, DimensionSemantics,
    DotDimensionNumbers, MemorySpace, PackFormat, PipelineMode, ReductionKind, RevisitMode,
    RoundingMode, TiledLayout,
};
use tpu_custom_call::mosaic::pallas::{Arg, IndexMap, KernelSpec, Window};
use tpu_custom_call::mosaic::{BuildError, ops};
use tpu_custom_call::{Context, DebugLocations, Kernel, Params, PrintOptions, kernel};

#[path = "../../examples/build_kernel/kernels.rs"]
pub(crate) mod kernels;

/// melior's builders need the op registered: `arith.constant` infers its
/// result, `func.func` stores its properties.
fn build_with_melior(ctx: &tpu_custom_call::melior::Context) -> String {
    let location = Location::unknown(ctx);
    let module = Module::new(location);
    let index = Type::index(ctx);
    let block = Block::new(&[]);
    let c1 = block.append_operation(arith::constant(
        ctx,
        IntegerAttribute::new(index, 1).into(),
        location,
    ));
    let c1 = c1.result(0).unwrap().into();
    block.append_operation(arith::addi(c1, c1, location));
    block.append_operation(func::r#return(&[], location));
    let region = Region::new();
    region.append_block(block);
    module.body().append_operation(func::func(
        ctx,
        StringAttribute::new(ctx, "f"),
        TypeAttribute::new(FunctionType::new(ctx, &[], &[]).into()),
        region,
        &[],
        location,
    ));
    assert!(module.as_operation().verify());
    module.as_operation().to_string()
}

#[test]
fn melior_builders_work_on_context_and_prepared_context() {
    let ctx = Context::new();
    let text = build_with_melior(&ctx);
    assert!(text.contains("arith.addi %c1, %c1 : index"), "{text}");
    let raw = tpu_custom_call::melior::Context::new();
    tpu_custom_call::context::prepare(&raw);
    assert_eq!(build_with_melior(&raw), text);
    // The tpu attributes work on a prepared context too.
    assert_eq!(
        attrs::memory_space(&raw, MemorySpace::Vmem, None).to_string(),
        "#tpu.memory_space<vmem>"
    );
}

/// Every constructor gives the attribute (type) the parser makes from jaxlib's
/// printed text.
#[test]
fn typed_attributes_equal_parsed_ones() {
    let ctx = Context::new();
    // Every case is checked; the failures are reported together at the end.
    let failures = std::cell::RefCell::new(common::Failures::new());
    let same = |built: Attribute<'_>, text: &str| {
        let mut failures = failures.borrow_mut();
        let Some(parsed) = Attribute::parse(&ctx, text) else {
            failures.fail(format!("parse {text}"));
            return;
        };
        failures.eq(format!("{text}: built vs parsed"), built, parsed);
        failures.eq(
            format!("{text}: built and printed"),
            built.to_string().as_str(),
            text,
        );
    };
    for &space in MemorySpace::ALL {
        same(
            attrs::memory_space(&ctx, space, None),
            &format!("#tpu.memory_space<{space}>"),
        );
        failures.borrow_mut().eq(
            format!("{space} parsed"),
            space.to_string().parse::<MemorySpace>(),
            Ok(space),
        );
    }
    same(
        attrs::memory_space(&ctx, MemorySpace::Vmem, Some(CoreType::ScVectorSubcore)),
        "#tpu.memory_space<vmem, sc_vector_subcore>",
    );
    macro_rules! enum_case {
        ($t:ty, $mnemonic:literal) => {
            for &value in <$t>::ALL {
                same(
                    value.attribute(&ctx),
                    &format!(concat!("#tpu.", $mnemonic, "<{}>"), value),
                );
                failures.borrow_mut().eq(
                    format!("{value} parsed"),
                    value.to_string().parse::<$t>(),
                    Ok(value),
                );
            }
        };
    }
    enum_case!(CoreType, "core_type");
    enum_case!(DimensionSemantics, "dimension_semantics");
    enum_case!(ContractPrecision, "contract_precision");
    enum_case!(PackFormat, "pack_format");
    enum_case!(RoundingMode, "rounding_mode");
    enum_case!(ReductionKind, "reduction_kind");
    enum_case!(PipelineMode, "pipeline_mode");
    enum_case!(RevisitMode, "revisit_mode");
    let error = "gpu".parse::<CoreType>().unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown core type `gpu`: expected one of tc, sc_scalar_subcore, sc_vector_subcore"
    );
    let tiled = TiledLayout {
        tiles: vec![vec![8, 128], vec![2, 1]],
        strides: vec![Some(1), None],
    };
    same(tiled.attribute(&ctx), "#tpu.tiled<(8,128)(2,1),[1,?]>");
    same(
        TiledLayout::new(vec![], vec![1]).attribute(&ctx),
        "#tpu.tiled<,[1]>",
    );
    same(
        DotDimensionNumbers::matmul_2d().attribute(&ctx),
        "#tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>",
    );
    let conv = ConvDimensionNumbers {
        input_batch: 0,
        input_feature: 1,
        input_spatial: vec![2, 3],
        kernel_input_feature: 0,
        kernel_output_feature: 1,
        kernel_spatial: vec![2, 3],
        output_batch: 0,
        output_feature: 1,
        output_spatial: vec![2, 3],
    };
    same(
        conv.attribute(&ctx),
        "#tpu.conv_dimension_numbers<0, 1, [2, 3], 0, 1, [2, 3], 0, 1, [2, 3]>",
    );
    let same_type = |built: Type<'_>, text: &str| {
        let mut failures = failures.borrow_mut();
        let Some(parsed) = Type::parse(&ctx, text) else {
            failures.fail(format!("parse {text}"));
            return;
        };
        failures.eq(format!("{text}: built vs parsed"), built, parsed);
        failures.eq(
            format!("{text}: built and printed"),
            built.to_string().as_str(),
            text,
        );
    };
    same_type(attrs::semaphore_type(&ctx), "!tpu.semaphore");
    same_type(attrs::dma_semaphore_type(&ctx), "!tpu.dma_semaphore");
    same_type(
        attrs::float8_exmy_type(&ctx, Type::float8_e4m3fn(&ctx)),
        "!tpu.float8_exmy<f8E4M3FN>",
    );
    same_type(
        attrs::memref(
            &ctx,
            &[2],
            attrs::dma_semaphore_type(&ctx),
            MemorySpace::SemaphoreMem,
            None,
        ),
        "memref<2x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>",
    );
    // A tiled layout is a memref layout.
    same_type(
        MemRefType::new(
            Type::float32(&ctx),
            &[16, 128],
            Some(TiledLayout::new(vec![vec![8, 128]], vec![1, 1]).attribute(&ctx)),
            Some(attrs::memory_space(&ctx, MemorySpace::Vmem, None)),
        )
        .into(),
        "memref<16x128xf32, #tpu.tiled<(8,128),[1,1]>, #tpu.memory_space<vmem>>",
    );
    failures.into_inner().assert_none();
}

/// The whole StableHLO module of the built kernel and of the fixture's text.
fn lowered(ctx: &Context, kernel: &Kernel<'_>, params: &str, signature: (&str, &str)) -> String {
    let path = format!(
        "{}/mlir-fixtures/params/{params}",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut params = Params::from_json(&std::fs::read(path).unwrap()).unwrap();
    params.debug_locations = Some(DebugLocations::Strip);
    let types = |list: &str| -> Vec<Type<'_>> {
        list.split(';')
            .map(|t| Type::parse(ctx, t).unwrap())
            .collect()
    };
    let module = lower::emit_module(
        ctx,
        kernel,
        &params,
        &types(signature.0),
        &types(signature.1),
        &LowerOptions::default(),
    )
    .unwrap();
    kernel::print_module(&module, PrintOptions::default()).unwrap()
}

fn backend_config(module: &str) -> &str {
    let start = module.find("backend_config = \"").expect("backend_config");
    let rest = &module[start..];
    &rest[..rest.find("\", ").unwrap()]
}

#[test]
fn built_golden_kernels_lower_byte_for_byte_like_the_text_path() {
    let cases = [
        (
            "mlir-fixtures/kernels/add.mlir",
            "add",
            "add_basic.json",
            ("tensor<8x128xf32>;tensor<8x128xf32>", "tensor<8x128xf32>"),
        ),
        (
            "mlir-fixtures/kernels/matmul.mlir",
            "matmul",
            "matmul_grid.json",
            (
                "tensor<256x512xbf16>;tensor<512x384xbf16>",
                "tensor<256x384xf32>",
            ),
        ),
        (
            "tests/data/jax-goldens/scalar_prefetch/kernel_pre_serde.generic.mlir",
            "scalar_prefetch",
            "scalar_prefetch.json",
            ("tensor<4xi32>;tensor<64x128xf32>", "tensor<32x128xf32>"),
        ),
    ];
    let mut failures = common::Failures::new();
    for (kernel_path, name, params, signature) in cases {
        let ctx = Context::new();
        let built = match name {
            "add" => kernels::add(&ctx),
            "matmul" => kernels::matmul(&ctx),
            _ => kernels::scalar_prefetch(&ctx),
        };
        let Some(built) = failures.ok(format!("{name}: building"), built) else {
            continue;
        };
        let Some(built) = failures.ok(name, Kernel::from_module(&ctx, built)) else {
            continue;
        };
        let path = format!("{}/{kernel_path}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        let Some(parsed) = failures.ok(name, Kernel::from_text(&ctx, &text, name)) else {
            continue;
        };
        let generic = PrintOptions {
            generic: true,
            debug_info: false,
        };
        if let (Some(built), Some(parsed)) = (
            failures.ok(
                format!("{name}: printing the built kernel"),
                built.print(generic),
            ),
            failures.ok(
                format!("{name}: printing the text's"),
                parsed.print(generic),
            ),
        ) {
            failures.text(format!("{name}: kernel (built vs text)"), &built, &parsed);
        }
        let from_builders = lowered(&ctx, &built, params, signature);
        let from_text = lowered(&ctx, &parsed, params, signature);
        failures.bytes(
            format!("{name}: backend_config (built vs text)"),
            backend_config(&from_builders).as_bytes(),
            backend_config(&from_text).as_bytes(),
        );
        failures.text(
            format!("{name}: module (built vs text)"),
            &from_builders,
            &from_text,
        );
    }
    failures.assert_none();
}

fn build_error<'c>(ctx: &'c tpu_custom_call::melior::Context, spec: KernelSpec<'c>) -> String {
    spec.build(ctx, |_| Ok::<(), BuildError>(()))
        .map(|_| ())
        .unwrap_err()
        .to_string()
}

#[test]
fn kernel_spec_errors_name_the_problem() {
    let ctx = Context::new();
    let f32_type = Type::float32(&ctx);
    let block = attrs::memref(&ctx, &[8, 128], f32_type, MemorySpace::Vmem, None);
    let build = |spec| build_error(&ctx, spec);
    let no_grid = KernelSpec::new("k")
        .input(Arg::new(block).window(Window::blocked(&[8, 128], IndexMap::grid(&[0, 0]))));
    assert_eq!(
        build(no_grid),
        "kernel `k`: input 0 has a blocked window but the kernel has no grid: set a grid or use Window::Whole"
    );
    let rank = KernelSpec::new("k")
        .grid(&[2], &[])
        .input(Arg::new(block).window(Window::blocked(&[8, 128], IndexMap::grid(&[0]))));
    assert_eq!(
        build(rank),
        "kernel `k`: input 0: window_bounds [8, 128] has rank 2 but its index map returns 1 indices: make them equal"
    );
    let semantics = KernelSpec::new("k").grid(&[2, 2], &[DimensionSemantics::Parallel]);
    assert_eq!(
        build(semantics),
        "kernel `k`: dimension_semantics has 1 entries but the grid [2, 2] has 2 dimensions: give one per grid dimension"
    );
    let out_of_grid = KernelSpec::new("k")
        .grid(&[2], &[])
        .output(Arg::new(block).window(Window::blocked(&[8, 128], IndexMap::grid(&[0, 1]))));
    assert_eq!(
        build(out_of_grid),
        "kernel `k`: output 0: index map uses grid index 1 but the grid [2] has 1 dimensions: use IndexExpr::Grid(0..1) or give the grid more dimensions with KernelSpec::grid"
    );
    let custom = IndexMap::Custom {
        rank: 2,
        body: Box::new(|_, block| vec![block.argument(0).unwrap().into()]),
    };
    let short_map = KernelSpec::new("k")
        .grid(&[2], &[])
        .input(Arg::new(block).window(Window::blocked(&[8, 128], custom)));
    assert_eq!(
        build(short_map),
        "kernel `k`: the custom index map of transform_0 returned 1 indices but window_bounds [8, 128] has rank 2: return one index per window dimension"
    );
    // A default grid gets `arbitrary` semantics, as Pallas gives.
    let module = KernelSpec::new("k")
        .grid(&[2], &[])
        .build(&ctx, |_| Ok::<(), BuildError>(()))
        .unwrap();
    let text = module.as_operation().to_string();
    assert!(
        text.contains("dimension_semantics = [#tpu.dimension_semantics<arbitrary>]"),
        "{text}"
    );
    let _ = RankedTensorType::new(&[1], f32_type, None);
    let _ = ops::OP_NAMES;
}

/// Moves the body of `old`'s first region into a new region (for rebuilding
/// `tpu.region` and `tpu.trace`).
pub(crate) fn take_region<'c>(old: OperationRef<'c, '_>) -> Region<'c> {
    let region = Region::new();
    let source = old.region(0).expect("a region");
    // SAFETY: both regions are live; the body moves from one to the other.
    unsafe { mlir_sys::mlirRegionTakeBody(region.to_raw(), source.to_raw()) };
    region
}

/// Every `tpu` op under `op`, in pre-order.
fn tpu_ops(op: OperationRef<'_, '_>, out: &mut Vec<mlir_sys::MlirOperation>) {
    if op
        .name()
        .as_string_ref()
        .as_str()
        .unwrap()
        .starts_with("tpu.")
    {
        out.push(op.to_raw());
    }
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            let mut next = b.first_operation();
            while let Some(inner) = next {
                tpu_ops(inner, out);
                next = inner.next_in_block();
            }
            block = b.next_in_region();
        }
    }
}

/// Every op instance of the jaxlib-verified fixtures `mlir-fixtures/pretty`
/// (all 100 ops), swapped for the op its typed builder makes: the kernel prints
/// exactly as jaxlib printed it, and jaxlib parses and verifies it.
#[test]
fn every_tpu_op_built_with_its_builder_is_what_jaxlib_makes() {
    let dir = common::fixtures_dir().join("pretty");
    let out = std::env::temp_dir().join(format!("tcc-builders-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let generic = PrintOptions {
        generic: true,
        debug_info: false,
    };
    let mut covered = std::collections::BTreeSet::new();
    let mut written = Vec::new();
    let mut failures = common::Failures::new();
    'files: for (file, rebuilders) in super::builders_all_ops::CASES {
        let ctx = Context::new();
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let Some(kernel) = failures.ok(file, Kernel::from_text(&ctx, &text, file)) else {
            continue;
        };
        let Some(expected) = failures.ok(file, kernel.print(generic)) else {
            continue;
        };
        let mut raws = Vec::new();
        tpu_ops(kernel.operation(), &mut raws);
        if raws.len() != rebuilders.len() {
            failures.fail(format!(
                "{file}: {} tpu ops, {} rebuilders",
                raws.len(),
                rebuilders.len()
            ));
            continue;
        }
        for (raw, rebuild) in raws.into_iter().zip(rebuilders.iter()) {
            // SAFETY: `raw` is an op of the live module, not destroyed yet.
            let old = unsafe { OperationRef::from_raw(raw) };
            covered.insert(old.name().as_string_ref().as_str().unwrap().to_string());
            let new = rebuild(&ctx, old, old.location());
            let block = old.block().expect("in a block");
            let new = block.insert_operation_before(old, new);
            if new.result_count() != old.result_count() {
                // (The old op keeps its uses: the module is left as it is.)
                failures.fail(format!(
                    "{file}: {} has {} results rebuilt, {} parsed",
                    old.name().as_string_ref().as_str().unwrap(),
                    new.result_count(),
                    old.result_count()
                ));
                continue 'files;
            }
            for j in 0..old.result_count() {
                // SAFETY: both values are live results of ops in the module;
                // the old op is then erased (it has no uses left).
                unsafe {
                    mlir_sys::mlirValueReplaceAllUsesOfWith(
                        old.result(j).unwrap().to_raw(),
                        new.result(j).unwrap().to_raw(),
                    )
                };
            }
            // SAFETY: the op is live, has no uses left and is not used again.
            unsafe { mlir_sys::mlirOperationDestroy(raw) };
        }
        failures.check(kernel.operation().verify(), || format!("{file}: verify"));
        // This crate's `tpu` verifier accepts the built kernel too.
        if let Err(errors) = tpu_custom_call::mosaic::verify::verify_operation(kernel.operation()) {
            let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
            failures.fail(format!(
                "{file}: our verifier refuses the built kernel:\n{}",
                messages.join("\n")
            ));
        }
        let Some(actual) = failures.ok(file, kernel.print(generic)) else {
            continue;
        };
        failures.text(
            format!("{file}: rebuilt with the builders"),
            &actual,
            &expected,
        );
        let path = out.join(file);
        std::fs::write(&path, actual).unwrap();
        written.push(path);
    }
    failures.assert_none();
    let expected: std::collections::BTreeSet<String> =
        ops::OP_NAMES.iter().map(|n| n.to_string()).collect();
    assert_eq!(covered, expected, "every op built at least once");
    assert_eq!(covered.len(), 100);
    if let Some(python) =
        common::jaxref_python("every_tpu_op_built_with_its_builder_is_what_jaxlib_makes")
    {
        let script = common::jaxref_dir().join("../verify_kernels.py");
        let output = std::process::Command::new(python)
            .arg(&script)
            .args(&written)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "jaxlib rejects a built kernel:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(
            stdout.lines().filter(|l| l.ends_with(": ok")).count(),
            written.len(),
            "{stdout}"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// `src/mosaic/ops.rs` and `builders_all_ops.rs` are what their generators make
/// from the op table today (python3 and rustfmt needed; skipped otherwise).
#[test]
fn generated_builders_are_up_to_date_with_the_op_table() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let tools = ["python3", "rustfmt"].iter().all(|tool| {
        std::process::Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if !tools {
        println!(
            "SKIPPED generated_builders_are_up_to_date_with_the_op_table: needs python3 and rustfmt"
        );
        return;
    }
    let dir = std::env::temp_dir().join(format!("tcc-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = common::Failures::new();
    for (script, generated) in [
        ("scripts/gen_builders.py", "src/mosaic/ops.rs"),
        (
            "scripts/gen_builder_instances.py",
            "tests/integration/builders_all_ops.rs",
        ),
    ] {
        let out = dir.join("generated.rs");
        let status = std::process::Command::new("python3")
            .arg(root.join(script))
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        if !status.status.success() {
            failures.fail(format!("{script} failed: {status:?}"));
            continue;
        }
        let status = std::process::Command::new("rustfmt")
            .args(["--edition", "2024"])
            .arg(&out)
            .status()
            .unwrap();
        if !status.success() {
            failures.fail(format!("rustfmt of {script}'s output failed"));
            continue;
        }
        failures.text(
            format!("{generated} is out of date: run `python3 {script} && cargo fmt`;"),
            &std::fs::read_to_string(&out).unwrap(),
            &std::fs::read_to_string(root.join(generated)).unwrap(),
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    failures.assert_none();
}

/// The benchmark's synthetic kernel builds, verifies and lowers.
#[test]
fn synthetic_benchmark_kernel_lowers() {
    let ctx = Context::new();
    let kernel = Kernel::from_module(&ctx, kernels::synthetic(&ctx, 101).unwrap()).unwrap();
    let count = kernel
        .print(PrintOptions::default())
        .unwrap()
        .matches("tpu.vector_store")
        .count();
    assert_eq!(count, 49);
    let params = Params::from_json(br#"{"kernel_name": "synthetic"}"#).unwrap();
    let types = ["tensor<8x128xf32>".to_string()];
    lower::lower(&kernel, &params, &types, &types, &LowerOptions::default()).unwrap();
}
