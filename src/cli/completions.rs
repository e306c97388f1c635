//! `tpu-custom-call completions SHELL`: shell completion script on stdout.

use clap::CommandFactory;
use clap_complete::Shell;

use super::{Cli, CliResult};

/// Arguments of `completions`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
tpu-custom-call completions bash > ~/.local/share/bash-completion/completions/tpu-custom-call\n  \
tpu-custom-call completions zsh > ~/.zfunc/_tpu-custom-call")]
pub struct Args {
    /// The shell: bash, zsh, fish, elvish or powershell.
    pub shell: Shell,
}

/// Runs `completions`.
pub fn run(args: Args) -> CliResult {
    let mut command = Cli::command();
    clap_complete::generate(
        args.shell,
        &mut command,
        "tpu-custom-call",
        &mut std::io::stdout(),
    );
    Ok(())
}
