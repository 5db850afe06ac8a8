//! Building and running benchmarks at git revisions: the only module that starts processes (git, cargo,
//! benchmark executables).
//!
//! How runs start: `cargo speedup BASE..HEAD`, `race` and `record` call [`measure_revisions`],
//! [`measure_race`] and [`measure_working_tree`] (`commands.rs`), each a list of the stages below, in
//! this order.
//!
//! | stage | files | what it does |
//! |---|---|---|
//! | start | `commands`, `sides`, `lock`, `leftovers`, `interrupt` | resolves the revisions (`prepare/revision`), takes the lock of `<target>/speedup/` (`lock`; removes what a killed run left, `leftovers`; Ctrl-C stops the current child and lets the guards clean up, `interrupt`), names each side and looks its runs up in the cache (`sides`, `cache`): all sides from the cache or none |
//! | prepare | `prepare/` | for the sides not cached: checks each out in a detached worktree under `<target>/speedup/worktrees/` (`git`), gives it the reference tree's package versions (`versions`), rewrites its bench files' own `measurement_time`, `warm_up_time` and `sample_size` to the per-run settings unless kept, and tells their cost (`bench_settings`; a working tree that has them is built from a copy, `tree_copy`), reads its bench targets from `cargo metadata` and which the build leaves out and why (`targets`), builds it with one shared cargo target directory (`build`, each target alone when the build of all fails; `toolchain` for `--toolchain`), lists the benchmarks of a built executable (`listing`), sets aside the targets BASE and HEAD built identical (`identical`, `elf`), and links each executable again in several layouts (`layout`); `participants` runs these steps in order and hands the run stage one `participant` per side |
//! | run | `run/` | a scheduler and a runner, apart: the scheduler draws the order of the runs from the seed in randomized interleaved blocks (`schedule`), narrows them to the benchmarks still open (`selection`), stops and leaves out a target whose process fails at one side only (`failures`), and hands the runs one turn (a target in a block) at a time to a `Runner` (`runner`, the seam where a new way to run plugs in); the real one, `processes`, starts each executable directly with its own `CRITERION_HOME`, through its harness, criterion, divan or libtest `#[bench]` (`harness`), under `--pin` on one CPU core (`affinity`); `--measure instructions` runs each benchmark under Valgrind's callgrind instead, one run per side (`valgrind/`, another runner), and `--measure time,instructions` runs the times, then the counts, on the same builds (`commands`: each part cached under its own key); between looks the analysis is asked which benchmarks are still open and only those run, within `--budget` (`looks`) |
//! | read | `read`, `harness`, `run/collect` | reads what each run saved (through the runner) into one [`Results`](crate::model::Results) per revision, each run kept apart (`docs/replication.md`) |
//! | finish | `commands`, `cache`, `environment` | stores the runs in the cache, keyed by everything that determines them (`cache`), and records the environment fingerprint (`environment`) |
//!
//! Shared by the stages: the options of the runs (`settings`, built by `plan::run_options`, which also
//! computes the runs before the first look; `commands` hands each stage the part it uses, `build`,
//! `prepare`, `looks`, `per_run`, and only the cache key and the fingerprint, which record every setting,
//! read them whole), the project and its paths (`project`), child processes (`process`), progress on
//! stderr (`progress`), the errors (`error`). `path` lists a first-parent path for `bisect`; `cargo
//! speedup clean` is `leftovers`.
//!
//! Must not: write outside `<target>/speedup/` (the user's working tree, index, branches, stash and
//! `target/criterion` stay byte-identical), analyse or decide anything (that is `protocol`, asked
//! between looks through `run::looks::Decide` and `DecideRace`; the first look is the plan's), or print anything
//! but progress and status lines on stderr.

mod cache;
mod commands;
mod environment;
mod error;
mod git;
mod harness;
mod interrupt;
mod leftovers;
mod lock;
mod path;
mod prepare;
mod process;
mod progress;
mod project;
mod read;
mod run;
mod settings;
mod sides;
mod toolchain;
mod valgrind;

pub(crate) use commands::{measure_race, measure_revisions, measure_working_tree};
pub(crate) use error::MeasureError;
pub(crate) use harness::Harness;
pub(crate) use leftovers::clean;
pub(crate) use path::{FirstParentPath, first_parent_path};
pub(crate) use prepare::layout::MAX_LAYOUTS;
pub(crate) use project::{bench_package_dirs, criterion_home};
#[cfg(test)]
pub(crate) use settings::Part;
pub(crate) use settings::{
    DEFAULT_MAX_FACTOR, DEFAULT_MAX_LAYOUTS, DEFAULT_MEASUREMENT_SECS, DEFAULT_RUNS,
    DEFAULT_SAMPLE_SIZE, DEFAULT_WARM_UP_SECS, DIVAN_MEASUREMENT_SECS, DIVAN_WARM_UP_SECS, Measure,
    RunOptions,
};
