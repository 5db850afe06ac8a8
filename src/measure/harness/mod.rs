//! The bench harnesses a bench target may use, behind one seam: how to list a target's benchmarks, how to
//! start one process run with a filter and the requested length, and how to read that run's values. Every
//! harness yields, per run of a bench executable, one [`crate::model::Run`] per benchmark, so that all that
//! follows (layouts, identical executables, looks, race, record, cache, reports) is the same for all:
//!
//! - criterion: the run's samples, read from the baseline it saves under the run's `CRITERION_HOME`;
//! - divan: the median of the run's samples, read from the tree it prints (`crate::sources::divan`, the
//!   one parser of that tree, which `compare` uses too, so that both name a benchmark by divan's own `::`
//!   path), since divan prints no samples and has no machine-readable output; its counters are kept;
//! - libtest `#[bench]` (nightly): its `ns/iter`, read from the lines it prints (`libtest`).
//!
//! What a harness prints on stdout is kept beside the run's criterion home as `<target>.<harness>.txt`, and
//! read back from there, so that a run's directory holds everything read of it.
//!
//! Detection, per bench target (`detect`): the target's source names its harness (`criterion_main!`,
//! `divan::main()`, `#[bench]`); when it names none or several, the package's dependencies decide
//! (criterion only, or divan only); else the target is refused with a message saying what was expected.
//! `--harness` forces one for every target. Decisions the specs leave open, here and in
//! `docs/replication.md`: a divan run's value is its median (the most robust of the four statistics it
//! prints); a libtest run's is its `ns/iter` (libtest's median of its samples).
//!
//! The files: `kinds` (the harnesses and their arguments), `per_run` (what a process start needs), `detect`, `output` (reading a run's printed
//! values), `libtest` (its lines).
//!
//! Must not: start processes (that is `run::processes`), or know how a value is analysed.

mod detect;
mod kinds;
mod libtest;
mod output;
mod per_run;

pub(crate) use detect::{detect, needs_nightly};
pub(crate) use kinds::Harness;
pub(crate) use output::{read_file, read_output};
pub(crate) use per_run::{PerRun, to_whole_seconds};

#[cfg(test)]
mod tests;
