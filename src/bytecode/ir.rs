//! A walk over the IR section (and the properties section) run before MLIR 22
//! reads a file, checking every count MLIR trusts.
//!
//! MLIR 22's reader sizes vectors from counts it reads (block arguments,
//! results, operands, successors, regions, values per region, properties) before
//! reading the elements, so a corrupted count aborts the whole process
//! (`LLVM ERROR: SmallVector unable to grow`, found by the serde mutation test:
//! `mlir-fixtures/crashers/smallvector_grow_abort.mlirbc`, a block argument
//! count of about 2^34). Every element takes at least one byte, so a count
//! larger than the bytes left in its section is corrupt. Indices into the
//! tables (op names, attributes, types, properties) are checked against the
//! tables' sizes, and use-list orders in the index-pair encoding against the
//! number of uses of their value: MLIR writes through those indices unchecked.
//!
//! The walk follows `BytecodeReader.cpp` for format versions 0 to 6: it is
//! iterative (a stack of region lists), like MLIR's, so deep nesting cannot
//! overflow our stack either.

use super::container::{
    Bytecode, ELIDE_UNKNOWN_BLOCK_ARG_LOCATION, LAZY_LOADING, NATIVE_PROPERTIES, USE_LIST_ORDERING,
    read_section,
};
use super::encoding::Cursor;
use super::error::{Section, TranscodeError};

/// The bits of an operation's encoding mask.
mod mask {
    pub const ATTRS: u8 = 0b0000_0001;
    pub const RESULTS: u8 = 0b0000_0010;
    pub const OPERANDS: u8 = 0b0000_0100;
    pub const SUCCESSORS: u8 = 0b0000_1000;
    pub const REGIONS: u8 = 0b0001_0000;
    pub const USE_LIST_ORDERS: u8 = 0b0010_0000;
    pub const PROPERTIES: u8 = 0b0100_0000;
}

/// How deep regions may nest (MLIR reads them iteratively, but its verifier
/// and printer recurse per level; the text loader allows 100 levels, see
/// `MAX_TEXT_NESTING`).
const MAX_REGION_DEPTH: usize = 100;

/// Id of the IR section.
const IR_SECTION: u8 = 4;
/// Id of the properties section.
const PROPERTIES_SECTION: u8 = 8;

/// Checks the properties section and then the IR section of `file`.
pub(crate) fn check_ir(file: &Bytecode<'_>) -> Result<(), TranscodeError> {
    walk_ir(file).map(drop)
}

/// [`check_ir`], returning the indices (into the op name table) of the
/// operations whose properties are in their op's own encoding (the op was
/// registered where the file was written), sorted.
pub(crate) fn native_property_ops(file: &Bytecode<'_>) -> Result<Vec<u64>, TranscodeError> {
    walk_ir(file).map(|set| set.into_iter().collect())
}

fn walk_ir(file: &Bytecode<'_>) -> Result<std::collections::BTreeSet<u64>, TranscodeError> {
    let num_properties = match file.section(PROPERTIES_SECTION) {
        Some(section) => check_properties(section.data, section.data_offset)?,
        None => 0,
    };
    let Some(ir) = file.section(IR_SECTION) else {
        return Ok(Default::default());
    };
    let num_attrs = file
        .entries
        .iter()
        .filter(|e| e.kind == super::EntryKind::Attribute)
        .count() as u64;
    let walker = Walker {
        input: file.input,
        version: file.version,
        op_names: &file.op_names,
        num_attrs,
        num_types: file.entries.len() as u64 - num_attrs,
        num_properties,
        cursors: vec![Cursor::new(ir.data, ir.data_offset, Section::Ir)],
        scopes: vec![Scope::default()],
        uses: Vec::new(),
        orders: Vec::new(),
        native: Default::default(),
    };
    walker.run()
}

/// Reads the properties section's offset table: returns the number of
/// properties (MLIR reserves that many slots before reading them).
fn check_properties(data: &[u8], base: usize) -> Result<u64, TranscodeError> {
    if data.is_empty() {
        return Ok(0);
    }
    let mut c = Cursor::new(data, base, Section::Properties);
    let count = bounded_count(&mut c, "properties count")?;
    for _ in 0..count {
        let size = c.varint()?;
        c.bytes(size, "properties entry")?;
    }
    if !c.is_empty() {
        return Err(c.error(format!(
            "{} bytes after the {count} properties entries",
            c.remaining()
        )));
    }
    Ok(count)
}

/// Reads a count and rejects it when it exceeds the bytes left after it
/// (every element takes at least one byte).
fn bounded_count(c: &mut Cursor<'_>, what: &str) -> Result<u64, TranscodeError> {
    let at = c.offset();
    let n = c.varint()?;
    check_bound(c, at, n, what)?;
    Ok(n)
}

/// Rejects a count `n` read at `at` that exceeds the bytes left in `c`.
fn check_bound(c: &Cursor<'_>, at: usize, n: u64, what: &str) -> Result<(), TranscodeError> {
    if n > c.remaining() as u64 {
        return Err(c.error_at(
            at,
            format!(
                "{what} {n} exceeds the {} bytes left in the section (each takes at least one byte)",
                c.remaining()
            ),
        ));
    }
    Ok(())
}

/// Reads an index and rejects it when it is not below `len`.
fn index(c: &mut Cursor<'_>, len: u64, what: &str) -> Result<u64, TranscodeError> {
    let at = c.offset();
    let i = c.varint()?;
    if i >= len {
        return Err(c.error_at(at, format!("{what} {i} is out of range ({len} entries)")));
    }
    Ok(i)
}

/// The values of one isolated-from-above scope, as MLIR numbers them: each
/// region appends its announced number of value slots, popped at its end.
#[derive(Default)]
struct Scope {
    /// The value (an id into `Walker::uses`) in each slot, if defined or
    /// referenced yet.
    slots: Vec<Option<usize>>,
    /// For each open region: its first value slot and the next slot to define.
    next: Vec<usize>,
}

/// One list of regions being read (an operation's regions, or the top-level
/// block).
struct Frame {
    /// Index of the cursor reading it in `Walker::cursors`.
    cursor: usize,
    /// Whether it owns that cursor (an isolated region's own section).
    owns_cursor: bool,
    /// Whether it opened a new value scope.
    isolated: bool,
    regions_left: u64,
    blocks_left: u64,
    ops_left: u64,
    /// Value slots of the region being read (popped when it ends).
    region_values: Option<u64>,
}

/// A use-list order waiting for the number of uses of its value.
struct Order {
    value: usize,
    /// Largest index in an index-pair encoding.
    max_pair_index: u64,
    offset: usize,
}

struct Walker<'a, 'b> {
    input: &'a [u8],
    version: u64,
    op_names: &'b [Option<bool>],
    num_attrs: u64,
    num_types: u64,
    num_properties: u64,
    cursors: Vec<Cursor<'a>>,
    scopes: Vec<Scope>,
    /// Number of uses of each value.
    uses: Vec<u64>,
    orders: Vec<Order>,
    /// Op names used with natively encoded properties.
    native: std::collections::BTreeSet<u64>,
}

impl Walker<'_, '_> {
    fn run(mut self) -> Result<std::collections::BTreeSet<u64>, TranscodeError> {
        let mut stack = vec![Frame {
            cursor: 0,
            owns_cursor: true,
            isolated: true,
            regions_left: 0,
            blocks_left: 0,
            ops_left: 0,
            region_values: None,
        }];
        self.scope().next.push(0);
        // MLIR 22 defines the top-level block's arguments before it opens a
        // value scope (a null dereference): the top-level block has none.
        let mut peek = self.cursors[0].clone();
        let at = peek.offset();
        if peek.varint_with_flag()?.1 {
            return Err(peek.error_at(at, "the top-level block has arguments"));
        }
        stack[0].ops_left = self.block_header(0)?;
        while let Some(frame) = stack.last_mut() {
            let cursor = frame.cursor;
            if frame.ops_left > 0 {
                frame.ops_left -= 1;
                if let Some(child) = self.operation(cursor)? {
                    if stack.len() > MAX_REGION_DEPTH {
                        let c = &self.cursors[child.cursor];
                        return Err(c.error(format!(
                            "regions nested deeper than {MAX_REGION_DEPTH} levels"
                        )));
                    }
                    if child.isolated {
                        self.scopes.push(Scope::default());
                    }
                    stack.push(child);
                }
            } else if frame.blocks_left > 0 {
                frame.blocks_left -= 1;
                frame.ops_left = self.block_header(cursor)?;
            } else if let Some(values) = frame.region_values.take() {
                let scope = self.scope();
                let len = scope.slots.len() - values as usize;
                scope.slots.truncate(len);
                scope.next.pop();
            } else if frame.regions_left > 0 {
                frame.regions_left -= 1;
                let c = &mut self.cursors[cursor];
                let num_blocks = bounded_count(c, "block count")?;
                if num_blocks == 0 {
                    continue;
                }
                let values = bounded_count(c, "value count")?;
                frame.region_values = Some(values);
                frame.blocks_left = num_blocks - 1;
                let scope = self.scope();
                scope.next.push(scope.slots.len());
                scope
                    .slots
                    .resize(scope.slots.len() + values as usize, None);
                let frame = stack.last_mut().expect("the frame just read");
                frame.ops_left = self.block_header(cursor)?;
            } else {
                let frame = stack.pop().expect("the frame just read");
                if frame.isolated && !stack.is_empty() {
                    self.scopes.pop();
                }
                if frame.owns_cursor {
                    self.cursors.pop();
                }
            }
        }
        self.check_orders()?;
        Ok(self.native)
    }

    fn scope(&mut self) -> &mut Scope {
        self.scopes
            .last_mut()
            .expect("a scope is open while reading")
    }

    /// Reads a block header (ops count, arguments, their use-list orders) and
    /// returns the number of operations.
    fn block_header(&mut self, cursor: usize) -> Result<u64, TranscodeError> {
        let c = &mut self.cursors[cursor];
        let at = c.offset();
        let (num_ops, has_args) = c.varint_with_flag()?;
        check_bound(c, at, num_ops, "operation count")?;
        if !has_args {
            return Ok(num_ops);
        }
        let num_args = bounded_count(c, "block argument count")?;
        for _ in 0..num_args {
            if self.version >= ELIDE_UNKNOWN_BLOCK_ARG_LOCATION {
                let at = c.offset();
                let (ty, has_loc) = c.varint_with_flag()?;
                if ty >= self.num_types {
                    return Err(c.error_at(
                        at,
                        format!(
                            "block argument type {ty} is out of range ({} types)",
                            self.num_types
                        ),
                    ));
                }
                if has_loc {
                    index(c, self.num_attrs, "block argument location")?;
                }
            } else {
                index(c, self.num_types, "block argument type")?;
                index(c, self.num_attrs, "block argument location")?;
            }
        }
        let values = self.define(cursor, num_args)?;
        if self.version >= USE_LIST_ORDERING {
            let c = &mut self.cursors[cursor];
            if c.byte()? != 0 {
                self.use_list_orders(cursor, &values)?;
            }
        }
        Ok(num_ops)
    }

    /// Defines the next `n` values of the current region; returns their ids.
    fn define(&mut self, cursor: usize, n: u64) -> Result<Vec<usize>, TranscodeError> {
        let at = self.cursors[cursor].offset();
        let scope = self
            .scopes
            .last_mut()
            .expect("a scope is open while reading");
        let Some(next) = scope.next.last_mut() else {
            return Err(self.cursors[cursor].error_at(at, "values defined outside any region"));
        };
        let end = *next as u64 + n;
        if end > scope.slots.len() as u64 {
            return Err(self.cursors[cursor].error_at(
                at,
                format!(
                    "values {next}..{end} are outside the {} announced by the region",
                    scope.slots.len()
                ),
            ));
        }
        let range = *next..end as usize;
        *next = end as usize;
        let mut ids = Vec::with_capacity(n as usize);
        for slot in range {
            let id = match scope.slots[slot] {
                Some(forward) => forward,
                None => {
                    self.uses.push(0);
                    self.uses.len() - 1
                }
            };
            scope.slots[slot] = Some(id);
            ids.push(id);
        }
        Ok(ids)
    }

    /// Reads the use-list orders of `values` (an operation's results or a
    /// block's arguments).
    fn use_list_orders(&mut self, cursor: usize, values: &[usize]) -> Result<(), TranscodeError> {
        let c = &mut self.cursors[cursor];
        let n = values.len() as u64;
        let count = if n > 1 {
            bounded_count(c, "use-list order count")?
        } else {
            1
        };
        for _ in 0..count {
            let value = if n > 1 {
                index(c, n, "use-list order value")? as usize
            } else {
                0
            };
            let at = c.offset();
            let (len, pairs) = c.varint_with_flag()?;
            check_bound(c, at, len, "use-list order length")?;
            let mut max = 0;
            for _ in 0..len {
                max = max.max(c.varint()?);
            }
            if let (true, Some(&value)) = (pairs && len > 0, values.get(value)) {
                self.orders.push(Order {
                    value,
                    max_pair_index: max,
                    offset: at,
                });
            }
        }
        Ok(())
    }

    /// Reads one operation without its regions; returns the frame reading
    /// its regions, if it has any.
    fn operation(&mut self, cursor: usize) -> Result<Option<Frame>, TranscodeError> {
        let c = &mut self.cursors[cursor];
        let name = index(c, self.op_names.len() as u64, "operation name")?;
        let op_mask = c.byte()?;
        index(c, self.num_attrs, "operation location")?;
        if op_mask & mask::ATTRS != 0 {
            index(c, self.num_attrs, "operation attribute dictionary")?;
        }
        if op_mask & mask::PROPERTIES != 0 {
            match self.op_names.get(name as usize).copied().flatten() {
                Some(true) if self.version >= NATIVE_PROPERTIES => {
                    index(c, self.num_properties, "operation properties")?;
                    self.native.insert(name);
                }
                Some(false) => {
                    index(c, self.num_attrs, "operation properties attribute")?;
                }
                _ => {
                    return Err(c.error(format!(
                        "operation with properties but no registration flag (format version {})",
                        self.version
                    )));
                }
            }
        }
        let mut num_results = 0;
        if op_mask & mask::RESULTS != 0 {
            num_results = bounded_count(c, "result count")?;
            for _ in 0..num_results {
                index(c, self.num_types, "result type")?;
            }
        }
        if op_mask & mask::OPERANDS != 0 {
            let n = bounded_count(c, "operand count")?;
            for _ in 0..n {
                let at = c.offset();
                let slot = c.varint()?;
                let scope = self
                    .scopes
                    .last_mut()
                    .expect("a scope is open while reading");
                let Some(value) = scope.slots.get_mut(slot as usize) else {
                    return Err(c.error_at(
                        at,
                        format!(
                            "operand value {slot} is out of range ({} values)",
                            scope.slots.len()
                        ),
                    ));
                };
                let id = *value.get_or_insert_with(|| {
                    self.uses.push(0);
                    self.uses.len() - 1
                });
                self.uses[id] += 1;
            }
        }
        if op_mask & mask::SUCCESSORS != 0 {
            let n = bounded_count(c, "successor count")?;
            for _ in 0..n {
                c.varint()?;
            }
        }
        let has_orders = self.version >= USE_LIST_ORDERING && op_mask & mask::USE_LIST_ORDERS != 0;
        let mut pending = Vec::new();
        if has_orders {
            // Read into a scratch list: the results are defined after.
            let before = self.orders.len();
            let placeholders: Vec<usize> = (0..num_results as usize).collect();
            self.use_list_orders(cursor, &placeholders)?;
            pending = self.orders.split_off(before);
        }
        let mut regions = None;
        let c = &mut self.cursors[cursor];
        if op_mask & mask::REGIONS != 0 {
            let at = c.offset();
            let (n, isolated) = c.varint_with_flag()?;
            check_bound(c, at, n, "region count")?;
            if n > 0 {
                regions = Some((n, isolated));
            }
        }
        let results = self.define(cursor, num_results)?;
        for mut order in pending {
            order.value = results[order.value];
            self.orders.push(order);
        }
        let Some((n, isolated)) = regions else {
            return Ok(None);
        };
        let mut frame = Frame {
            cursor,
            owns_cursor: false,
            isolated,
            regions_left: n,
            blocks_left: 0,
            ops_left: 0,
            region_values: None,
        };
        if self.version >= LAZY_LOADING && isolated {
            let c = &mut self.cursors[cursor];
            let at = c.offset();
            let section = read_section(self.input, at, Section::Ir)?;
            if section.id != IR_SECTION
                || section.data_offset + section.data.len() > c.offset() + c.remaining()
            {
                return Err(c.error_at(at, "expected a nested IR section for an isolated region"));
            }
            c.seek(section.data_offset + section.data.len());
            self.cursors
                .push(Cursor::new(section.data, section.data_offset, Section::Ir));
            frame.cursor = self.cursors.len() - 1;
            frame.owns_cursor = true;
        }
        Ok(Some(frame))
    }

    /// Checks every index-pair use-list order against its value's uses.
    fn check_orders(&self) -> Result<(), TranscodeError> {
        for order in &self.orders {
            let uses = self.uses[order.value];
            if uses > 1 && order.max_pair_index >= uses {
                return Err(TranscodeError::Malformed {
                    section: Section::Ir,
                    offset: order.offset,
                    reason: format!(
                        "use-list order index {} is out of range for a value with {uses} uses",
                        order.max_pair_index
                    ),
                });
            }
        }
        Ok(())
    }
}
