//! The custom syntax of each `tpu` op we read and print: one entry per op,
//! data only. Each entry restates the op's ODS declaration as jaxlib 0.12 has
//! it (operands, results, inherent attributes with their defaults, the
//! declarative assembly format). Every entry is checked against real jaxlib
//! output by the fixtures in `mlir-fixtures/pretty/` (one or more per op).
//!
//! Mini-language of the fields:
//! - `operands` / `results`: names in declaration (generic) order; a `*`
//!   suffix marks a variadic, `?` an optional one.
//! - `attrs`: `name:kind` or `name:kind=default` separated by `;`, where kind
//!   is how the format prints the attribute when it appears as `$name`:
//!   an enum attribute's mnemonic (`#tpu.reduction_kind`: `<sum>` for
//!   `#tpu.reduction_kind<sum>`), `i32`/`i64`/`si32`
//!   (`2` for `2 : i32`), `array` (`[1, 2]` for `array<i32: 1, 2>`, element
//!   type given as `array<i32>`), `bool`, `str`, `any` (printed in full).
//!   The default is written as the generic form prints it (`0 : i32`).
//! - `implied`: types the format does not spell: `name=i32` (a fixed type)
//!   or `name=$other` (the type of another operand or result).
//! - `format`: the ODS `assemblyFormat`, verbatim.

/// One op's declaration and custom syntax.
#[derive(Debug)]
pub(crate) struct OpDef {
    /// Op name without the `tpu.` prefix.
    pub name: &'static str,
    /// Operand names in declaration order (`*` variadic, `?` optional).
    pub operands: &'static str,
    /// Whether the op has `AttrSizedOperandSegments` (`operandSegmentSizes`).
    pub segments: bool,
    /// Result names in declaration order.
    pub results: &'static str,
    /// Inherent attributes: `name:kind[=default]`, `;`-separated.
    pub attrs: &'static str,
    /// Types the format leaves out: `name=type` or `name=$other`.
    pub implied: &'static str,
    /// The ODS assembly format.
    pub format: &'static str,
}

const DMA_FORMAT: &str = "`source` `(` $source `:` type($source) `)` \
     `target` `(` $target `:` type($target) `)` \
     (`source_semaphore` `(` $source_semaphore^ `:` type($source_semaphore) `)`)? \
     (`target_semaphore` `(` $target_semaphore^ `:` type($target_semaphore) `)`)? \
     (`device_id` `(` $device_id^ `)`)? (`core_id` `(` $core_id^ `)`)? \
     (`subcore_id` `(` $subcore_id^ `)`)? attr-dict";

const DMA_OPERANDS: &str =
    "source source_semaphore? target target_semaphore? device_id? core_id? subcore_id?";

const DMA_IMPLIED: &str = "device_id=i32 core_id=i32 subcore_id=i32";

/// Every `tpu` op with a custom syntax we read and print, by name.
pub(crate) const OPS: &[OpDef] = &[
    OpDef {
        name: "all_reduce",
        operands: "input",
        segments: false,
        results: "output",
        attrs: "dim:i64; kind:#tpu.reduction_kind",
        implied: "",
        format: "$input attr-dict `:` type($input) `->` type($output)",
    },
    OpDef {
        name: "assume_multiple",
        operands: "value",
        segments: false,
        results: "result",
        attrs: "multiple:i32",
        implied: "value=$result",
        format: "$value `,` $multiple attr-dict `:` type($result)",
    },
    OpDef {
        name: "bitcast",
        operands: "input",
        segments: false,
        results: "output",
        attrs: "",
        implied: "",
        format: "$input attr-dict `:` type($input) `->` type($output)",
    },
    OpDef {
        name: "concatenate",
        operands: "sources*",
        segments: false,
        results: "output",
        attrs: "dimension:i32",
        implied: "",
        format: "$sources `in` $dimension attr-dict `:` type($sources) `->` type($output)",
    },
    OpDef {
        name: "core_id",
        operands: "",
        segments: false,
        results: "result",
        attrs: "",
        implied: "",
        format: "attr-dict `:` type($result)",
    },
    OpDef {
        name: "delay",
        operands: "nanos",
        segments: false,
        results: "",
        attrs: "",
        implied: "nanos=i32",
        format: "$nanos attr-dict",
    },
    OpDef {
        name: "device_id",
        operands: "",
        segments: false,
        results: "result",
        attrs: "",
        implied: "",
        format: "attr-dict `:` type($result)",
    },
    OpDef {
        name: "dynamic_gather",
        operands: "source indices",
        segments: false,
        results: "output",
        attrs: "dimensions:array<i32>",
        implied: "",
        format: "$source `[` $indices `]` `in` $dimensions attr-dict \
                 `:` type($source) `,` type($indices) `->` type($output)",
    },
    OpDef {
        name: "dynamic_rotate",
        operands: "value amount",
        segments: false,
        results: "result",
        attrs: "dimension:si32; stride:si32; stride_dimension:si32",
        implied: "",
        format: "$value `by` $amount `dim` $dimension attr-dict \
                 `:` type($value) `,` type($amount) `->` type($result)",
    },
    OpDef {
        name: "enqueue_dma",
        operands: DMA_OPERANDS,
        segments: true,
        results: "",
        attrs: "priority:i32=0 : i32; strict_ordering:bool=false",
        implied: DMA_IMPLIED,
        format: DMA_FORMAT,
    },
    OpDef {
        name: "erase_memref_layout",
        operands: "operand",
        segments: false,
        results: "result",
        attrs: "",
        implied: "",
        format: "$operand attr-dict `:` type($operand) `->` type($result)",
    },
    OpDef {
        name: "iota",
        operands: "",
        segments: false,
        results: "output",
        attrs: "dimensions:array<i32>",
        implied: "",
        format: "attr-dict `:` type($output)",
    },
    OpDef {
        name: "iteration_bound",
        operands: "",
        segments: false,
        results: "result",
        attrs: "dim:i32",
        implied: "",
        format: "$dim attr-dict `:` type($result)",
    },
    OpDef {
        name: "load",
        operands: "base indices*",
        segments: false,
        results: "result",
        attrs: "sublane_mask:array<i1>; sublane_stride:i32=1 : i32",
        implied: "indices=index",
        format: "$base `[` $indices `]` `sublanes` $sublane_mask \
                 (`sublane_stride` $sublane_stride^)? attr-dict `:` type($base) `,` type($result)",
    },
    OpDef {
        name: "log",
        operands: "inputs*",
        segments: false,
        results: "",
        attrs: "tag:str; formatted:bool=false",
        implied: "",
        format: "$tag attr-dict (`:` `[` $inputs^ `]` `:` type($inputs))?",
    },
    OpDef {
        name: "matmul",
        operands: "lhs rhs acc",
        segments: false,
        results: "result",
        attrs: "transpose_lhs:bool=false; transpose_rhs:bool=false; transpose_lhs_hint:bool; \
                precision:any; dimension_numbers:any",
        implied: "",
        format: "$lhs `,` $rhs `,` $acc attr-dict \
                 `:` type($lhs) `,` type($rhs) `,` type($acc) `->` type($result)",
    },
    OpDef {
        name: "memref_bitcast",
        operands: "input",
        segments: false,
        results: "result",
        attrs: "",
        implied: "",
        format: "$input attr-dict `:` type($input) `->` type($result)",
    },
    OpDef {
        name: "memref_reshape",
        operands: "input",
        segments: false,
        results: "result",
        attrs: "",
        implied: "",
        format: "$input attr-dict `:` type($input) `->` type($result)",
    },
    OpDef {
        name: "memref_slice",
        operands: "mem_ref base_idx* dynamic_sizes*",
        segments: true,
        results: "result",
        attrs: "",
        implied: "base_idx=i32 dynamic_sizes=i32",
        format: "$mem_ref `[` $base_idx `]` (`<` $dynamic_sizes^ `>`)? \
                 attr-dict `:` type($mem_ref) `->` type($result)",
    },
    OpDef {
        name: "memref_squeeze",
        operands: "input",
        segments: false,
        results: "result",
        attrs: "",
        implied: "",
        format: "$input attr-dict `:` type($input) `->` type($result)",
    },
    OpDef {
        name: "reduce",
        operands: "input",
        segments: false,
        results: "output",
        attrs: "dimensions:array<i64>; kind:#tpu.reduction_kind",
        implied: "",
        format: "$kind `,` $input $dimensions attr-dict `:` type($input) `->` type($output)",
    },
    OpDef {
        name: "reduce_index",
        operands: "input",
        segments: false,
        results: "output",
        attrs: "axis:i32; kind:#tpu.reduction_kind",
        implied: "",
        format: "$input attr-dict `:` type($input) `->` type($output)",
    },
    OpDef {
        name: "reinterpret_cast",
        operands: "input dynamic_offset? dynamic_sizes* dynamic_strides*",
        segments: true,
        results: "result",
        attrs: "",
        implied: "dynamic_offset=i32 dynamic_sizes=i32 dynamic_strides=i32",
        format: "$input ($dynamic_offset^)? (`<` $dynamic_sizes^ `>`)? \
                 (`[` $dynamic_strides^ `]`)? attr-dict `:` type($input) `->` type($result)",
    },
    OpDef {
        name: "scan",
        operands: "input mask?",
        segments: false,
        results: "output",
        attrs: "kind:#tpu.reduction_kind; dimension:i64",
        implied: "",
        format: "$kind `,` $input (`masked` $mask^)? attr-dict \
                 `:` type($input) `,` type($mask) `->` type($output)",
    },
    OpDef {
        name: "sem_alloc",
        operands: "",
        segments: false,
        results: "result",
        attrs: "",
        implied: "",
        format: "attr-dict `:` type($result)",
    },
    OpDef {
        name: "sem_barrier",
        operands: "",
        segments: false,
        results: "semaphore",
        attrs: "",
        implied: "",
        format: "attr-dict `:` type($semaphore)",
    },
    OpDef {
        name: "sem_read",
        operands: "semaphore",
        segments: false,
        results: "result",
        attrs: "",
        implied: "",
        format: "$semaphore attr-dict `:` type($semaphore) `->` type($result)",
    },
    OpDef {
        name: "sem_signal",
        operands: "semaphore amount device_id? core_id? subcore_id?",
        segments: true,
        results: "",
        attrs: "",
        implied: "amount=i32 device_id=i32 core_id=i32 subcore_id=i32",
        format: "$semaphore `,` $amount (`device_id` $device_id^)? (`core_id` $core_id^)? \
                 (`subcore_id` $subcore_id^)? attr-dict `:` type($semaphore)",
    },
    OpDef {
        name: "sem_wait",
        operands: "semaphore amount",
        segments: false,
        results: "",
        attrs: "",
        implied: "amount=i32",
        format: "$semaphore `,` $amount attr-dict `:` type($semaphore)",
    },
    OpDef {
        name: "sort",
        operands: "keys values mask?",
        segments: false,
        results: "output_mask sorted_keys sorted_values",
        attrs: "descending:bool=false",
        implied: "",
        format: "$keys `,` $values (`masked` $mask^)? attr-dict `:` functional-type(operands, results)",
    },
    OpDef {
        name: "store",
        operands: "valueToStore base indices* mask?",
        segments: true,
        results: "",
        attrs: "sublane_mask:array<i1>; sublane_stride:i32=1 : i32; add:bool=false",
        implied: "indices=index",
        format: "$base `[` $indices `]` `,` $valueToStore (`masked` $mask^)? `sublanes` $sublane_mask \
                 (`sublane_stride` $sublane_stride^)? attr-dict \
                 `:` type($base) `,` type($valueToStore) `,` type($mask)",
    },
    OpDef {
        name: "strided_load",
        operands: "base indices*",
        segments: false,
        results: "result",
        attrs: "strides:array<i32>",
        implied: "indices=index",
        format: "$base `[` $indices `]` attr-dict `:` type($base) `,` type($result)",
    },
    OpDef {
        name: "strided_store",
        operands: "valueToStore base indices*",
        segments: false,
        results: "",
        attrs: "strides:array<i32>",
        implied: "indices=index",
        format: "$base `[` $indices `]` `,` $valueToStore attr-dict \
                 `:` type($base) `,` type($valueToStore)",
    },
    OpDef {
        name: "subcore_id",
        operands: "",
        segments: false,
        results: "result",
        attrs: "",
        implied: "",
        format: "attr-dict `:` type($result)",
    },
    OpDef {
        name: "transpose",
        operands: "vector",
        segments: false,
        results: "result",
        attrs: "permutation:array<i64>",
        implied: "",
        format: "$vector `,` $permutation attr-dict `:` type($vector) `->` type($result)",
    },
    OpDef {
        name: "vector_load",
        operands: "base indices* mask?",
        segments: true,
        results: "result",
        attrs: "strides:array<i32>",
        implied: "indices=index",
        format: "$base `[` $indices `]` (`masked` $mask^)? attr-dict \
                 `:` type($base) `,` type($result) `,` type($mask)",
    },
    OpDef {
        name: "vector_store",
        operands: "valueToStore base indices* mask?",
        segments: true,
        results: "",
        attrs: "strides:array<i32>; add:bool=false",
        implied: "indices=index",
        format: "$base `[` $indices `]` `,` $valueToStore (`masked` $mask^)? attr-dict \
                 `:` type($base) `,` type($valueToStore) `,` type($mask)",
    },
    OpDef {
        name: "wait_dma",
        operands: DMA_OPERANDS,
        segments: true,
        results: "",
        attrs: "wait_target:bool; priority:i32=0 : i32; strict_ordering:bool=false",
        implied: DMA_IMPLIED,
        format: DMA_FORMAT,
    },
    OpDef {
        name: "wait_dma2",
        operands: "semaphore src dst device_id? core_id?",
        segments: true,
        results: "",
        attrs: "strict_ordering:bool=false",
        implied: "device_id=i32 core_id=i32",
        format: "`semaphore` `(` $semaphore `:` type($semaphore) `)` \
                 `src` `(` $src `:` type($src) `)` `dst` `(` $dst `:` type($dst) `)` \
                 (`device_id` `(` $device_id^ `)`)? (`core_id` `(` $core_id^ `)`)? attr-dict",
    },
    OpDef {
        name: "yield",
        operands: "results*",
        segments: false,
        results: "",
        attrs: "",
        implied: "",
        format: "attr-dict ($results^ `:` type($results))?",
    },
];
