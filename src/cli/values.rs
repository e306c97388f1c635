//! Parsers of the numeric flag values (`value_parser`s): every value finite
//! and in range, or a usage error (exit 2) that clap prefixes with the flag
//! (`invalid value 'NaN' for '--rtol <RTOL>': ...`).

use std::time::Duration;

/// The longest `--timeout` (seconds), as for `TPU_CUSTOM_CALL_COMPILE_TIMEOUT`.
const MAX_TIMEOUT_SECONDS: f64 = 1e9;

fn number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok()
}

/// `--rtol` / `--atol`: a finite number, at least 0.
pub fn parse_tolerance(text: &str) -> Result<f64, String> {
    number(text)
        .filter(|t| t.is_finite() && *t >= 0.0)
        .ok_or_else(|| {
            format!("`{text}` is not a tolerance: give a finite number of at least 0 (e.g. 1e-6)")
        })
}

/// `--max-memory`: a finite number of GiB above 0.
pub fn parse_gib(text: &str) -> Result<f64, String> {
    number(text)
        .filter(|g| g.is_finite() && *g > 0.0 && *g <= 1e9)
        .ok_or_else(|| {
            format!("`{text}` is not an amount of memory: give a number of GiB above 0 (e.g. 4 or 0.5), at most 1e9")
        })
}

/// `--timeout`: a positive number of seconds below 1e9.
pub fn parse_timeout(text: &str) -> Result<Duration, String> {
    number(text)
        .filter(|s| s.is_finite() && *s > 0.0 && *s < MAX_TIMEOUT_SECONDS)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| {
            format!("`{text}` is not a timeout: give a positive number of seconds below 1e9 (e.g. 60 or 0.5)")
        })
}

/// A count of at least 1 (`--repeat`, `--jobs`).
pub fn parse_count(text: &str) -> Result<usize, String> {
    text.trim()
        .parse::<usize>()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(|| format!("`{text}` is not a count: give a whole number of at least 1"))
}
