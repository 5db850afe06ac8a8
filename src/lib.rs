//! cargo-speedup tells, with a stated confidence, whether a change made Rust code faster or slower.
//!
//! The pipeline is the module list:
//!
//! ```text
//! sources ─┐
//!          ├─> model ──> protocol (on a pure stats core) ──> report ──> verdict / exit code
//! measure ─┘
//! ```
//!
//! - `sources` reads existing results (criterion, hyperfine, Go, JSON) into [`model::Results`];
//!   `measure` produces them by building and running git revisions: how runs start is
//!   `measure/commands.rs`, then the stages `measure/prepare/` (checkout, build, layouts), `measure/run/`
//!   (blocks and looks) and `measure/read.rs` (its module doc is the map).
//! - [`model`] holds validated samples and pairs BASE with HEAD.
//! - [`stats`] is pure mathematics (one test per file, checked against R); [`protocol`] takes the
//!   decisions of the Speedup-Test (paper 000) and of HPT (paper 003) and yields one
//!   [`protocol::Analysis`].
//! - `simulation` replays the protocol's decisions on values drawn from a known truth and counts its
//!   errors (`cargo speedup simulate` and the tests of the error rates).
//! - `report` renders an analysis as a table, JSON, Markdown, CSV or an HTML page.
//! - `app` runs one command as a list of these stages; `cli` and `plan` parse and validate options.
//! - `inert` (crate-private, a leaf every writer uses) makes text from the input inert at each sink it is
//!   written to: the terminal and CI logs, Markdown, HTML, CSV (`docs/security.md`).
//!
//! The layers, from the bottom: [`stats`] and the small helpers (`inert`, `atomic_write`, `parallel`,
//! `partition`, `suggest`); [`model`]; `sources`; [`protocol`]; `simulation`;
//! `report`; `measure` (which calls the protocol between looks); `cli`; `plan`; `app`. A file
//! names modules of its own layer or lower ones only, and no two files import each other, directly or
//! through others (the crate's `module_graph_tests.rs` checks both).
//!
//! Where to change what:
//!
//! | to change | look in |
//! |---|---|
//! | a statistical test (its algorithm, its R oracle) | `stats/<test>.rs`, one test per file; its R script in `fixtures/r/`, its oracle in `fixtures/oracle/` |
//! | a decision (the mean and median protocols, HPT, equivalence, the gate, when to stop) | `protocol/`: its `mod.rs` lists the files; the output types are `protocol/outcome.rs` |
//! | the per-benchmark table (terminal, Markdown, HTML, CSV) | `report/columns.rs`: every table's columns and cells; each renderer keeps only its markup |
//! | the words of a warning, a hint or the gate's reasons | `report/words/`: the protocols return causes with their numbers, and only this module words them |
//! | what a comparison did not compare (a bench target that needs a feature, a skipped or failed benchmark) | [`model::coverage`] (the data: readers and `measure` fill it), `report/words/coverage.rs` (its words), `protocol/gate.rs` (`account`: what fails the gate) |
//! | how runs start (checkout, build, layouts, the blocks of runs, the looks) | `measure/mod.rs`'s table of stages; the commands in `measure/commands.rs` |
//! | a new way to run a benchmark (BASE and HEAD at the same time) | `measure/run/runner.rs`: another implementation of its `Runner` trait; the scheduling code has no branch on how runs start |
//! | instruction counts (`--measure instructions`) | `measure/valgrind/`: the callgrind dumps read (`callgrind.rs`), function by function (`functions.rs`), the per-iteration estimate and its exactness (`estimate.rs`), criterion's dump options and `iter_batched` (`criterion.rs`), divan's processes of several benchmarks (`divan.rs`), the counts beside instructions, cache misses and allocations (`events.rs`), the `Runner` that starts each benchmark under Valgrind (`runner.rs`); `docs/instruction-counts.md` |
//! | the GitHub Action's gate (whether a pull request's job fails) | `protocol/gate.rs` decides it, as for the command; `action.yml` passes the inputs (`fail-on`, `threshold`) to `action/compare.sh`, which runs the binary, exits with its status (0 passed, 1 failed, 2 unusable input) and turns the JSON's `gate.reasons` into annotations (`action/workflow-commands.jq`); a matrix's parts never gate, their merge does |
//! | an option of the command line | `cli.rs` (the flags), `plan.rs` (checked and built once into the options every stage reads) |
//! | how a command runs | `app/`, one file per command |
//!
//! The tests follow one convention (`CONTRIBUTING.md`): a file's unit tests are its child module
//! `tests`, inline or in `<module>/tests.rs`; tests of a whole folder are a `*_tests.rs` child of its
//! `mod.rs`; data shared by several modules' tests is in `testutil`.
//!
//! The library exists for the binary and the benchmarks: its public surface is [`run`] (the binary's
//! `main`), [`html_page`], and the analysis core, [`model`], [`stats`] and [`protocol`], which `benches/`
//! time as the binary runs them. Every other module is private to the crate, so the dead-code lint sees
//! every item the product does not use.
//!
//! The methods, the decisions taken where the sources are silent or wrong, and the input and output
//! formats are described in the repository's `docs/` directory (`docs/README.md` is the index). Code
//! comments cite its pages as `docs/<page>.md §n`, and the papers by number:
//!
//! | paper | citation | used for |
//! |---|---|---|
//! | 000 | S.-A.-A. Touati, J. Worms, S. Briais, *The Speedup Test*, technical report, HAL inria-00443839v2, 2010 | the mean and median protocols, G and S, the proportion of accelerated benchmarks, `speeduptest` |
//! | 001 | J. Worms, S. Touati, *Parametric and Non-Parametric Statistics for Program Performance Analysis and Comparison*, INRIA RR-8875, 2016 | P\[HEAD run faster\]; Gaussian mixtures, modes and the multimodal warning |
//! | 002 | H. Leather, M. O'Boyle, B. Worton, *Raced Profiles: Efficient Selection of Competing Compiler Optimizations*, LCTES 2009 | sequential sampling: run until decided, races of several revisions |
//! | 003 | T. Chen, Q. Guo, O. Temam, Y. Wu, Y. Bao, Z. Xu, Y. Chen, *Statistical Performance Comparisons of Computers*, IEEE Trans. Computers 64(5), 2015 | HPT and the r-speedup |
//! | 004 | S.-A.-A. Touati, *Towards a Statistical Methodology to Evaluate Program Speedups and their Optimisation Techniques*, HAL hal-00356529, 2009 | background; superseded by 000 |

#![deny(missing_docs)]

mod app;
mod atomic_write;
mod cli;
mod inert;
mod measure;
pub mod model;
mod parallel;
mod partition;
mod plan;
pub mod protocol;
mod report;
mod simulation;
mod sources;
pub mod stats;
mod suggest;

pub use report::html::page as html_page;

/// Runs the command line `args` (the first is the program name) as the `cargo-speedup` binary does:
/// parses it (clap prints `--help` and usage errors and exits), runs the command, prints an error with
/// its hint, and returns the documented exit status (0 no failure, 1 failure under `--fail-on`, 2 bad
/// usage or unusable input).
pub fn run<I, T>(args: I) -> std::process::ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString>,
{
    match app::dispatch(cli::parse_from(args)) {
        Ok(outcome) => std::process::ExitCode::from(outcome.exit_code()),
        Err(error) => {
            app::print_error(&error);
            std::process::ExitCode::from(app::exit::USAGE)
        }
    }
}

#[cfg(test)]
mod module_graph_tests;
#[cfg(test)]
mod purity_tests;
#[cfg(test)]
mod testutil;
