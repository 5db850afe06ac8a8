//! `cargo-speedup`: parse arguments, run the command, map the outcome to the documented exit status
//! (0 no failure, 1 failure under `--fail-on`, 2 bad usage or unusable input).

use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = cargo_speedup::cli::parse();
    match cargo_speedup::app::dispatch(cli) {
        Ok(outcome) => ExitCode::from(outcome.exit_code()),
        Err(error) => {
            cargo_speedup::app::print_error(&error);
            ExitCode::from(cargo_speedup::app::exit::USAGE)
        }
    }
}
