//! The op table of the `tpu` dialect (jaxlib 0.12), read from
//! `data/mosaic/tpu-ops.json` (generated from jaxlib by
//! `scripts/jaxref/gen_op_table.py`; fields documented in
//! `data/mosaic/README.md`).

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::Value;

/// The table's JSON text, as committed.
pub const TABLE_JSON: &str = include_str!("../../data/mosaic/tpu-ops.json");

/// How many values an operand or result definition stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValueKind {
    /// Exactly one value.
    Single,
    /// Zero or one value.
    Optional,
    /// Any number of values.
    Variadic,
}

/// One operand or result definition of an op.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ValueDef {
    /// ODS name (`valueToStore`, `base`, ...).
    pub name: String,
    /// Single, optional or variadic.
    pub kind: ValueKind,
    /// jaxlib's type-constraint summary (`vector of any non-token type values`), `None` for any type.
    pub constraint: Option<String>,
    /// A type jaxlib accepts here.
    pub example: Option<String>,
}

/// One attribute definition of an op.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct AttrDef {
    /// Attribute name.
    pub name: String,
    /// ODS kind (`I32Attr`, `BoolAttr`, `tpu.TPU_ReductionKindAttr`, ...): see [`Table::attribute_kind`].
    pub kind: Option<String>,
    /// `true` when the op requires it (no default).
    pub required: bool,
    /// The value jaxlib materialises when it is absent (`false`, `0 : i32`).
    pub default: Option<String>,
}

/// One op of the dialect.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct OpDef {
    /// Full name, `tpu.vector_store`.
    pub name: String,
    /// Operand definitions, in order.
    pub operands: Vec<ValueDef>,
    /// The op carries `operandSegmentSizes`.
    pub attributed_sized_operands: bool,
    /// The op carries `resultSegmentSizes`.
    pub attributed_sized_results: bool,
    /// Result definitions, in order.
    pub results: Vec<ValueDef>,
    /// The op infers its result types (InferTypeOpInterface or a type-deriving builder).
    pub infers_result_types: bool,
    /// Number of regions.
    pub regions: usize,
    /// Attribute definitions.
    pub attributes: Vec<AttrDef>,
    /// ODS traits with a visible check.
    pub traits: Vec<String>,
}

/// What an attribute kind demands.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct AttrKind {
    /// `integer`, `bool`, `array`, `string`, `type` or `tpu`.
    pub storage: String,
    /// Integer width.
    pub width: Option<u32>,
    /// `signless` or `signed`.
    pub signedness: Option<String>,
    /// Constraint summary (`32-bit signless integer attribute`).
    pub summary: Option<String>,
    /// Dense array element (`i32`, `i64`, `i1`).
    pub element: Option<String>,
    /// `#tpu.<mnemonic><...>`.
    pub mnemonic: Option<String>,
    /// Enum cases.
    pub values: Option<Vec<String>>,
}

/// The whole table.
#[derive(Debug)]
#[non_exhaustive]
pub struct Table {
    /// Attribute kinds by ODS name (looked up per attribute of every op
    /// verified: a fast hash).
    pub(crate) attribute_kinds:
        HashMap<String, AttrKind, std::hash::BuildHasherDefault<super::verify::PtrHasher>>,
    /// Ops by full name.
    pub(crate) ops: HashMap<String, OpDef, std::hash::BuildHasherDefault<super::verify::PtrHasher>>,
}

impl Table {
    /// The op named `name` (`tpu.vector_store`).
    pub fn op(&self, name: &str) -> Option<&OpDef> {
        self.ops.get(name)
    }

    /// The attribute kind named `name` (an [`AttrDef::kind`]).
    pub fn attribute_kind(&self, name: &str) -> Option<&AttrKind> {
        self.attribute_kinds.get(name)
    }

    /// Every op of the dialect (100 in jaxlib 0.12), in no particular order.
    pub fn ops(&self) -> impl Iterator<Item = &OpDef> {
        self.ops.values()
    }
}

impl OpDef {
    /// Whether `name` is one of the op's inherent attributes (its properties
    /// in jaxlib): a defined attribute or a segment-size attribute it carries.
    pub fn is_property(&self, name: &str) -> bool {
        self.attribute(name).is_some()
            || (self.attributed_sized_operands && name == "operandSegmentSizes")
            || (self.attributed_sized_results && name == "resultSegmentSizes")
    }

    /// The attribute definition named `name`.
    pub fn attribute(&self, name: &str) -> Option<&AttrDef> {
        self.attributes.iter().find(|a| a.name == name)
    }

    /// Index of the operand definition named `name`.
    pub fn operand_index(&self, name: &str) -> Option<usize> {
        self.operands.iter().position(|o| o.name == name)
    }
}

/// The table of jaxlib 0.12's `tpu` dialect (parsed once).
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        // The table is committed data checked by the test suite, so a parse
        // failure is a build defect, not an input error.
        let value: Value =
            serde_json::from_str(TABLE_JSON).expect("data/mosaic/tpu-ops.json is valid JSON");
        Table::from_json(&value)
    })
}

fn s(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

fn value_defs(v: &Value, key: &str) -> Vec<ValueDef> {
    let list = v.get(key).and_then(Value::as_array);
    list.map(|l| {
        l.iter()
            .map(|d| ValueDef {
                name: s(d, "name").unwrap_or_default(),
                kind: match d.get("kind").and_then(Value::as_str) {
                    Some("optional") => ValueKind::Optional,
                    Some("variadic") => ValueKind::Variadic,
                    _ => ValueKind::Single,
                },
                constraint: s(d, "constraint"),
                example: s(d, "example"),
            })
            .collect()
    })
    .unwrap_or_default()
}

impl Table {
    fn from_json(v: &Value) -> Table {
        let mut attribute_kinds = HashMap::default();
        if let Some(kinds) = v.get("attribute_kinds").and_then(Value::as_object) {
            for (name, k) in kinds {
                attribute_kinds.insert(
                    name.clone(),
                    AttrKind {
                        storage: s(k, "storage").unwrap_or_default(),
                        width: k.get("width").and_then(Value::as_u64).map(|w| w as u32),
                        signedness: s(k, "signedness"),
                        summary: s(k, "summary"),
                        element: s(k, "element"),
                        mnemonic: s(k, "mnemonic"),
                        values: k.get("values").and_then(Value::as_array).map(|l| {
                            l.iter()
                                .filter_map(|x| x.as_str().map(str::to_string))
                                .collect()
                        }),
                    },
                );
            }
        }
        let mut ops = super::verify::PtrMap::default();
        if let Some(list) = v.get("ops").and_then(Value::as_object) {
            for (name, o) in list {
                let b = |key: &str| o.get(key).and_then(Value::as_bool).unwrap_or(false);
                let attributes = o
                    .get("attributes")
                    .and_then(Value::as_array)
                    .map(|l| {
                        l.iter()
                            .map(|a| AttrDef {
                                name: s(a, "name").unwrap_or_default(),
                                kind: s(a, "kind"),
                                required: a
                                    .get("required")
                                    .and_then(Value::as_bool)
                                    .unwrap_or(false),
                                default: s(a, "default"),
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let traits = o
                    .get("traits")
                    .and_then(Value::as_array)
                    .map(|l| {
                        l.iter()
                            .filter_map(|x| x.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default();
                ops.insert(
                    name.clone(),
                    OpDef {
                        name: name.clone(),
                        operands: value_defs(o, "operands"),
                        attributed_sized_operands: b("attributed_sized_operands"),
                        attributed_sized_results: b("attributed_sized_results"),
                        results: value_defs(o, "results"),
                        infers_result_types: b("infers_result_types"),
                        regions: o.get("regions").and_then(Value::as_u64).unwrap_or(0) as usize,
                        attributes,
                        traits,
                    },
                );
            }
        }
        Table {
            attribute_kinds,
            ops,
        }
    }
}
