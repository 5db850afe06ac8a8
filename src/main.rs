//! `cargo-speedup`: parse arguments, run the command, map the outcome to the documented exit status
//! (0 no failure, 1 failure under `--fail-on`, 2 bad usage or unusable input).

use std::process::ExitCode;

fn main() -> ExitCode {
    cargo_speedup::run(std::env::args_os())
}
