//! The running options, validated once: what to build (package, bench targets, features) and how to run
//! it (criterion's filter and per-run times, the number of process runs, the seed of their order).
//!
//! Defaults (`docs/replication.md` §3): many short runs rather than a few long ones, because the level of a
//! benchmark moves more from one process to the next than the samples inside one process vary; only runs
//! average that movement out (Kalibera & Jones, ISMM 2013: repeat at the level where the variance is).
//! 10 runs per revision let the median protocol reach 0.99 and HPT's per-benchmark rank-sum test reject at
//! 0.05. Each run warms up 0.1 s and measures 0.2 s in 10 samples (criterion's minimum; the run's value is
//! their median): a race's first look (6 runs per side) costs a benchmark 2 x 6 x 0.3 s = 3.6 s and its cap
//! (24) 14.4 s, where two plain `cargo bench` runs spend 16 s on it with criterion's 3 s + 5 s. Longer runs
//! narrow the spread of a run's value little, because what moves is the process's level, and they make
//! every run dearer: `docs/replication.md` §3 gives the calibration figures both ways (0.3 s + 0.5 s was
//! the default before).
//!
//! Each stage takes what it uses, not the whole options (as ripgrep's `HiArgs` builds matchers and
//! printers): [`RunOptions::build`] (what building needs), [`RunOptions::prepare`] (the prepare stage),
//! [`RunOptions::looks`] (what scheduling the runs needs) and [`RunOptions::per_run`] (what a process start
//! needs). The cache key and the fingerprint, which record every setting, read the options whole.
//!
//! Must not: start or read anything (it only holds what `plan` checked).

use std::path::PathBuf;
use std::time::Duration;

use super::harness::PerRun;
use crate::partition::Partition;
use crate::protocol::sequential::LookPlan;

/// Process runs per revision of a fixed plan (`--fixed`, `record`) when `--runs` is not given.
pub(crate) const DEFAULT_RUNS: u32 = 10;
/// `--max-runs` is this many times `--runs` when not given: looks at n, 2n and 4n.
pub(crate) const DEFAULT_MAX_FACTOR: u32 = 4;
/// criterion `--warm-up-time` per run when not given.
pub(crate) const DEFAULT_WARM_UP_SECS: f64 = 0.1;
/// criterion `--measurement-time` per run when not given.
pub(crate) const DEFAULT_MEASUREMENT_SECS: f64 = 0.2;
/// divan's warm-up per run (the part of its `--max-time` beyond `--min-time`) when `--warm-up-time` is
/// not given. divan's runs are shorter than criterion's: a run's value is the median of its samples, and
/// at 0.05 s its spread between processes is what it is at 0.2 s (bytesize 2.7.0, `calibrate/spread.sh`:
/// 3.4 % against 3.3 %, at a third of the wall time; `docs/replication.md` §6).
pub(crate) const DIVAN_WARM_UP_SECS: f64 = 0.02;
/// divan's `--min-time` per run when `--measurement-time` is not given (see [`DIVAN_WARM_UP_SECS`]).
pub(crate) const DIVAN_MEASUREMENT_SECS: f64 = 0.05;
/// criterion `--sample-size` per run when not given: criterion's minimum.
pub(crate) const DEFAULT_SAMPLE_SIZE: u32 = 10;
/// The most layouts a bench executable gets by default: one per run up to this many, then the runs go
/// round-robin over them. Each layout is a copy of the executable on disk; linking one costs about 0.1 s
/// (`layout`).
pub(crate) const DEFAULT_MAX_LAYOUTS: u32 = 20;

/// Validated running options, built by `plan::run_options` from the command line.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RunOptions {
    /// `--manifest-path`; `None`: the one cargo finds from the current directory.
    pub manifest_path: Option<PathBuf>,
    /// `-p/--package`: the package whose bench targets run; `None`: cargo's default for the manifest.
    pub package: Option<String>,
    /// `--bench`: the bench targets to run; empty runs them all.
    pub benches: Vec<String>,
    /// `--features`, passed to `cargo bench` as given.
    pub features: Option<String>,
    /// `--all-features`, passed to `cargo bench` (never with `features`, as cargo takes them).
    pub all_features: bool,
    /// `--filter`: criterion's filter on benchmark names; `None` runs every benchmark.
    pub filter: Option<String>,
    /// `--partition`: only this part of the benchmarks runs (`crate::partition`).
    pub partition: Option<Partition>,
    /// Process runs per revision at the first look (all of them for a fixed plan), >= 2.
    pub runs: u32,
    /// When to look at the runs and decide (`protocol::sequential`); one look for a fixed plan.
    pub look_plan: LookPlan,
    /// `--budget`: the time the whole comparison may take.
    pub budget: Option<Duration>,
    /// The seed of the blocks' order.
    pub seed: u64,
    /// The seed as given by `--seed`, if it was.
    pub given_seed: Option<u64>,
    /// criterion `--warm-up-time` per run, in seconds.
    pub warm_up_secs: f64,
    /// criterion `--measurement-time` per run, in seconds.
    pub measurement_secs: f64,
    /// divan's warm-up and measurement per run, in seconds: `--warm-up-time` and `--measurement-time`
    /// when given, else [`DIVAN_WARM_UP_SECS`] and [`DIVAN_MEASUREMENT_SECS`].
    pub divan_secs: (f64, f64),
    /// criterion `--sample-size` per run (default 10, criterion's minimum): each run's value is the median of these.
    pub sample_size: u32,
    /// Linked layouts per bench executable (`docs/replication.md` §4), in 1..=runs; 1 runs the executable
    /// as built only (`--layouts fixed`).
    pub layouts: u32,
    /// `--rerun`: measure again even when cached results of a revision exist.
    pub rerun: bool,
    /// Measure even the bench targets whose executables BASE and HEAD share byte for byte.
    pub run_identical: bool,
    /// `--keep-bench-settings`: build the bench files as they are, their own `measurement_time`,
    /// `warm_up_time` and `sample_size` overriding the per-run settings above; by default these calls are
    /// rewritten to the per-run settings in the tool's copies of the revisions (`bench_settings`).
    pub keep_bench_settings: bool,
    /// `--keep-runs`: leave each run's harness output in `<target>/speedup/runs/` after the comparison;
    /// by default it is removed once the results are read (`run::looks`). Results never depend on it.
    pub keep_runs: bool,
    /// `--keep-profiles DIR`: with `--measure instructions`, each benchmark's callgrind files are copied
    /// under DIR (`<revision>/<target>/<benchmark>/callgrind.out.*`), which `plan` checked is new or empty
    /// (`docs/instruction-counts.md` §6).
    pub keep_profiles: Option<std::path::PathBuf>,
    /// `--cache-sim`: with `--measure instructions`, callgrind simulates the caches and each benchmark's L1
    /// and last-level misses per iteration are counts beside its instructions (`docs/instruction-counts.md`
    /// §8); off by default.
    pub cache_sim: bool,
    /// `--count-allocations`: with `--measure instructions`, each benchmark's calls to the Rust allocator
    /// per iteration are a count beside its instructions (`docs/instruction-counts.md` §8); off by default.
    pub count_allocations: bool,
    /// `--pin`: each process run is pinned to one CPU core, the same for all (`affinity`); off by default
    /// (`docs/replication.md` §6).
    pub pin: bool,
    /// `--duet`: the runs of each block start together, each on a core of its own (`run::duet`); off by
    /// default (`docs/replication.md` §7).
    pub duet: bool,
    /// `--harness`: run every bench target as this harness instead of the one detected
    /// (`harness::detect`).
    pub harness: Option<super::Harness>,
    /// `--toolchain`: the rustup toolchain the revisions are built with; `None`: the one running.
    pub toolchain: Option<String>,
    /// `--quiet`: print nothing on standard error but errors (no progress).
    pub quiet: bool,
    /// `--measure`: what a run measures, times or instruction counts.
    pub measure: Measure,
}

/// `--measure`: what the runs measure (`docs/instruction-counts.md` §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Measure {
    /// Times, each benchmark's process runs through its harness (the default).
    #[default]
    Time,
    /// Instructions per iteration under Valgrind's callgrind, exact counts: one run per side.
    Instructions,
    /// Both in one comparison: the times' runs as for [`Measure::Time`], then each side's benchmarks
    /// counted once as for [`Measure::Instructions`], on the same builds; each part is cached under its own
    /// key ([`RunOptions::part`]).
    TimeAndInstructions,
}

impl Measure {
    /// Its name, as `--measure` takes it and the cache key and the fingerprint record it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Measure::Time => "time",
            Measure::Instructions => "instructions",
            Measure::TimeAndInstructions => "time,instructions",
        }
    }

    /// Whether instructions are counted (alone or beside times): Valgrind is needed, and the fingerprint
    /// records what a count depends on.
    pub(crate) fn counts(self) -> bool {
        self != Measure::Time
    }
}

/// One part of what the runs measure: the times, or the counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    /// The times' runs.
    Time,
    /// The counts, one run per side.
    Instructions,
}

impl RunOptions {
    /// The parts these options measure, times first.
    pub(crate) fn parts(&self) -> &'static [Part] {
        match self.measure {
            Measure::Time => &[Part::Time],
            Measure::Instructions => &[Part::Instructions],
            Measure::TimeAndInstructions => &[Part::Time, Part::Instructions],
        }
    }

    /// The options of one part of `--measure time,instructions`, as `--measure time` or `--measure
    /// instructions` with the same other options would have them (so that each part's cache key is theirs,
    /// and each reuses their runs): the times keep the plan of runs, layouts and `--duet`; the counts run
    /// once per side in one layout, alone. Options of one part are returned as they are.
    pub(crate) fn part(&self, part: Part) -> RunOptions {
        match (self.measure, part) {
            (Measure::TimeAndInstructions, Part::Time) => RunOptions {
                measure: Measure::Time,
                ..self.clone()
            },
            (Measure::TimeAndInstructions, Part::Instructions) => RunOptions {
                measure: Measure::Instructions,
                runs: 1,
                look_plan: LookPlan::single_run(),
                layouts: 1,
                duet: false,
                keep_profiles: None,
                // The budget bounds the times' looks; the counts, one run per side, come after them
                // whatever is left of it.
                budget: None,
                ..self.clone()
            },
            _ => self.clone(),
        }
    }

    /// What the runs do with the bench files' own settings, as the cache key and the fingerprint record
    /// it: `kept`, or `rewritten` to the per-run settings.
    pub(crate) fn bench_settings_key(&self) -> &'static str {
        match self.keep_bench_settings {
            true => "kept",
            false => "rewritten",
        }
    }

    /// What building a revision needs (`prepare::build`, `prepare::targets`).
    pub(crate) fn build(&self) -> BuildSettings<'_> {
        BuildSettings {
            package: self.package.as_deref(),
            benches: &self.benches,
            features: self.features.as_deref(),
            all_features: self.all_features,
            harness: self.harness,
        }
    }

    /// What the prepare stage needs after the builds (`prepare::participants`).
    pub(crate) fn prepare(&self) -> PrepareSettings<'_> {
        PrepareSettings {
            build: self.build(),
            filter: self.filter.as_deref(),
            partition: self.partition,
            run_identical: self.run_identical,
            layouts: LayoutSettings {
                layouts: self.layouts,
                seed: self.seed,
            },
        }
    }

    /// What scheduling the runs needs (`run::looks`).
    pub(crate) fn looks(&self) -> LookSettings<'_> {
        LookSettings {
            look_plan: &self.look_plan,
            runs: self.runs,
            budget: self.budget,
            seed: self.seed,
            filter: self.filter.as_deref(),
            keep_runs: self.keep_runs,
            warm_up_secs: self.warm_up_secs,
            measurement_secs: self.measurement_secs,
        }
    }

    /// What starting one process run needs (`harness::Harness::run_args`).
    pub(crate) fn per_run(&self) -> PerRun {
        PerRun {
            filter: self.filter.clone(),
            warm_up_secs: self.warm_up_secs,
            measurement_secs: self.measurement_secs,
            divan_secs: self.divan_secs,
            sample_size: self.sample_size,
        }
    }
}

/// What building a revision needs: which package, bench targets and features cargo builds, and the
/// harness forced on every target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BuildSettings<'a> {
    /// `-p/--package`; `None`: cargo's default for the manifest.
    pub package: Option<&'a str>,
    /// `--bench`, each a target name; empty: all.
    pub benches: &'a [String],
    /// `--features`, as given to cargo.
    pub features: Option<&'a str>,
    /// `--all-features`.
    pub all_features: bool,
    /// `--harness`: every target run as this harness; `None`: the one detected.
    pub harness: Option<super::Harness>,
}

/// How many layouts each executable is linked in, and the seed their section orders are drawn from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LayoutSettings {
    /// Linked layouts per bench executable (`docs/replication.md` §4); 1 keeps the executable as built.
    pub layouts: u32,
    /// The comparison's seed.
    pub seed: u64,
}

/// What the prepare stage needs: the build, the benchmarks it lists (the user's filter, `--partition`),
/// whether identical executables run, and the layouts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PrepareSettings<'a> {
    pub build: BuildSettings<'a>,
    /// `--filter`: criterion's filter on benchmark names.
    pub filter: Option<&'a str>,
    /// `--partition`: only this part of the benchmarks runs.
    pub partition: Option<Partition>,
    /// `--run-identical`: run even the targets BASE and HEAD built byte for byte alike.
    pub run_identical: bool,
    pub layouts: LayoutSettings,
}

/// What scheduling the runs needs: the looks, the budget, the seed of the blocks' order, the user's
/// filter (for listing the benchmarks), whether the runs' outputs are kept.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LookSettings<'a> {
    /// When to look at the runs and decide; one look for a fixed plan.
    pub look_plan: &'a LookPlan,
    /// Process runs per revision at the first look (all of them for a fixed plan).
    pub runs: u32,
    /// `--budget`: the time the whole comparison may take.
    pub budget: Option<Duration>,
    /// The seed of the blocks' order.
    pub seed: u64,
    /// `--filter`: criterion's filter on benchmark names.
    pub filter: Option<&'a str>,
    /// `--keep-runs`: leave each run's harness output in `<target>/speedup/runs/`.
    pub keep_runs: bool,
    /// The requested length of one run of one benchmark: warm-up, and measurement, in seconds.
    pub warm_up_secs: f64,
    pub measurement_secs: f64,
}

impl LookSettings<'_> {
    /// The requested length of one run of one benchmark, warm-up and measurement, in seconds.
    pub(crate) fn run_secs(&self) -> f64 {
        self.warm_up_secs + self.measurement_secs
    }
}
