//! The worker process: loads libtpu, makes the topology once, then compiles
//! the modules its parent sends until stdin closes.
//!
//! Protocol: the parent writes each module as an 8-byte little-endian length
//! followed by the bytes; the worker answers each with one JSON line
//! (`{"error": null, "stats": {...}}` or `{"error": "..."}`) on the file
//! descriptor that was its stdout. Before the first module it answers
//! `{"ready": "0.116"}` (its PJRT API version) or `{"fatal": "..."}`. Its own
//! stdout is pointed at stderr, so whatever libtpu prints cannot be mistaken
//! for an answer.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::os::fd::FromRawFd;
use std::path::Path;

use crate::pjrt::MemoryStats;
use crate::pjrt::api::Plugin;
use crate::pjrt::options::compile_options;

/// Runs the worker: `topology` (`v5e:2x2`), the number of SPMD partitions
/// and the libtpu.so path. Returns the process exit code.
pub(crate) fn run(topology: &str, devices: usize, libtpu: &Path) -> i32 {
    // SAFETY: duplicating our own stdout and pointing fd 1 at stderr; no other
    // thread exists yet that could be using either descriptor.
    let answers = unsafe {
        let fd = libc::dup(1);
        if fd < 0 || libc::dup2(2, 1) < 0 {
            return 3;
        }
        File::from_raw_fd(fd)
    };
    let mut answers = BufWriter::new(answers);
    let mut answer = |value: serde_json::Value| -> bool {
        writeln!(answers, "{value}").is_ok() && answers.flush().is_ok()
    };
    let plugin = match Plugin::load(libtpu) {
        Ok(plugin) => plugin,
        Err(message) => {
            answer(serde_json::json!({ "fatal": message }));
            return 1;
        }
    };
    let topology = match plugin.topology(topology) {
        Ok(topology) => topology,
        Err(message) => {
            answer(serde_json::json!({ "fatal": format!("topology `{topology}`: {message}") }));
            return 1;
        }
    };
    let ids = match topology.device_ids() {
        Ok(ids) if ids.len() >= devices => ids[..devices].to_vec(),
        Ok(ids) => {
            answer(serde_json::json!({ "fatal": format!(
                "--devices {devices}: the topology has {} devices", ids.len()) }));
            return 1;
        }
        Err(message) => {
            answer(serde_json::json!({ "fatal": message }));
            return 1;
        }
    };
    let options = compile_options(&ids);
    let (major, minor) = plugin.version;
    if !answer(serde_json::json!({ "ready": format!("{major}.{minor}") })) {
        return 1;
    }
    let mut stdin = std::io::stdin().lock();
    loop {
        let mut length = [0u8; 8];
        if stdin.read_exact(&mut length).is_err() {
            return 0;
        }
        let Ok(length) = usize::try_from(u64::from_le_bytes(length)) else {
            return 1;
        };
        let mut module = vec![0u8; length];
        if stdin.read_exact(&mut module).is_err() {
            return 1;
        }
        let reply = match topology.compile(&module, &options) {
            Ok(stats) => serde_json::json!({ "error": null, "stats": stats_json(&stats) }),
            Err(message) => serde_json::json!({ "error": message }),
        };
        if !answer(reply) {
            return 1;
        }
    }
}

fn stats_json(stats: &MemoryStats) -> serde_json::Value {
    serde_json::json!({
        "generated_code_size": stats.generated_code_size,
        "argument_size": stats.argument_size,
        "output_size": stats.output_size,
        "alias_size": stats.alias_size,
        "temp_size": stats.temp_size,
        "peak_memory": stats.peak_memory,
        "total_size": stats.total_size,
    })
}
