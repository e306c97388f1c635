//! Mistakes a kernel author makes, each answered with an error that names
//! the kernel, the op and the fix (issue 29, item 4), and `compile` from a
//! program other than the CLI finding its worker (item 5).

use tpu_custom_call::melior::ir::attribute::IntegerAttribute;
use tpu_custom_call::melior::ir::operation::OperationBuilder;
use tpu_custom_call::melior::ir::{BlockLike, Identifier, Location, Type};
use tpu_custom_call::mosaic::attrs::{self, MemorySpace};
use tpu_custom_call::mosaic::pallas::{Arg, KernelSpec};
use tpu_custom_call::mosaic::{BuildError, upstream};
use tpu_custom_call::{Context, Kernel};

use crate::common::*;

/// A misspelled upstream op in text: MLIR's "unknown op" with the op it
/// meant. `Debug` (what `main() -> Result` prints) is the message itself.
#[test]
fn misspelled_ops_get_did_you_mean_and_debug_prints_the_message() {
    let text = std::fs::read_to_string(goldens_dir().join("add_basic/kernel.mlir")).unwrap();
    let bad = text.replacen("arith.addf", "arith.adf", 1);
    let ctx = Context::new();
    let e = Kernel::from_text(&ctx, &bad, "add.mlir").unwrap_err();
    let shown = e.to_string();
    assert!(
        shown.contains("custom op 'arith.adf' is unknown (did you mean `arith.addf`?)"),
        "{shown}"
    );
    assert_eq!(format!("{e:?}"), shown);
    let tpu = text.replacen("tpu.vector_store", "tpu.vector_stor", 1);
    let e = Kernel::from_text(&ctx, &tpu, "add.mlir")
        .unwrap_err()
        .to_string();
    assert!(e.contains("did you mean `tpu.vector_store`?"), "{e}");
}

/// A kernel built in memory with an op missing a required attribute (a
/// misspelled name): the error names the kernel (not `<module>`), the op,
/// and the attribute it meant.
#[test]
fn built_kernels_errors_name_the_kernel_and_the_attribute() {
    let ctx = Context::new();
    let loc = Location::unknown(&ctx);
    let f32 = Type::float32(&ctx);
    let vmem = attrs::memref(&ctx, &[8, 128], f32, MemorySpace::Vmem, None);
    let built = KernelSpec::new("softmax")
        .input(Arg::new(vmem))
        .output(Arg::new(vmem))
        .build(&ctx, |k| {
            let index = Type::index(&ctx);
            let zero = k.block.append_operation(
                OperationBuilder::new("arith.constant", loc)
                    .add_attributes(&[(
                        Identifier::new(&ctx, "value"),
                        IntegerAttribute::new(index, 0).into(),
                    )])
                    .add_results(&[index])
                    .build()
                    .unwrap(),
            );
            let c0 = zero.result(0).unwrap().into();
            let x = k
                .block
                .append_operation(upstream::vector::load(
                    Type::vector(&[8, 128], f32),
                    k.inputs[0],
                    &[c0, c0],
                    loc,
                ))
                .result(0)
                .unwrap()
                .into();
            let acc = k
                .block
                .append_operation(
                    OperationBuilder::new("arith.constant", loc)
                        .add_attributes(&[(
                            Identifier::new(&ctx, "value"),
                            tpu_custom_call::melior::ir::Attribute::parse(
                                &ctx,
                                "dense<0.0> : vector<8xf32>",
                            )
                            .unwrap(),
                        )])
                        .add_results(&[Type::vector(&[8], f32)])
                        .build()
                        .unwrap(),
                )
                .result(0)
                .unwrap()
                .into();
            let kind =
                tpu_custom_call::melior::ir::Attribute::parse(&ctx, "#vector.kind<add>").unwrap();
            let dims =
                tpu_custom_call::melior::ir::Attribute::parse(&ctx, "array<i64: 1>").unwrap();
            k.block.append_operation(
                OperationBuilder::new("vector.multi_reduction", loc)
                    .add_operands(&[x, acc])
                    .add_attributes(&[
                        (Identifier::new(&ctx, "kind"), kind),
                        (Identifier::new(&ctx, "reduction_dim"), dims),
                    ])
                    .add_results(&[Type::vector(&[8], f32)])
                    .build()
                    .unwrap(),
            );
            Ok::<(), BuildError>(())
        });
    let e = built.unwrap_err().to_string();
    assert!(e.starts_with("kernel `softmax` does not verify"), "{e}");
    assert!(e.contains("'vector.multi_reduction' op requires attribute 'reduction_dims' (did you mean `reduction_dims`? the op has `reduction_dim`)"), "{e}");
}

/// `compile` from a program that is not the CLI (this test binary) is its
/// own worker (the library's start-up hook serves it); the error without
/// one says what to set.
#[test]
fn compile_finds_its_worker_from_another_program() {
    let found = tpu_custom_call::compile::find_worker().expect("this test binary");
    assert_eq!(found, std::env::current_exe().unwrap());
    let e = tpu_custom_call::compile::CompileError::NoWorker.to_string();
    for needed in [
        "CompileOptions::worker",
        "TPU_CUSTOM_CALL_WORKER",
        "serve_worker_if_asked",
        "cargo install tpu-custom-call",
    ] {
        assert!(e.contains(needed), "{e}");
    }
}

/// A module built with melior alone: `Kernel::from_module` names the kernel
/// by its function, not `<module>`.
#[test]
fn from_module_names_the_kernel() {
    use tpu_custom_call::melior::dialect::func;
    use tpu_custom_call::melior::ir::attribute::{StringAttribute, TypeAttribute};
    use tpu_custom_call::melior::ir::r#type::FunctionType;
    use tpu_custom_call::melior::ir::{Block, Module, Region, RegionLike};
    let ctx = Context::new();
    let loc = Location::unknown(&ctx);
    let f32 = Type::float32(&ctx);
    let v = Type::vector(&[8, 128], f32);
    let module = Module::new(loc);
    let block = Block::new(&[(v, loc)]);
    let x = block.argument(0).unwrap().into();
    // `math.exp` with a result of another type than its operand.
    block.append_operation(
        OperationBuilder::new("math.exp", loc)
            .add_operands(&[x])
            .add_results(&[Type::vector(&[8, 64], f32)])
            .build()
            .unwrap(),
    );
    block.append_operation(func::r#return(&[], loc));
    let region = Region::new();
    region.append_block(block);
    module.body().append_operation(func::func(
        &ctx,
        StringAttribute::new(&ctx, "softmax"),
        TypeAttribute::new(FunctionType::new(&ctx, &[v], &[]).into()),
        region,
        &[],
        loc,
    ));
    let e = Kernel::from_module(&ctx, module).unwrap_err().to_string();
    assert!(
        e.starts_with("kernel @softmax: kernel module does not verify"),
        "{e}"
    );
    assert!(e.contains("math.exp"), "{e}");
}

/// A test binary (this one: libtest's `main`, no code of ours before it)
/// is its own libtpu worker: started again with the worker's arguments and
/// `TPU_CUSTOM_CALL_SELF_WORKER=1`, the library's start-up hook serves the
/// worker before the harness runs. JAX's add module compiles for v5e.
#[test]
fn a_test_binary_is_its_own_worker() {
    let Some(libtpu) = crate::compile::libtpu("a_test_binary_is_its_own_worker") else {
        return;
    };
    let _one = crate::compile::LIBTPU
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let module = std::fs::read(crate::common::goldens_dir().join("add_basic/module.mlir")).unwrap();
    let started = std::time::Instant::now();
    let verdict = tpu_custom_call::compile::compile_module(
        &module,
        &tpu_custom_call::compile::CompileOptions {
            chip: tpu_custom_call::Chip::V5e,
            libtpu: Some(libtpu),
            // What find_worker gives on Linux: this test binary.
            worker: None,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(verdict.is_ok(), "{:?}", verdict.error());
    eprintln!(
        "a_test_binary_is_its_own_worker: compiled in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
