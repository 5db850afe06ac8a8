//! One function per command; each reads as a list of stage calls. Only this module sees every stage, and
//! only it writes to standard output (`clippy::print_stdout` is denied elsewhere, `Cargo.toml`).
#![allow(clippy::print_stdout)]

mod bisect;
mod clean;
mod compare;
mod merge;
mod output;
mod race;
mod record;
mod revisions;
mod simulate;
mod speeduptest_sh;

use anyhow::Result;

use crate::cli::{Command, SpeedupCli};

pub(crate) use compare::{Sides, analyse_and_report};
pub(crate) use output::{
    Input, Output, check_outputs, is_stdout, manifest, print_error, write_atomically, write_to,
};

/// What a command ended with, mapped to the exit status by `main`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Exit 0.
    Passed,
    /// Exit 1: the gate failed under `--fail-on`.
    GateFailed,
}

/// The exit statuses, which are API (`docs/usage.md` §7).
pub(crate) mod exit {
    /// No failure.
    pub(crate) const PASS: u8 = 0;
    /// The gate failed under `--fail-on`.
    pub(crate) const GATE_FAILED: u8 = 1;
    /// Bad usage or unusable input.
    pub(crate) const USAGE: u8 = 2;
}

impl Outcome {
    /// The process's exit status for this outcome (`docs/usage.md` §7).
    pub(crate) fn exit_code(self) -> u8 {
        match self {
            Outcome::Passed => exit::PASS,
            Outcome::GateFailed => exit::GATE_FAILED,
        }
    }
}

/// Hands the command line to the command the user asked for.
pub(crate) fn dispatch(cli: SpeedupCli) -> Result<Outcome> {
    match cli.command {
        Some(Command::Compare(args)) => compare::compare(&args),
        Some(Command::Record(args)) => record::record(&args),
        Some(Command::Speeduptest(args)) => speeduptest_sh::speeduptest(&args),
        Some(Command::Simulate(args)) => simulate::simulate(&args),
        Some(Command::Race(args)) => race::race_revisions(&args),
        Some(Command::Bisect(args)) => bisect::bisect(&args),
        Some(Command::Merge(args)) => merge::merge(&args),
        Some(Command::Clean(args)) => clean::clean(&args),
        None => revisions::compare_revisions(
            cli.revisions.as_deref(),
            cli.measure.as_deref(),
            &cli.run,
            &cli.analysis,
        ),
    }
}
