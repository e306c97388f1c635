//! The config layer's errors: what the writer refuses ([`WriteError`]) and
//! what the reader refuses ([`ReadError`], with its JSON path).

use super::MemorySpace;
use super::json::JsonPath;

/// What the backend-config writer ([`super::BackendConfig::to_json`])
/// refuses: JAX's own refusal (an input memory space it cannot write) and
/// what JAX would write as invalid JSON.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// JAX: an input memory space other than HBM, VMEM or SMEM.
    #[error("input_memory_space_colors only supports HBM, VMEM and SMEM")]
    InputMemorySpaceUnsupported {
        /// The operand index.
        operand: usize,
        /// The memory space given.
        memory_space: MemorySpace,
    },
    /// A non-finite double flag (JAX writes `inf`/`nan`, which is not JSON).
    #[error("flag {flag} = {value} is not a finite number; JSON cannot hold it")]
    NonFiniteFlag {
        /// The flag name.
        flag: String,
        /// Python's spelling of the value.
        value: String,
    },
    /// A flag name JAX would write raw into the JSON but that is not
    /// printable ASCII without `"` and `\` (JAX raises UnicodeEncodeError or
    /// writes broken JSON).
    #[error(
        "flag name {flag:?} is not allowed: flag names must be printable ASCII without `\"` or `\\`"
    )]
    BadFlagName {
        /// The flag name.
        flag: String,
    },
    /// The same flag twice: JAX's flags are a dict (one value per name), and
    /// the reader refuses a repeated `flag_type`.
    #[error("flag {flag} is given twice; give each flag once")]
    DuplicateFlag {
        /// The flag name.
        flag: String,
    },
    /// The body or debug blob is too large to encode.
    #[error("{field} of {bytes} bytes is too large to base64-encode on this machine")]
    TooLarge {
        /// `body` or `debug_locations`.
        field: String,
        /// Its size.
        bytes: usize,
    },
    /// A config the writer cannot express (text that is not ASCII).
    #[error("backend_config value at {path} is not supported: {message}")]
    Unsupported {
        /// Where.
        path: JsonPath,
        /// What is unsupported and what is accepted.
        message: String,
    },
}

/// What can be wrong with a backend_config JSON document being read
/// ([`super::BackendConfig::from_json`]), each with its JSON path.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// Not JSON.
    #[error("backend_config is not valid JSON at {path}: {message}")]
    Json {
        /// The enclosing value.
        path: JsonPath,
        /// What was wrong, with the byte offset.
        message: String,
    },
    /// An object with the same key twice (also under its snake_case and
    /// camelCase spellings).
    #[error("backend_config has the key {key:?} twice at {path}")]
    DuplicateKey {
        /// The object.
        path: JsonPath,
        /// The key.
        key: String,
    },
    /// A value of the wrong type.
    #[error("backend_config value at {path} must be {expected}, not {found}")]
    WrongType {
        /// Where.
        path: JsonPath,
        /// What belongs there.
        expected: String,
        /// What was found.
        found: String,
    },
    /// A required key is missing.
    #[error("backend_config has no {key:?} at {path}")]
    MissingKey {
        /// The object.
        path: JsonPath,
        /// The missing key.
        key: String,
    },
    /// Bad base64 in `body` or `debug_locations`.
    #[error("backend_config value at {path} is not valid base64: {message}")]
    Base64 {
        /// Where.
        path: JsonPath,
        /// The decoder's message.
        message: String,
    },
    /// A well-typed value the model cannot hold (an unknown color, enum name,
    /// a scoped memory config other than VMEM at offset 0...).
    #[error("backend_config value at {path} is not supported: {message}")]
    Unsupported {
        /// Where.
        path: JsonPath,
        /// What is unsupported and what is accepted.
        message: String,
    },
}
