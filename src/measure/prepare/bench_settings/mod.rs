//! Bench files that set their own run length, and how a comparison stays cheap anyway
//! (`docs/replication.md` §3, "Bench files that set their own times").
//!
//! criterion lets a benchmark group's `measurement_time`, `warm_up_time` and `sample_size` override the
//! command line, so a bench file that sets them (base64's sets 0.5 s + 3 s) turns each of cargo speedup's
//! 0.1 s + 0.2 s runs into a run of the file's length. This module
//!
//! - finds those calls in the sources of every bench target of a tree (the target's file from `cargo
//!   metadata` and the files of its `mod NAME;` declarations, `#[path]` included, inside the tree), with
//!   their file, line and literal value (`scan`; the calls themselves in `calls`, on a lexer that skips
//!   comments and strings: `lexer`);
//! - unless `--keep-bench-settings`, rewrites their arguments to the requested values in the tool's own
//!   trees, identically on every side: a committed revision's worktree is rewritten in place, and a working
//!   tree that takes part and has such calls is copied first (`tree_copy`) and the copy is built (the user's
//!   files are never written). A working tree outside git (`record` only, one side) keeps its settings
//!   (`trees`);
//! - measures what each run really measured (`length`) and tells, once per comparison, what the settings
//!   cost and what the choices are (`tell`, worded by `report/words/bench_settings.rs`); the projected cost
//!   is shown before the first look when it exceeds the budget or plain `cargo bench` runs.
//!
//! Must not: write outside a tree the tool owns, or word anything itself (the report shows its notes as
//! warnings of the inputs).

mod calls;
mod length;
mod lexer;
mod scan;
mod tell;
mod trees;

pub(crate) use length::{RunLength, read_run};
pub(crate) use tell::RunPlan;
pub(crate) use trees::BenchSettings;
