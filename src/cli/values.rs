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

/// `--timeout`: a number of seconds above 0 and below 1e9.
pub fn parse_timeout(text: &str) -> Result<Duration, String> {
    number(text)
        .filter(|s| s.is_finite() && *s > 0.0 && *s < MAX_TIMEOUT_SECONDS)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| {
            format!("`{text}` is not a timeout: give a number of seconds above 0 and below 1e9 (e.g. 60 or 0.5)")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_in_range_only() {
        assert_eq!(parse_tolerance("1e-6"), Ok(1e-6));
        assert_eq!(parse_tolerance("0"), Ok(0.0));
        for bad in ["-1", "NaN", "inf", "x"] {
            assert!(parse_tolerance(bad).is_err(), "{bad}");
            assert!(parse_gib(bad).is_err(), "{bad}");
            assert!(parse_timeout(bad).is_err(), "{bad}");
        }
        assert!(parse_gib("0").is_err());
        assert_eq!(parse_timeout("0.5"), Ok(Duration::from_millis(500)));
        assert!(parse_timeout("18446744073709551615").is_err());
        assert_eq!(parse_count("3"), Ok(3));
        assert!(parse_count("0").is_err());
    }
}
