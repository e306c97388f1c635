//! Every rule a call must pass before anything is emitted, in one place, and
//! the witness that it passed.
//!
//! [`validate`] is the one entry: it takes the kernel, the call's signature
//! (MLIR types), the parameters and an optional target chip, runs every check
//! and either returns every problem or a [`ValidatedCall`] — the only thing
//! the emitters (`lower::Lowerer`) accept, as naga's back ends accept
//! only a validated module. The checks, in order (each a hook of its own):
//!
//! 1. [`check_kernel`]: the kernel is well formed and its facts are known
//!    (analysis today; the `tpu` dialect verifier hooks in here);
//! 2. `check_target`: the kernel and parameters fit the chip;
//! 3. `check_params`: JAX 0.12's parameter rules (with its messages) and ours;
//! 4. `signature_rules`: the rules that need the call's types (aliases,
//!    per-operand lists) — the alias rules live only here;
//! 5. [`check_contract`]: the kernel's arguments against the call's operands
//!    and results, grids and windows, the scoped-VMEM budget
//!    ([`crate::contract`]);
//! 6. `check_libtpu`: what libtpu refuses at compile time and JAX does not
//!    check ([`crate::libtpu`]), after every rule of JAX's and ours; skipped
//!    with [`ValidateOptions::jax_rules_only`] (its warnings are kept).
//!
//! [`report`] (and [`problems`], its errors) runs the same checks when the
//! kernel or the signature is not at hand (the `validate` subcommand); it
//! yields no witness.
//! [`lower_config`] mirrors JAX's `_lowered_to_custom_call_config`: it builds
//! the [`BackendConfig`] data (no IR) after the parameter rules.
//!
//! Collective ids are resolved as JAX does without a lowering context (the
//! decision table of the spec, section 4.4, with the `no` auto-assign mode
//! and no barrier tag): a kernel with a custom barrier needs an explicit
//! `collective_id`; a kernel without one accepts a `collective_id` only with
//! `allow_collective_id_without_custom_barrier`.

use melior::ir::Type;

use melior::Context;

use crate::analysis::{self, KernelFacts};
use crate::config::json::python_float_repr;
use crate::config::{BackendConfig, CostEstimate, DeviceType, FlagValue, MemorySpace, Tiling};
use crate::context::capture;
use crate::contract::{self, ContractReport};
use crate::decode::{self, DecodeError, FoundCall};
use crate::error::Error;
use crate::kernel::Kernel;
use crate::libtpu::releases::LibtpuVersion;
use crate::libtpu::{self, LibtpuWarning};
use crate::params::{DEFAULT_IR_VERSION, Params};
use crate::serde::{HIGHEST_IR_VERSION, LOWEST_IR_VERSION, SerdeError};
use crate::target::{Chip, TargetQuery};

/// What the rules refuse (JAX's and ours). Its home is `error`, below this
/// module, so that the crate error can name it without an import cycle.
pub use crate::error::RuleError;

/// A call's signature: its operand and result types (ranked tensors for a
/// call that emits).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature<'c> {
    operands: Vec<Type<'c>>,
    results: Vec<Type<'c>>,
}

impl<'c> Signature<'c> {
    /// The signature `(operands) -> results`.
    pub fn new(operands: impl Into<Vec<Type<'c>>>, results: impl Into<Vec<Type<'c>>>) -> Self {
        Signature {
            operands: operands.into(),
            results: results.into(),
        }
    }

    /// The operand types.
    pub fn operands(&self) -> &[Type<'c>] {
        &self.operands
    }

    /// The result types.
    pub fn results(&self) -> &[Type<'c>] {
        &self.results
    }
}

/// How strict [`validate_with`] is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ValidateOptions {
    /// Check only JAX 0.12's rules (and this crate's own), not the rules
    /// libtpu enforces at compile time ([`crate::libtpu`]): accepts what JAX
    /// emits even where libtpu would refuse it (JAX's goldens, sweeps).
    /// libtpu's warnings are still collected.
    pub jax_rules_only: bool,
    /// The libtpu release the call is for (default 0.0.50.1, JAX 0.12's):
    /// what it cannot compile is refused with libtpu's rules
    /// ([`libtpu::check_release`]: serialization version, `debug_locations`
    /// field, SparseCore kernels).
    pub libtpu: LibtpuVersion,
}

impl ValidateOptions {
    /// These options for another libtpu release.
    pub fn with_libtpu(mut self, libtpu: LibtpuVersion) -> Self {
        self.libtpu = libtpu;
        self
    }

    /// Every rule: JAX's, ours and libtpu's (the default).
    pub fn all_rules() -> Self {
        ValidateOptions::default()
    }

    /// JAX 0.12's rules and ours, not libtpu's.
    pub fn jax_rules_only() -> Self {
        ValidateOptions {
            jax_rules_only: true,
            libtpu: LibtpuVersion::default(),
        }
    }
}

/// The witness that a call passed every check of [`validate`]: the kernel,
/// its facts, the signature, the parameters and the target, as checked, with
/// what the checks found that does not stop the call (libtpu's warnings,
/// what the call contract could not check).
/// Its fields are private: the only way to get one is [`validate`], and the
/// emitters (`lower::Lowerer`) take nothing else.
#[derive(Debug)]
pub struct ValidatedCall<'k, 'c> {
    kernel: &'k Kernel<'c>,
    facts: KernelFacts,
    signature: Signature<'c>,
    params: Params,
    target: Option<Chip>,
    cache_key: Option<String>,
    warnings: Vec<LibtpuWarning>,
    contract: Option<ContractReport>,
    libtpu_rules: bool,
}

impl<'k, 'c> ValidatedCall<'k, 'c> {
    /// The kernel.
    pub fn kernel(&self) -> &'k Kernel<'c> {
        self.kernel
    }

    /// What the analysis found in the kernel.
    pub fn facts(&self) -> &KernelFacts {
        &self.facts
    }

    /// The call's signature.
    pub fn signature(&self) -> &Signature<'c> {
        &self.signature
    }

    /// The parameters.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The chip the call was checked against, if any.
    pub fn target(&self) -> Option<Chip> {
        self.target
    }

    /// What libtpu compiles but is likely a mistake ([`crate::libtpu`]).
    pub fn warnings(&self) -> &[LibtpuWarning] {
        &self.warnings
    }

    /// What the call contract found ([`crate::contract::check_call`]): the
    /// VMEM budget and what it could not check.
    pub fn contract(&self) -> Option<&ContractReport> {
        self.contract.as_ref()
    }

    /// The same call, whose serialized body a `lower::Lowerer` may
    /// share with every other call carrying the same `key` (the name of one
    /// kernel: calls of one kernel serialize it once).
    pub fn cached_as(mut self, key: impl Into<String>) -> Self {
        self.cache_key = Some(key.into());
        self
    }

    /// libtpu's rules were checked (not [`ValidateOptions::jax_rules_only`]).
    pub(crate) fn libtpu_rules(&self) -> bool {
        self.libtpu_rules
    }

    pub(crate) fn cache_key(&self) -> Option<&str> {
        self.cache_key.as_deref()
    }
}

/// Validates one call with every rule ([`validate_with`] and the default
/// [`ValidateOptions`]).
pub fn validate<'k, 'c>(
    kernel: &'k Kernel<'c>,
    signature: Signature<'c>,
    params: &Params,
    target: Option<Chip>,
) -> Result<ValidatedCall<'k, 'c>, Vec<Error>> {
    validate_with(
        kernel,
        signature,
        params,
        target,
        &ValidateOptions::default(),
    )
}

/// Validates one call: every check below, every problem collected. On
/// success the witness the emitters require.
///
/// `signature` holds the call's operand and result types; `target` is the
/// chip to check against (`None` behaves like JAX on a host without a TPU).
pub fn validate_with<'k, 'c>(
    kernel: &'k Kernel<'c>,
    signature: Signature<'c>,
    params: &Params,
    target: Option<Chip>,
    options: &ValidateOptions,
) -> Result<ValidatedCall<'k, 'c>, Vec<Error>> {
    let mut report = Report::default();
    let facts = sharing_ops(Some(kernel), || {
        run_checks(
            Some(kernel),
            Some(&signature),
            params,
            target,
            options,
            &mut report,
        )
    });
    if report.errors.is_empty() {
        Ok(ValidatedCall {
            kernel,
            facts,
            signature,
            params: params.clone(),
            target,
            cache_key: None,
            libtpu_rules: !options.jax_rules_only,
            warnings: report.warnings,
            contract: report.contract,
        })
    } else {
        Err(report.errors)
    }
}

/// Every problem of a failed [`validate`] as one message, as the CLI prints
/// it: `2 problems:` then one `  - ` line each (continuation lines
/// indented).
pub fn describe(errors: &[Error]) -> String {
    let count = errors.len();
    let mut out = format!("{count} problem{}:", if count == 1 { "" } else { "s" });
    for e in errors {
        out.push_str("\n  - ");
        out.push_str(&e.to_string().replace('\n', "\n    "));
    }
    out
}

/// Everything the checks found about a call, whether or not it passes.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct Report {
    /// Every problem, in check order (empty: the call passes).
    pub errors: Vec<Error>,
    /// What libtpu compiles but is likely a mistake.
    pub warnings: Vec<LibtpuWarning>,
    /// The call contract's findings when it ran and passed (kernel and
    /// signature at hand).
    pub contract: Option<ContractReport>,
    /// What libtpu's lowering rules covered (kernel at hand): the ops
    /// checked against the measured table and the ops no rule covers.
    pub lowering: Option<libtpu::lowering::Coverage>,
}

/// Every finding of [`validate_with`] when only some of the call is at hand:
/// without a kernel the kernel checks are skipped (its facts taken as a
/// plain TensorCore kernel's), without a signature the signature and
/// contract checks. Yields no witness.
pub fn report(
    kernel: Option<&Kernel<'_>>,
    signature: Option<&Signature<'_>>,
    params: &Params,
    target: Option<Chip>,
    options: &ValidateOptions,
) -> Report {
    let mut report = Report::default();
    sharing_ops(kernel, || {
        run_checks(kernel, signature, params, target, options, &mut report)
    });
    report
}

/// Every problem [`validate`] would report when only some of the call is at
/// hand (see [`report`]). Empty when nothing is wrong. Yields no witness.
pub fn problems(
    kernel: Option<&Kernel<'_>>,
    signature: Option<&Signature<'_>>,
    params: &Params,
    target: Option<Chip>,
) -> Vec<Error> {
    report(
        kernel,
        signature,
        params,
        target,
        &ValidateOptions::default(),
    )
    .errors
}

/// Runs `f`, the checks of one call, which only read the kernel: they share
/// one list of its ops ([`Kernel::op_index`]).
fn sharing_ops<R>(kernel: Option<&Kernel<'_>>, f: impl FnOnce() -> R) -> R {
    match kernel {
        Some(k) => k.sharing_op_index(f),
        None => f(),
    }
}

/// The checks, in order; returns the kernel's facts (default without one).
fn run_checks(
    kernel: Option<&Kernel<'_>>,
    signature: Option<&Signature<'_>>,
    params: &Params,
    target: Option<Chip>,
    options: &ValidateOptions,
    report: &mut Report,
) -> KernelFacts {
    let errors = &mut report.errors;
    let facts = match kernel {
        Some(kernel) => check_kernel(kernel, errors),
        None => KernelFacts::default(),
    };
    if let Some(chip) = target {
        check_target(chip, kernel, &facts, params, errors);
    }
    check_params(params, &facts, target, errors);
    if let Some(signature) = signature {
        let mut rule_errors = Vec::new();
        signature_rules(
            params,
            signature.operands(),
            signature.results(),
            &mut rule_errors,
        );
        errors.extend(rule_errors.into_iter().map(Error::from));
        if let Some(kernel) = kernel {
            report.contract = check_contract(kernel, &facts, signature, params, target, errors);
        }
    }
    check_libtpu(
        kernel,
        &facts,
        params,
        target,
        options,
        errors,
        &mut report.warnings,
    );
    if let Some(kernel) = kernel {
        let types = signature.map(|s| {
            let names = |types: &[Type<'_>]| -> Vec<String> {
                types
                    .iter()
                    .map(|t| crate::ffi::type_text(melior::ir::TypeLike::to_raw(t)))
                    .collect()
            };
            (names(s.operands()), names(s.results()))
        });
        // The function libtpu lowers: the Pallas one, or a hand-written
        // client's plain `func @main` (the contract's choice).
        let (found, coverage) = libtpu::lowering::check(
            contract::main_function(kernel),
            types.as_ref().map(|(o, r)| (&o[..], &r[..])),
            target,
        );
        if !options.jax_rules_only {
            // The windows first: libtpu sets them up before it lowers.
            errors.extend(contract::window_errors(kernel).into_iter().map(Error::from));
            errors.extend(found.into_iter().map(Error::from));
        }
        report.lowering = Some(coverage);
    }
    facts
}

/// Step 1: the kernel itself. Derives its facts (communication, device type,
/// core count).
///
/// The `tpu` dialect verifier ([`crate::mosaic::verify`]) has already run:
/// every [`Kernel`] is verified when it is made (`Kernel::from_text`,
/// `from_bytecode`, `from_module`), so a `Kernel` value is itself the witness
/// of a kernel jaxlib 0.12 accepts, and this step only analyses it.
pub fn check_kernel(kernel: &Kernel<'_>, errors: &mut Vec<Error>) -> KernelFacts {
    match analysis::analyze(kernel) {
        Ok(facts) => facts,
        Err(e) => {
            errors.push(e.into());
            KernelFacts::default()
        }
    }
}

/// Hook: the call contract ([`crate::contract::check_call`]) — the kernel's
/// arguments against the call's operands and results, grids and windows,
/// the scoped-VMEM budget of `target`. Every contract error is pushed; on
/// success its report (what it could not check).
pub fn check_contract(
    kernel: &Kernel<'_>,
    _facts: &KernelFacts,
    signature: &Signature<'_>,
    params: &Params,
    target: Option<Chip>,
    errors: &mut Vec<Error>,
) -> Option<ContractReport> {
    let names = |types: &[Type<'_>]| -> Vec<String> {
        types
            .iter()
            .map(|t| crate::ffi::type_text(melior::ir::TypeLike::to_raw(t)))
            .collect()
    };
    match contract::check_call(
        kernel,
        &names(signature.operands()),
        &names(signature.results()),
        params,
        target,
    ) {
        Ok(report) => Some(report),
        Err(found) => {
            errors.extend(found.into_iter().map(Error::from));
            None
        }
    }
}

/// libtpu's parameter rules ([`crate::libtpu::check`]), after JAX's: errors
/// unless `options.jax_rules_only`, warnings always.
fn check_libtpu(
    kernel: Option<&Kernel<'_>>,
    facts: &KernelFacts,
    params: &Params,
    target: Option<Chip>,
    options: &ValidateOptions,
    errors: &mut Vec<Error>,
    warnings: &mut Vec<LibtpuWarning>,
) {
    // Without a lowering context the resolved collective id is the given one
    // (`lower_config` writes `params.collective_id`).
    let found = libtpu::check(kernel, facts, params, params.collective_id, target);
    if !options.jax_rules_only {
        errors.extend(
            libtpu::check_release(facts, params, &options.libtpu, None)
                .into_iter()
                .map(Error::from),
        );
        errors.extend(found.errors.into_iter().map(Error::from));
    }
    warnings.extend(found.warnings);
}

/// The chip checks (what JAX only checks on a live TPU).
fn check_target(
    chip: Chip,
    kernel: Option<&Kernel<'_>>,
    facts: &KernelFacts,
    params: &Params,
    errors: &mut Vec<Error>,
) {
    let query = match kernel {
        Some(kernel) => target_query(kernel, facts, params),
        None => TargetQuery {
            vmem_limit_bytes: params.vmem_limit_bytes,
            internal_scratch_in_bytes: params.internal_scratch_in_bytes,
            ..TargetQuery::default()
        },
    };
    errors.extend(chip.check_all(&query).into_iter().map(Error::from));
}

/// The parameter rules: the serde version, then JAX's and ours (libtpu's
/// follow in `check_libtpu`).
fn check_params(
    params: &Params,
    facts: &KernelFacts,
    _target: Option<Chip>,
    errors: &mut Vec<Error>,
) {
    // The serde version must be one `serialize` writes (JAX's message above 18).
    match params.ir_version {
        Some(requested) if requested > HIGHEST_IR_VERSION => {
            errors.push(
                SerdeError::VersionTooNew {
                    requested,
                    highest: HIGHEST_IR_VERSION,
                }
                .into(),
            );
        }
        Some(requested) if requested < LOWEST_IR_VERSION => {
            errors.push(
                SerdeError::VersionTooOld {
                    requested,
                    lowest: LOWEST_IR_VERSION,
                }
                .into(),
            );
        }
        _ => {}
    }
    let mut rule_errors = Vec::new();
    param_rules(
        params,
        params.collective_id,
        facts,
        params.ir_version,
        &mut rule_errors,
    );
    errors.extend(rule_errors.into_iter().map(Error::from));
}

/// Builds the query the target checks need from the kernel and parameters.
fn target_query(kernel: &Kernel<'_>, facts: &KernelFacts, params: &Params) -> TargetQuery {
    let mut query = TargetQuery::from_facts(facts);
    if let Ok(dims) = analysis::parallel_dims(kernel) {
        query.subcore_count = dims
            .iter()
            .filter_map(|d| d.subcores)
            .filter_map(|n| u64::try_from(n).ok())
            .max();
    }
    query.kernel_memory_spaces = contract::kernel_memory_spaces(kernel);
    query.tensor_cores_per_device = contract::tensor_cores_per_device(facts);
    query.vmem_limit_bytes = params.vmem_limit_bytes;
    query.internal_scratch_in_bytes = params.internal_scratch_in_bytes;
    query.memory_spaces = params
        .input_memory_spaces
        .iter()
        .chain(params.output_memory_spaces.iter())
        .flatten()
        .flatten()
        .copied()
        .collect();
    query
}

fn is_sparse_core(facts: &KernelFacts) -> bool {
    facts.device_type == Some(DeviceType::SparseCore)
}

/// The parameter rules (no call signature), in JAX's order, then ours.
fn param_rules(
    params: &Params,
    collective_id: Option<i64>,
    facts: &KernelFacts,
    ir_version: Option<u32>,
    errors: &mut Vec<RuleError>,
) {
    let sc = is_sparse_core(facts);

    // Pallas `_resolve_tiling`, before the config is built.
    if let Some(value) = params.use_tc_tiling_on_sc {
        if !sc {
            errors.push(RuleError::TcTilingOnTensorCore { value });
        } else if let Some(tiling) = params.tiling {
            errors.push(RuleError::ConflictingTiling {
                tiling: tiling.param_name().to_string(),
                use_tc_tiling_on_sc: value,
            });
        }
    }

    // `_lowered_to_custom_call_config`, without a lowering context.
    if facts.has_custom_barrier {
        if collective_id.is_none() {
            errors.push(RuleError::BarrierWithoutCollectiveId);
        }
    } else if let Some(id) = collective_id
        && !params.allow_collective_id_without_custom_barrier
    {
        errors.push(RuleError::CollectiveIdWithoutBarrier { collective_id: id });
    }
    if params.tiling.is_some() && !sc {
        errors.push(RuleError::TilingOnTensorCore);
    }
    if params.opt_level.is_some() && !sc {
        errors.push(RuleError::OptLevelOnTensorCore);
    }

    // `to_json`'s own refusal, checked before anything is written.
    if let Some(list) = &params.input_memory_spaces {
        for (operand, ms) in list.iter().enumerate() {
            if let Some(ms) = ms
                && !matches!(ms, MemorySpace::Hbm | MemorySpace::Vmem | MemorySpace::Smem)
            {
                errors.push(RuleError::InputMemorySpaceUnsupported {
                    operand,
                    memory_space: *ms,
                });
            }
        }
    }

    // Ours.
    if let Some(id) = collective_id
        && (i32::try_from(id).is_err() || id < 0)
    {
        errors.push(RuleError::CollectiveIdOutOfRange { value: id });
    }
    if let Some(v) = params.vmem_limit_bytes
        && v <= 0
    {
        errors.push(RuleError::VmemLimitNotPositive { value: v });
    }
    let mut non_negative = |field: &str, value: Option<i64>| {
        if let Some(v) = value.filter(|v| *v < 0) {
            errors.push(RuleError::Negative {
                field: field.to_string(),
                value: v,
            });
        }
    };
    non_negative(
        "internal_scratch_in_bytes",
        params.internal_scratch_in_bytes,
    );
    non_negative("serialization_format", params.serialization_format);
    if let Some(c) = &params.cost_estimate {
        non_negative("cost_estimate.flops", Some(c.flops));
        non_negative("cost_estimate.transcendentals", Some(c.transcendentals));
        non_negative("cost_estimate.bytes_accessed", Some(c.bytes_accessed));
        non_negative(
            "cost_estimate.remote_bytes_transferred",
            Some(c.remote_bytes_transferred),
        );
    }
    if let Some(format) = params.serialization_format
        && format > i64::from(u32::MAX)
    {
        errors.push(RuleError::SerializationFormatOutOfRange { value: format });
    }
    if let Some(flags) = &params.flags {
        for (name, value) in flags {
            // What the writer would refuse, checked before anything is built.
            if !crate::config::flag_name_is_writable(name) {
                errors.push(RuleError::BadFlagName { flag: name.clone() });
            } else if let FlagValue::Double(v) = value
                && !v.is_finite()
            {
                errors.push(RuleError::NonFiniteFlag {
                    flag: name.clone(),
                    value: python_float_repr(*v),
                });
            }
        }
    }
    if !sc {
        for (field, list) in [
            ("output_memory_spaces", &params.output_memory_spaces),
            ("input_memory_spaces", &params.input_memory_spaces),
        ] {
            for (index, ms) in list.iter().flatten().enumerate() {
                if let Some(ms) = ms.filter(|m| m.is_sparse_core_only()) {
                    errors.push(RuleError::SparseCoreMemorySpaceOnTensorCore {
                        field: field.to_string(),
                        index,
                        memory_space: ms,
                    });
                }
            }
        }
    }
    if params.forward_compatible && ir_version.is_none_or(|v| v > DEFAULT_IR_VERSION) {
        errors.push(RuleError::ForwardCompatibleIrVersion {
            ir_version: ir_version.map_or("null (the serde default, 18)".to_string(), |v| {
                v.to_string()
            }),
        });
    }
}

/// The rules that need the call's operand and result types: alias indices in
/// range, no result aliased twice, aliased operand and result of the same
/// type and memory space, and `allow_input_fusion` / memory-space lists with
/// one entry per operand or result. The only place the alias rules live.
fn signature_rules(
    params: &Params,
    operand_types: &[Type<'_>],
    result_types: &[Type<'_>],
    errors: &mut Vec<RuleError>,
) {
    let (operands, results) = (operand_types.len(), result_types.len());
    let mut aliased: Vec<Option<usize>> = vec![None; results];
    for &(operand, result) in &params.input_output_aliases {
        let mut in_range = true;
        if operand >= operands {
            errors.push(RuleError::AliasOperandOutOfRange { operand, operands });
            in_range = false;
        }
        if result >= results {
            errors.push(RuleError::AliasResultOutOfRange { result, results });
            in_range = false;
        }
        if !in_range {
            continue;
        }
        if let Some(first) = aliased[result] {
            errors.push(RuleError::ResultAliasedTwice {
                result,
                first,
                second: operand,
            });
        }
        aliased[result] = Some(operand);
        let (ot, rt) = (operand_types[operand], result_types[result]);
        if ot != rt {
            errors.push(RuleError::AliasTypeMismatch {
                operand,
                result,
                operand_type: ot.to_string(),
                result_type: rt.to_string(),
            });
        }
        let ins = params
            .input_memory_spaces
            .as_ref()
            .and_then(|l| l.get(operand).copied().flatten());
        let outs = params
            .output_memory_spaces
            .as_ref()
            .and_then(|l| l.get(result).copied().flatten());
        if let (Some(input), Some(output)) = (ins, outs)
            && input != output
        {
            errors.push(RuleError::MemorySpaceConflict {
                operand,
                result,
                input,
                output,
            });
        }
    }
    let mut length = |field: &str, len: Option<usize>, expected: usize, operand: bool| {
        if let Some(len) = len.filter(|len| *len != expected) {
            let (what, what_one) = if operand {
                ("operands", "operand")
            } else {
                ("results", "result")
            };
            errors.push(RuleError::ListLength {
                field: field.to_string(),
                len,
                expected,
                what: what.to_string(),
                what_one: what_one.to_string(),
            });
        }
    };
    length(
        "allow_input_fusion",
        params.allow_input_fusion.as_ref().map(Vec::len),
        operands,
        true,
    );
    length(
        "input_memory_spaces",
        params.input_memory_spaces.as_ref().map(Vec::len),
        operands,
        true,
    );
    length(
        "output_memory_spaces",
        params.output_memory_spaces.as_ref().map(Vec::len),
        results,
        false,
    );
}

/// Builds the backend config of a call, as JAX 0.12's
/// `_lowered_to_custom_call_config` does, after every parameter rule passed.
///
/// `body` is the serialized kernel (moved, not copied), `debug_locations` the
/// unzipped locations blob (`None` unless unzipping; an empty blob is not
/// written), `ir_version` the serde version the body was written at (`None`:
/// the pass default), `facts` what the analysis found in the kernel
/// (`device_type` `None` or `Some(TensorCore)` both mean a TensorCore kernel:
/// JAX writes no `device_type` for those).
/// Pass the result to [`BackendConfig::to_json`] with
/// [`Params::use_core_ids`].
pub fn lower_config(
    params: &Params,
    facts: &KernelFacts,
    body: Vec<u8>,
    debug_locations: Option<Vec<u8>>,
    ir_version: Option<u32>,
) -> Result<BackendConfig, RuleError> {
    build(
        params,
        params.collective_id,
        facts,
        body,
        debug_locations,
        ir_version,
    )
}

/// [`lower_config`] inside a module being lowered: the collective id is
/// resolved through the module's [`CollectiveIds`] (auto-assignment, barrier
/// tags) as JAX does with a lowering context, then every rule runs with it.
/// `tag` is the kernel's barrier-semaphore tag, if it has one.
pub fn lower_config_in_module(
    params: &Params,
    facts: &KernelFacts,
    body: Vec<u8>,
    debug_locations: Option<Vec<u8>>,
    ir_version: Option<u32>,
    ids: &mut CollectiveIds,
    tag: Option<&str>,
) -> Result<BackendConfig, RuleError> {
    let collective_id = ids.resolve(params, facts, &body, tag)?;
    build(
        params,
        collective_id,
        facts,
        body,
        debug_locations,
        ir_version,
    )
}

fn build(
    params: &Params,
    collective_id: Option<i64>,
    facts: &KernelFacts,
    body: Vec<u8>,
    debug_locations: Option<Vec<u8>>,
    ir_version: Option<u32>,
) -> Result<BackendConfig, RuleError> {
    let mut errors = Vec::new();
    param_rules(params, collective_id, facts, ir_version, &mut errors);
    if let Some(first) = errors.into_iter().next() {
        return Err(first);
    }
    let sc = is_sparse_core(facts);
    // Every rule above guarantees these conversions; map rather than panic.
    let to_u64 = |field: &str, v: i64| {
        u64::try_from(v).map_err(|_| RuleError::Negative {
            field: field.to_string(),
            value: v,
        })
    };
    let cost_estimate = match &params.cost_estimate {
        None => None,
        Some(c) => Some(CostEstimate {
            flops: to_u64("cost_estimate.flops", c.flops)?,
            transcendentals: to_u64("cost_estimate.transcendentals", c.transcendentals)?,
            bytes_accessed: to_u64("cost_estimate.bytes_accessed", c.bytes_accessed)?,
            remote_bytes_transferred: to_u64(
                "cost_estimate.remote_bytes_transferred",
                c.remote_bytes_transferred,
            )?,
        }),
    };
    let collective_id = collective_id
        .map(|id| i32::try_from(id).map_err(|_| RuleError::CollectiveIdOutOfRange { value: id }))
        .transpose()?;
    let serialization_format = params
        .serialization_format
        .map(|f| {
            u32::try_from(f).map_err(|_| RuleError::Negative {
                field: "serialization_format".into(),
                value: f,
            })
        })
        .transpose()?;
    let tiling = sc.then(|| {
        params.tiling.unwrap_or(match params.use_tc_tiling_on_sc {
            Some(false) => Tiling::SparseCore,
            _ => Tiling::Compact,
        })
    });
    Ok(BackendConfig {
        body,
        ir_version,
        has_communication: facts.has_communication,
        collective_id,
        device_type: sc.then_some(DeviceType::SparseCore),
        cost_estimate,
        needs_hlo_passes: params.needs_hlo_passes,
        // TensorCore kernels always need the layout passes.
        needs_layout_passes: params.needs_layout_passes || !sc,
        vmem_limit_bytes: params
            .vmem_limit_bytes
            .map(|v| to_u64("vmem_limit_bytes", v))
            .transpose()?,
        flags: params.flags.clone(),
        allow_input_fusion: params.allow_input_fusion.clone(),
        serialization_format,
        internal_scratch_in_bytes: params
            .internal_scratch_in_bytes
            .map(|v| to_u64("internal_scratch_in_bytes", v))
            .transpose()?,
        output_memory_spaces: params.output_memory_spaces.clone(),
        disable_bounds_checks: params.disable_bounds_checks,
        disable_semaphore_checks: params.disable_semaphore_checks,
        active_core_count: facts.active_core_count,
        input_memory_spaces: params.input_memory_spaces.clone(),
        skip_device_barrier: params.skip_device_barrier,
        shape_invariant_numerics: params.shape_invariant_numerics,
        tiling,
        opt_level: params.opt_level.filter(|_| sc),
        debug_locations: debug_locations.filter(|d| !d.is_empty()),
        implicit_sharding: None,
    })
}

/// JAX's `jax_pallas_auto_assign_collective_ids` mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AutoAssignMode {
    /// `no` (JAX's default): only barrier tags get automatic ids.
    #[default]
    No,
    /// `yes`: kernels without a collective id get one (a given id is kept,
    /// JAX logs a warning).
    Yes,
    /// `override`: every given id is ignored and all are assigned.
    Override,
}

impl AutoAssignMode {
    /// JAX's spelling of the mode (`no`, `yes`, `override`).
    pub const fn name(self) -> &'static str {
        match self {
            AutoAssignMode::No => "no",
            AutoAssignMode::Yes => "yes",
            AutoAssignMode::Override => "override",
        }
    }

    /// Parses JAX's spelling, exactly.
    pub fn parse(s: &str) -> Option<Self> {
        [
            AutoAssignMode::No,
            AutoAssignMode::Yes,
            AutoAssignMode::Override,
        ]
        .into_iter()
        .find(|m| m.name() == s)
    }
}

crate::spelling::spelled!(
    AutoAssignMode,
    "collective-id auto-assign mode",
    name,
    ["no", "yes", "override"]
);

/// What an automatic collective id is shared by: a barrier tag, or an
/// identical kernel body; with the `skip_device_barrier` setting.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum IdKey {
    Tag(String, bool),
    Module(u64, bool),
}

impl IdKey {
    fn python_repr(&self) -> String {
        let py_bool = |b: bool| if b { "True" } else { "False" };
        match self {
            IdKey::Tag(tag, skip) => {
                format!("('tag', {}, {})", python_str_repr(tag), py_bool(*skip))
            }
            IdKey::Module(hash, skip) => format!("('module', 0x{hash:016x}, {})", py_bool(*skip)),
        }
    }
}

/// Python's `repr()` of a `str`.
fn python_str_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::from(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// The collective ids of one module being lowered (JAX's
/// `CollectiveIdMapping`, in a lowering context): automatic ids start at 0,
/// skip every id given explicitly anywhere in the module, and are shared by
/// calls with the same barrier tag or the same kernel body.
#[derive(Clone, Debug)]
pub struct CollectiveIds {
    mode: AutoAssignMode,
    limit: usize,
    auto: Vec<(IdKey, i64)>,
    manual: Vec<(IdKey, i64)>,
    all_ids: std::collections::BTreeSet<i64>,
}

/// JAX's default `jax_pallas_auto_assign_collective_ids_limit`.
pub const DEFAULT_AUTO_ID_LIMIT: usize = 25;

impl CollectiveIds {
    /// A module's mapping. `manual_ids` are the `collective_id`s given to any
    /// call of the module (JAX scans the whole jaxpr first); ignored in
    /// [`AutoAssignMode::Override`].
    pub fn new(mode: AutoAssignMode, manual_ids: impl IntoIterator<Item = i64>) -> Self {
        let all_ids = if mode == AutoAssignMode::Override {
            Default::default()
        } else {
            manual_ids.into_iter().collect()
        };
        CollectiveIds {
            mode,
            limit: DEFAULT_AUTO_ID_LIMIT,
            auto: Vec::new(),
            manual: Vec::new(),
            all_ids,
        }
    }

    /// The same with another limit on the number of automatic ids
    /// (`jax_pallas_auto_assign_collective_ids_limit`).
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    fn body_hash(body: &[u8]) -> u64 {
        use std::hash::{Hash, Hasher};
        // SipHash with fixed keys: deterministic across runs.
        let mut h = std::collections::hash_map::DefaultHasher::new();
        body.hash(&mut h);
        h.finish()
    }

    fn python_repr(&self) -> String {
        let dict = |entries: &[(IdKey, i64)]| {
            let items: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{}: {v}", k.python_repr()))
                .collect();
            format!("{{{}}}", items.join(", "))
        };
        let ids: Vec<String> = self.all_ids.iter().map(i64::to_string).collect();
        let all = if ids.is_empty() {
            "set()".to_string()
        } else {
            format!("{{{}}}", ids.join(", "))
        };
        format!(
            "CollectiveIdMapping(auto={}, manual={}, all_ids={all})",
            dict(&self.auto),
            dict(&self.manual)
        )
    }

    /// Resolves the collective id of one call as JAX 0.12's
    /// `_lowered_to_custom_call_config` does with a lowering context (the
    /// spec's decision table, section 4.4, steps 1 to 4). The rules that
    /// follow (barrier without id...) run in [`lower_config_in_module`].
    pub fn resolve(
        &mut self,
        params: &Params,
        facts: &KernelFacts,
        body: &[u8],
        tag: Option<&str>,
    ) -> Result<Option<i64>, RuleError> {
        if self.mode != AutoAssignMode::Override
            && let (Some(collective_id), Some(tag)) = (params.collective_id, tag)
        {
            return Err(RuleError::ConflictingCollectiveId {
                collective_id,
                tag_repr: python_str_repr(tag),
            });
        }
        let mut id = if self.mode == AutoAssignMode::Override {
            None
        } else {
            params.collective_id
        };
        let skip = params.skip_device_barrier;
        let auto_key = match (id, tag) {
            (Some(_), _) => None,
            (None, Some(tag)) => Some(IdKey::Tag(tag.to_string(), skip)),
            (None, None) if self.mode != AutoAssignMode::No => {
                Some(IdKey::Module(Self::body_hash(body), skip))
            }
            (None, None) => None,
        };
        if facts.has_custom_barrier || id.is_some() || auto_key.is_some() {
            if let Some(key) = auto_key {
                if let Some((_, existing)) = self.auto.iter().find(|(k, _)| *k == key) {
                    id = Some(*existing);
                } else {
                    let new_id = (0..).find(|i| !self.all_ids.contains(i)).unwrap_or(0);
                    self.auto.push((key, new_id));
                    self.all_ids.insert(new_id);
                    if self.auto.len() > self.limit {
                        return Err(RuleError::AutoCollectiveIdsExceeded {
                            limit: self.limit,
                            mapping: self.python_repr(),
                        });
                    }
                    id = Some(new_id);
                }
            } else if let Some(given) = id {
                let key = IdKey::Module(Self::body_hash(body), skip);
                self.manual.retain(|(k, _)| *k != key);
                self.manual.push((key, given));
                self.all_ids.insert(given);
            }
        }
        Ok(id)
    }
}

/// Every problem with one call: its config must read, its body must decode
/// and deserialize, its kernel must analyse, and its parameters must pass
/// every rule for its signature (and target, if given), and its layouts must
/// be the row-major ones JAX writes. Empty when valid.
pub fn verify_call(ctx: &Context, found: FoundCall, target: Option<Chip>) -> Vec<Error> {
    verify_call_report(ctx, found, target).0
}

/// [`verify_call`], with libtpu's warnings about the call (what libtpu
/// compiles but is likely a mistake) beside its problems.
pub fn verify_call_report(
    ctx: &Context,
    found: FoundCall,
    target: Option<Chip>,
) -> (Vec<Error>, Vec<LibtpuWarning>) {
    verify_call_with(ctx, found, target, &ValidateOptions::default())
}

/// [`verify_call_report`] with the rules of `options`
/// ([`ValidateOptions::jax_rules_only`]: JAX's rules and ours, not libtpu's;
/// libtpu's warnings are still given).
pub fn verify_call_with(
    ctx: &Context,
    found: FoundCall,
    target: Option<Chip>,
    options: &ValidateOptions,
) -> (Vec<Error>, Vec<LibtpuWarning>) {
    let operand_types = found.operand_types.clone();
    let result_types = found.result_types.clone();
    let real_operands = found.data_operand_types().to_vec();
    let mut errors: Vec<Error> = Vec::new();
    for (attribute, types) in [
        ("operand_layouts", &operand_types),
        ("result_layouts", &result_types),
    ] {
        let expected = expected_layouts(ctx, types);
        match (found.attribute(attribute), expected) {
            (Some(actual), Some(expected)) if actual != expected => {
                errors.push(
                    DecodeError::LayoutMismatch {
                        attribute,
                        actual: actual.to_string(),
                        expected,
                    }
                    .into(),
                );
            }
            _ => {}
        }
    }
    let decoded = match decode::decode_call(ctx, found) {
        Ok(decoded) => decoded,
        Err(e) => {
            errors.push(e.into());
            return (errors, Vec::new());
        }
    };
    errors.extend(decoded.report.unknown_keys.iter().map(|k| {
        Error::from(DecodeError::UnknownConfigKey {
            path: k.path.to_string(),
        })
    }));
    let parse_all = |texts: &[String]| -> Option<Vec<melior::ir::Type<'_>>> {
        texts
            .iter()
            .map(|t| capture(ctx, || melior::ir::Type::parse(ctx, t)).0)
            .collect()
    };
    let signature = parse_all(&real_operands)
        .zip(parse_all(&result_types))
        .map(|(operands, results)| Signature::new(operands, results));
    let found = report(
        Some(&decoded.kernel),
        signature.as_ref(),
        &decoded.params,
        target,
        options,
    );
    errors.extend(found.errors);
    (errors, found.warnings)
}

/// The layouts attribute JAX writes for these types (row-major, shape
/// operands `[0]`), printed; `None` if a type is not a ranked tensor.
fn expected_layouts(ctx: &Context, types: &[String]) -> Option<String> {
    let mut layouts = Vec::new();
    for text in types {
        let (ty, _) = capture(ctx, || melior::ir::Type::parse(ctx, text));
        let ty = ty?;
        let rank = match melior::ir::r#type::RankedTensorType::try_from(ty) {
            Ok(tensor) => melior::ir::r#type::ShapedTypeLike::rank(&tensor),
            Err(_) => crate::emit::plain_memref_rank(ty)?,
        };
        layouts.push(crate::stablehlo::layout_text(rank));
    }
    Some(format!("[{}]", layouts.join(", ")))
}

/// One call's verdict in a [`ModuleReport`]: its position, kernel name and
/// line, every problem ([`verify_call_with`]) and libtpu's warnings.
#[derive(Debug)]
pub struct CallVerdict {
    /// Position among the module's `tpu_custom_call` ops (pre-order).
    pub index: usize,
    /// The call's `kernel_name` attribute, when it has one.
    pub kernel_name: Option<String>,
    /// 1-based line of the op in the module's text, when it came from text.
    pub line: Option<usize>,
    /// Every problem; empty when the call is valid.
    pub errors: Vec<Error>,
    /// What libtpu compiles but is likely a mistake (not problems).
    pub warnings: Vec<LibtpuWarning>,
}

impl CallVerdict {
    /// `tpu_custom_call #1 (matmul) at line 12`: the label each of the call's
    /// problems carries.
    pub fn label(&self) -> String {
        let mut label = format!("tpu_custom_call #{}", self.index);
        if let Some(name) = &self.kernel_name {
            label.push_str(&format!(" ({name})"));
        }
        if let Some(line) = self.line {
            label.push_str(&format!(" at line {line}"));
        }
        label
    }

    /// Whether the call has no problem.
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Every call of a module checked ([`module_report`]).
#[derive(Debug)]
pub struct ModuleReport {
    /// The module's name as given (a file name).
    pub source_name: String,
    /// The chip the calls were checked for (`None`: JAX's rules and ours,
    /// not libtpu's chip rules).
    pub target: Option<Chip>,
    /// One verdict per call, in the module's order.
    pub calls: Vec<CallVerdict>,
}

impl ModuleReport {
    /// Whether the module has at least one call and no call has a problem.
    pub fn is_valid(&self) -> bool {
        !self.calls.is_empty() && self.calls.iter().all(CallVerdict::is_valid)
    }

    /// Every problem, each labelled with its call
    /// (`tpu_custom_call #1 (matmul) at line 12: ...`); a module without
    /// calls is one problem.
    pub fn problems(&self) -> Vec<String> {
        if self.calls.is_empty() {
            return vec![format!(
                "{}: no tpu_custom_call to validate",
                self.source_name
            )];
        }
        self.calls
            .iter()
            .flat_map(|c| c.errors.iter().map(move |e| format!("{}: {e}", c.label())))
            .collect()
    }

    /// libtpu's warnings, each labelled with its call.
    pub fn warnings(&self) -> Vec<String> {
        self.calls
            .iter()
            .flat_map(|c| {
                c.warnings
                    .iter()
                    .map(move |w| format!("{}: {w}", c.label()))
            })
            .collect()
    }

    fn target_words(&self) -> String {
        match self.target {
            Some(chip) => format!("for {chip}"),
            None => "under JAX's rules and ours (no target chip)".to_string(),
        }
    }
}

impl std::fmt::Display for ModuleReport {
    /// One line when valid (`M: 3 tpu_custom_calls valid for v5e`), else a
    /// heading and one line per problem.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.calls.len();
        let calls = if n == 1 {
            "1 tpu_custom_call".to_string()
        } else {
            format!("{n} tpu_custom_calls")
        };
        if self.is_valid() {
            return write!(
                f,
                "{}: {calls} valid {}",
                self.source_name,
                self.target_words()
            );
        }
        let problems = self.problems();
        let bad = self.calls.iter().filter(|c| !c.is_valid()).count();
        write!(
            f,
            "{}: {bad} of {calls} invalid {} ({} problem{}):",
            self.source_name,
            self.target_words(),
            problems.len(),
            if problems.len() == 1 { "" } else { "s" }
        )?;
        for p in problems {
            write!(f, "\n  {p}")?;
        }
        Ok(())
    }
}

/// Every `tpu_custom_call` of a module (text in JAX's pretty or generic
/// form, or bytecode) checked with [`verify_call_with`]: its config, body,
/// kernel, parameters, layouts and contract, for `target` when given. `Err`
/// only when the module cannot be read; a call that cannot be decoded is a
/// problem of that call.
///
/// ```
/// use tpu_custom_call::{Chip, Context};
/// use tpu_custom_call::validate::{ValidateOptions, module_report};
///
/// let ctx = Context::new();
/// let jax = std::fs::read("tests/data/jax-goldens/add_basic/module.mlir")?;
/// let report = module_report(&ctx, &jax, "add.mlir", Some(Chip::V5e), &ValidateOptions::default())?;
/// assert!(report.is_valid(), "{report}");
/// assert_eq!(report.to_string(), "add.mlir: 1 tpu_custom_call valid for v5e");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn module_report(
    ctx: &Context,
    bytes: &[u8],
    source_name: &str,
    target: Option<Chip>,
    options: &ValidateOptions,
) -> Result<ModuleReport, DecodeError> {
    let found = decode::find_calls(ctx, bytes, source_name)?;
    let calls = found
        .into_iter()
        .map(|call| {
            let (index, kernel_name, line) = (call.index, call.kernel_name.clone(), call.line);
            let (errors, warnings) = verify_call_with(ctx, call, target, options);
            CallVerdict {
                index,
                kernel_name,
                line,
                errors,
                warnings,
            }
        })
        .collect();
    Ok(ModuleReport {
        source_name: source_name.to_string(),
        target,
        calls,
    })
}
