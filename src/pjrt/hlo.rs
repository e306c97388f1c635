//! The entry signature of a compiled program, read from the serialized
//! `HloModuleProto` (or `HloModuleProtoWithConfig`) that
//! `PJRT_Executable_OptimizedProgram` returns: the shapes XLA's executable
//! takes per device (after SPMD partitioning) and returns. A hand-written
//! protobuf reader of the few fields needed (`xla/service/hlo.proto`,
//! `xla/xla_data.proto`).

/// A shape of XLA's (`ShapeProto`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// An array: its `PrimitiveType` number and dimensions.
    Array {
        /// `xla::PrimitiveType` (the FFI's `DataType` numbers).
        element_type: i32,
        /// Dimensions, outermost first.
        dims: Vec<i64>,
    },
    /// A tuple of shapes.
    Tuple(Vec<Shape>),
    /// A token or opaque value (element type number).
    Other(i32),
}

/// `ProgramShapeProto`: parameters and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ProgramShape {
    /// One shape per parameter.
    pub(crate) parameters: Vec<Shape>,
    /// The result (a tuple when the program has several outputs).
    pub(crate) result: Shape,
    /// The shardings SPMD partitioning gave the parameters
    /// (`spmd_parameters_shardings`, field 14), in HLO's text form
    /// (`{devices=[4,1]<=[4]}`); empty when the module has none.
    pub(crate) parameter_shardings: Vec<Option<String>>,
    /// The results' shardings (`spmd_output_sharding`, field 12; a tuple's
    /// elements), likewise.
    pub(crate) result_shardings: Vec<Option<String>>,
}

/// An `OpSharding` message in HLO's text form; `None` for kinds without
/// one here (manual subgroups, unknown).
fn op_sharding_text(bytes: &[u8]) -> Result<Option<String>, String> {
    let mut kind = 0u64;
    let (mut dims, mut devices, mut reshape, mut perm) = (vec![], vec![], vec![], vec![]);
    let (mut last_replicate, mut last_tile_dims) = (false, false);
    let packed = |v: Value<'_>, out: &mut Vec<u64>| -> Result<(), String> {
        match v {
            Value::Varint(x) => out.push(x),
            Value::Bytes(mut b) => {
                while !b.is_empty() {
                    out.push(varint(&mut b)?);
                }
            }
            Value::Fixed => {}
        }
        Ok(())
    };
    for (field, value) in fields(bytes)? {
        match field {
            1 => {
                if let Value::Varint(k) = value {
                    kind = k;
                }
            }
            3 => packed(value, &mut dims)?,
            4 => packed(value, &mut devices)?,
            6 => last_replicate = matches!(value, Value::Varint(1)),
            8 => last_tile_dims = true,
            9 => packed(value, &mut reshape)?,
            10 => packed(value, &mut perm)?,
            _ => {}
        }
    }
    let list = |v: &[u64]| {
        v.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    Ok(match kind {
        0 => Some("{replicated}".to_string()),
        1 => devices.first().map(|d| format!("{{maximal device={d}}}")),
        3 if !last_tile_dims => {
            let assignment = if !reshape.is_empty() {
                let t = if perm.is_empty() {
                    String::new()
                } else {
                    format!("T({})", list(&perm))
                };
                format!("<=[{}]{t}", list(&reshape))
            } else {
                list(&devices)
            };
            let replicate = if last_replicate {
                " last_tile_dim_replicate"
            } else {
                ""
            };
            Some(format!(
                "{{devices=[{}]{assignment}{replicate}}}",
                list(&dims)
            ))
        }
        _ => None,
    })
}

/// An `OpSharding` as the shardings of each element of a (tuple) value.
fn tuple_sharding_texts(bytes: &[u8]) -> Result<Vec<Option<String>>, String> {
    let mut kind = 0u64;
    let mut elements = Vec::new();
    for (field, value) in fields(bytes)? {
        match (field, value) {
            (1, Value::Varint(k)) => kind = k,
            (5, Value::Bytes(b)) => elements.push(op_sharding_text(b)?),
            _ => {}
        }
    }
    Ok(if kind == 2 {
        elements
    } else {
        vec![op_sharding_text(bytes)?]
    })
}

const TUPLE: i32 = 13;
const TOKEN: i32 = 17;
const OPAQUE: i32 = 14;

/// One protobuf field: number and value.
enum Value<'a> {
    Varint(u64),
    Bytes(&'a [u8]),
    Fixed,
}

/// The fields of one message, in order.
fn fields(mut bytes: &[u8]) -> Result<Vec<(u64, Value<'_>)>, String> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let key = varint(&mut bytes)?;
        let value = match key & 7 {
            0 => Value::Varint(varint(&mut bytes)?),
            1 => {
                bytes = bytes.get(8..).ok_or("truncated fixed64")?;
                Value::Fixed
            }
            2 => {
                let n = usize::try_from(varint(&mut bytes)?).map_err(|_| "length overflow")?;
                let (value, rest) = (
                    bytes.get(..n).ok_or("truncated field")?,
                    bytes.get(n..).ok_or("truncated field")?,
                );
                bytes = rest;
                Value::Bytes(value)
            }
            5 => {
                bytes = bytes.get(4..).ok_or("truncated fixed32")?;
                Value::Fixed
            }
            t => return Err(format!("wire type {t}")),
        };
        out.push((key >> 3, value));
    }
    Ok(out)
}

fn varint(bytes: &mut &[u8]) -> Result<u64, String> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let (&b, rest) = bytes.split_first().ok_or("truncated varint")?;
        *bytes = rest;
        value |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Ok(value);
        }
    }
    Err("varint too long".into())
}

fn shape(bytes: &[u8]) -> Result<Shape, String> {
    let mut element_type = 0i32;
    let mut dims = Vec::new();
    let mut tuple = Vec::new();
    for (field, value) in fields(bytes)? {
        match (field, value) {
            (2, Value::Varint(t)) => element_type = t as i32,
            (3, Value::Varint(d)) => dims.push(d as i64),
            (3, Value::Bytes(mut packed)) => {
                while !packed.is_empty() {
                    dims.push(varint(&mut packed)? as i64);
                }
            }
            (4, Value::Bytes(b)) => tuple.push(shape(b)?),
            _ => {}
        }
    }
    Ok(match element_type {
        TUPLE => Shape::Tuple(tuple),
        TOKEN | OPAQUE => Shape::Other(element_type),
        _ => Shape::Array { element_type, dims },
    })
}

fn program_shape(bytes: &[u8]) -> Result<ProgramShape, String> {
    let mut parameters = Vec::new();
    let mut result = Shape::Tuple(Vec::new());
    for (field, value) in fields(bytes)? {
        match (field, value) {
            (1, Value::Bytes(b)) => parameters.push(shape(b)?),
            (2, Value::Bytes(b)) => result = shape(b)?,
            _ => {}
        }
    }
    Ok(ProgramShape {
        parameters,
        result,
        parameter_shardings: Vec::new(),
        result_shardings: Vec::new(),
    })
}

/// The entry signature of a serialized `HloModuleProto` (`with_config`:
/// an `HloModuleProtoWithConfig`, whose field 1 is the module): its
/// `host_program_shape` (field 4).
pub(crate) fn entry_shape(bytes: &[u8], with_config: bool) -> Result<ProgramShape, String> {
    let module = if with_config {
        fields(bytes)?
            .into_iter()
            .find_map(|(field, value)| match (field, value) {
                (1, Value::Bytes(b)) => Some(b),
                _ => None,
            })
            .ok_or("no hlo_module in the HloModuleProtoWithConfig")?
    } else {
        bytes
    };
    let mut shape = None;
    let (mut parameter_shardings, mut result_shardings) = (Vec::new(), Vec::new());
    for (field, value) in fields(module)? {
        match (field, value) {
            (4, Value::Bytes(b)) => shape = Some(program_shape(b)?),
            (12, Value::Bytes(b)) => result_shardings = tuple_sharding_texts(b)?,
            (14, Value::Bytes(b)) => parameter_shardings.push(op_sharding_text(b)?),
            _ => {}
        }
    }
    let mut shape =
        shape.ok_or_else(|| "no host_program_shape in the HloModuleProto".to_string())?;
    shape.parameter_shardings = parameter_shardings;
    shape.result_shardings = result_shardings;
    Ok(shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(out: &mut Vec<u8>, number: u64, payload: &[u8]) {
        out.push(((number << 3) | 2) as u8);
        out.push(payload.len() as u8);
        out.extend_from_slice(payload);
    }

    #[test]
    fn reads_a_program_shape() {
        // f32[2,3] (element_type 11, packed dims) and a scalar s32.
        let f32_2x3 = [0x10, 11, 0x1a, 2, 2, 3];
        let s32 = [0x10, 4];
        let mut result = vec![0x10, TUPLE as u8];
        field(&mut result, 4, &f32_2x3);
        let mut program = Vec::new();
        field(&mut program, 1, &f32_2x3);
        field(&mut program, 1, &s32);
        field(&mut program, 2, &result);
        let mut module = Vec::new();
        field(&mut module, 1, b"m");
        field(&mut module, 4, &program);
        let shape = entry_shape(&module, false).unwrap();
        let f = Shape::Array {
            element_type: 11,
            dims: vec![2, 3],
        };
        assert_eq!(
            shape.parameters,
            vec![
                f.clone(),
                Shape::Array {
                    element_type: 4,
                    dims: vec![]
                }
            ]
        );
        assert_eq!(shape.result, Shape::Tuple(vec![f]));
        let mut with_config = Vec::new();
        field(&mut with_config, 1, &module);
        assert_eq!(entry_shape(&with_config, true).unwrap(), shape);
        assert!(entry_shape(&module[..5], false).is_err());
    }
}
