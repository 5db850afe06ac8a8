//! The [`Runner`] of `--measure instructions`: each benchmark of a run under Valgrind's callgrind, with
//! the dumps of the method (`docs/instruction-counts.md` §2), its instructions per iteration read back as a
//! count (a [`Unit::Count`](crate::model::Unit::Count) of instructions), one value per run, compared exactly
//! (`docs/verdicts.md` §7).
//!
//! - criterion (0.4 to 0.8): one process per benchmark, `--bench --profile-time 1 ^NAME$`, a dump after
//!   each return from `Bencher::iter`, `iter_custom`, `iter_batched` or `iter_batched_ref` (`criterion`),
//!   and a note for a benchmark whose count holds its `iter_batched` setup;
//! - divan (0.1): two processes per bench target, `--bench --sample-count 4 --sample-size N --exact NAME...`
//!   at N = 100 and 200 with every selected benchmark, a dump before each entry to `sync_impl`, each
//!   benchmark's dumps told apart by the order divan runs them in (`divan`); when that order cannot be
//!   read or a process does not give every benchmark's dumps, two processes per benchmark, so that the one
//!   that fails or has not the harness's shape is named alone.
//!
//! An exact count's run also carries its [`Profile`]: the routine's functions with their inclusive
//! instructions per iteration, from the largest batches' two dumps (criterion's last doubling, divan's last
//! sample at both sizes), read by `functions` (`docs/instruction-counts.md` §6). With `--keep-profiles DIR`
//! each benchmark's dump files are copied to `DIR/<revision>/<target>/<benchmark>/` under names made safe,
//! never over a file. With `--cache-sim` callgrind also simulates the caches (`--cache-sim=yes`), and with
//! it or `--count-allocations` an exact count's benchmark gains the counts `events` reads beside it
//! (`docs/instruction-counts.md` §8), each compared only when exact.
//!
//! Each process has its own `CRITERION_HOME` and writes its dumps under the run's directory,
//! `<target>/speedup/runs/<slug>/run-<block + 1>/callgrind/`, never in the user's files, and is stopped
//! after [`LIMIT`]. A benchmark that fails or is stopped under Valgrind, or whose estimates disagree (its
//! count depends on the time, a seed or the heap), is left out with the reason and the rest compared; a
//! target whose harness has no boundary to dump at (libtest, criterion before 0.4) stops the comparison:
//! its counts are never replaced by times.
//!
//! Must not: choose, order or skip runs (the scheduler does), or decide anything.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

use super::callgrind::{self, Dump};
use super::criterion as criterion_dumps;
use super::divan::{self, SAMPLES as DIVAN_SAMPLES, SIZES as DIVAN_SIZES};
use super::estimate::{self, Estimate};
use super::events::{self as extra_events, Extra, Extras};
use super::functions;
use crate::measure::harness::Harness;
use crate::measure::prepare::bench_settings::RunLength;
use crate::measure::prepare::build::BenchBinary;
use crate::measure::prepare::criterion_version::{before_0_4, criterion_versions, lock_file};
use crate::measure::prepare::listing;
use crate::measure::prepare::participant::Participant;
use crate::measure::run::processes::home;
use crate::measure::run::runner::{RunError, Runner, Start};
use crate::measure::{MeasureError, process};
use crate::model::coverage::{LeftOut, Reason};
use crate::model::{Benchmark, Profile, Results, Run, Runs, Sample};
use crate::sources::events;

/// The longest a benchmark's process may run under Valgrind before it is stopped and left out.
pub(crate) const LIMIT: Duration = Duration::from_secs(60);

/// Starts each benchmark under callgrind and keeps what its dumps give per run.
#[derive(Debug)]
pub(crate) struct ValgrindRunner {
    /// `<target>/speedup/runs`: each participant's runs under its slug.
    runs_dir: PathBuf,
    /// `--filter`: the user's filter on benchmark names.
    filter: Option<String>,
    /// What each participant's run of each block counted, by slug and block.
    counted: Mutex<BTreeMap<(String, u32), Results>>,
    /// `--keep-profiles DIR`: where each benchmark's callgrind files are copied.
    keep_profiles: Option<PathBuf>,
    /// `--cache-sim`, `--count-allocations`: the counts taken beside instructions.
    extras: Extras,
}

impl ValgrindRunner {
    /// The runner of the runs under `runs_dir`, of the benchmarks `filter` selects, copying each
    /// benchmark's callgrind files under `keep_profiles` when given, and taking the counts `extras` asks
    /// beside instructions.
    pub(crate) fn new(
        runs_dir: PathBuf,
        filter: Option<String>,
        keep_profiles: Option<PathBuf>,
        extras: Extras,
    ) -> ValgrindRunner {
        ValgrindRunner {
            runs_dir,
            filter,
            counted: Mutex::new(BTreeMap::new()),
            keep_profiles,
            extras,
        }
    }

    fn counted(&self) -> std::sync::MutexGuard<'_, BTreeMap<(String, u32), Results>> {
        self.counted
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Valgrind's version line (`valgrind-3.19.0`), or why `valgrind --version` did not run.
pub(crate) fn valgrind_version() -> Result<String, MeasureError> {
    let mut command = Command::new("valgrind");
    command.arg("--version");
    let missing = |detail: String| MeasureError::ValgrindMissing { detail };
    let out = process::capture(&mut command).map_err(|e| match e {
        MeasureError::Spawn { error, .. } => missing(error.to_string()),
        other => other,
    })?;
    if !out.status.success() {
        return Err(missing(format!("it exited with {}", out.status)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

impl Runner for ValgrindRunner {
    fn list(
        &self,
        binary: &BenchBinary,
        filter: Option<&str>,
        label: &str,
    ) -> Result<Vec<String>, MeasureError> {
        listing::list(binary, filter, label)
    }

    fn start_one(&self, start: &Start<'_>) -> Result<(), RunError> {
        let binary = start.binary;
        let label = &start.participant.label;
        countable(binary, label)?;
        let filter = start.filter.as_deref().or(self.filter.as_deref());
        let names = listing::list(binary, filter, label)?;
        let run_home = home(&self.runs_dir, &start.participant.slug, start.block);
        let mut results = Results {
            origin: run_home.display().to_string(),
            benchmarks: vec![],
            environment: Default::default(),
            notes: vec![],
            left_out: vec![],
        };
        let mut found_boundaries = names.is_empty();
        // The benchmarks whose count beside instructions is zero per iteration, which no ratio compares.
        let mut zeros = std::collections::BTreeSet::new();
        let target_dir = run_home.join("callgrind").join(&binary.target);
        let executable = binary.layout_for(start.block);
        let measured = count_all(
            binary,
            executable,
            &run_home,
            &target_dir,
            &names,
            self.extras,
        )?;
        for (name, measured) in names.iter().zip(measured) {
            let Measured {
                counted,
                files,
                counts_setup,
            } = measured;
            let dir = target_dir.clone();
            if let Some(kept) = &self.keep_profiles {
                let revision = format!("{}-{}", start.participant.slug, start.participant.origin);
                let to = kept
                    .join(safe_name(&revision))
                    .join(safe_name(&binary.target));
                keep_profile(&files, &unused(&to, &safe_name(name)))?;
            }
            let metric = instructions().benchmark_name(name);
            found_boundaries |= !matches!(
                counted,
                Counted::Estimated(Estimate::NoBoundaries { .. }, ..)
            );
            if counts_setup && matches!(counted, Counted::Estimated(Estimate::Exact { .. }, ..)) {
                results.notes.push(setup_counted(&metric));
            }
            match counted {
                Counted::Estimated(Estimate::Exact { per_iteration, .. }, profile, beside) => {
                    let unit = events::EVENTS[0].unit();
                    let sample = Sample::new(vec![per_iteration as f64], unit).map_err(|e| {
                        MeasureError::Read {
                            path: dir.clone(),
                            detail: e.to_string(),
                        }
                    })?;
                    let run = Run::new(sample, None);
                    let run = match profile {
                        Some(profile) => run.with_profile(profile),
                        None => run,
                    };
                    let runs = Runs::new(vec![run]).map_err(|e| MeasureError::Read {
                        path: dir.clone(),
                        detail: e.to_string(),
                    })?;
                    results.benchmarks.push(Benchmark {
                        name: metric,
                        runs,
                        unit,
                        counters: vec![],
                    });
                    for (extra, estimate) in beside {
                        count_beside(name, extra, estimate, &dir, &mut results, &mut zeros)?;
                    }
                }
                Counted::Estimated(Estimate::NotExact { low, high }, ..) => {
                    let detail = format!(
                        "not exact: its estimates of instructions per iteration range from {low} to \
                         {high}; its count depends on time, a seed or the heap"
                    );
                    results.left_out.push(LeftOut::benchmark(
                        metric,
                        None,
                        Reason::NoValue { detail },
                    ));
                }
                Counted::Estimated(Estimate::NoBoundaries { dumps }, ..) => {
                    let detail = no_boundaries(binary.harness, dumps);
                    results.left_out.push(LeftOut::benchmark(
                        metric,
                        None,
                        Reason::NoValue { detail },
                    ));
                }
                Counted::TimedOut => {
                    let detail = format!(
                        "stopped after {} s under Valgrind, its limit per process",
                        LIMIT.as_secs()
                    );
                    results.left_out.push(LeftOut::benchmark(
                        metric,
                        None,
                        Reason::NoValue { detail },
                    ));
                }
                Counted::Failed { code, message } => {
                    results.left_out.push(LeftOut::benchmark(
                        metric,
                        None,
                        Reason::Failed {
                            failed: 1,
                            runs: 1,
                            exit_codes: vec![code],
                            message,
                        },
                    ));
                }
            }
        }
        if !found_boundaries {
            return Err(RunError::Fatal(MeasureError::NotCountable {
                revision: label.clone(),
                target: binary.target.clone(),
                harness: binary.harness.name(),
                why: "callgrind found no iteration boundary in any of its benchmarks (`Bencher::iter*` \
                      for criterion, `sync_impl` for divan): its harness's version is not one the method \
                      was measured on"
                    .to_string(),
            }));
        }
        let key = (start.participant.slug.clone(), start.block);
        let mut counted = self.counted();
        let kept = counted.entry(key).or_insert_with(|| Results {
            origin: results.origin.clone(),
            benchmarks: vec![],
            environment: Default::default(),
            notes: vec![],
            left_out: vec![],
        });
        kept.benchmarks.extend(results.benchmarks);
        kept.left_out.extend(results.left_out);
        kept.notes.extend(results.notes);
        kept.notes
            .extend(crate::sources::events::zero_counts_note(label, &zeros));
        Ok(())
    }

    fn read(&self, participant: &Participant, block: u32) -> Result<Results, MeasureError> {
        let key = (participant.slug.clone(), block);
        Ok(self
            .counted()
            .get(&key)
            .cloned()
            .unwrap_or_else(|| Results {
                origin: home(&self.runs_dir, &participant.slug, block)
                    .display()
                    .to_string(),
                benchmarks: vec![],
                environment: Default::default(),
                notes: vec![],
                left_out: vec![],
            }))
    }

    fn lengths(&self, _participant: &Participant, _block: u32) -> Vec<RunLength> {
        vec![]
    }

    fn clear(&self, participants: &[Participant]) -> Result<(), MeasureError> {
        for p in participants {
            let dir = self.runs_dir.join(&p.slug);
            if dir.exists() {
                std::fs::remove_dir_all(&dir)
                    .map_err(MeasureError::io("clearing an earlier run", &dir))?;
            }
        }
        Ok(())
    }
}

/// What Valgrind made of one benchmark.
#[derive(Debug)]
enum Counted {
    /// Its processes ended; what their dumps give, where an exact count's instructions are spent (`None`
    /// when not exact, or when the dumps could not be read function by function), and the estimates of the
    /// counts asked beside instructions (`extra_events`).
    Estimated(Estimate, Option<Profile>, Vec<(Extra, Estimate)>),
    /// A process ran past [`LIMIT`] and was stopped.
    TimedOut,
    /// A process failed: its exit code (`None`: a signal) and the first lines of its standard error.
    Failed { code: Option<i32>, message: String },
}

/// The note of a count that holds its benchmark's setup (`metric`: its name in the report).
fn setup_counted(metric: &str) -> String {
    format!(
        "{metric}: the count includes the setup of criterion's `iter_batched` (also `iter_batched_ref`, \
         `iter_with_setup`, `iter_with_large_drop`), run once per iteration outside the timed routine, and \
         the drop of each input or output; a change of the setup changes the count \
         (docs/instruction-counts.md §4)"
    )
}

/// Why a benchmark whose process wrote `dumps` dumps, too few or not in its harness's shape, was not
/// counted. criterion's process writes one dump, at its end, when its filter `^NAME$` selected no
/// benchmark: its `--list` shows a name holding a line break by its last line only, which then names
/// none.
fn no_boundaries(harness: Harness, dumps: usize) -> String {
    match harness {
        Harness::Criterion if dumps <= 1 => "criterion ran no benchmark by this name, so nothing was \
            counted: a name holding a line break is listed by criterion's `--list` as its last line only, \
            which names no benchmark"
            .to_string(),
        _ => format!(
            "no iteration boundaries under callgrind ({dumps} dumps, not the shape {} gives)",
            harness.name()
        ),
    }
}

/// The unit's description of an instruction count.
fn instructions() -> &'static crate::model::Counted {
    &events::EVENTS[0].counted
}

/// Refuses a target whose harness the method cannot drive: libtest `#[bench]` (no boundary to dump at,
/// and nightly only), criterion before 0.4 as its lock file gives it.
fn countable(binary: &BenchBinary, label: &str) -> Result<(), RunError> {
    let refuse = |why: String| {
        RunError::Fatal(MeasureError::NotCountable {
            revision: label.to_string(),
            target: binary.target.clone(),
            harness: binary.harness.name(),
            why,
        })
    };
    match binary.harness {
        Harness::Libtest => Err(refuse(
            "libtest's `#[bench]` has no function around its batches of iterations that callgrind can \
             dump at"
                .to_string(),
        )),
        Harness::Divan => Ok(()),
        Harness::Criterion => {
            let versions = lock_file(&binary.package_dir)
                .map(|text| criterion_versions(&text))
                .unwrap_or_default();
            match versions.iter().find(|v| !before_0_4(v)) {
                None if !versions.is_empty() => Err(refuse(format!(
                    "it uses criterion {}, whose profiling mode has no `Bencher::iter*` boundary the \
                     method was measured on (criterion 0.4 to 0.8)",
                    versions.join(", ")
                ))),
                _ => Ok(()),
            }
        }
    }
}

/// What Valgrind made of one benchmark, and its callgrind files (each with the folder it is kept under by
/// `--keep-profiles`: divan's size, `n100` or `n200`, or none).
#[derive(Debug)]
struct Measured {
    counted: Counted,
    files: Vec<(Option<String>, PathBuf)>,
    /// Whether its count holds the setup of criterion's `iter_batched*` with the routine (its dumps follow
    /// that method, `criterion::counts_setup`).
    counts_setup: bool,
}

/// Counts each of `names` (a bench target's benchmarks, as listed) of `binary` (its `executable`), in that
/// order, with its dumps under `dir/<index>/` (or, divan's benchmarks counted together, `dir/all/`).
///
/// divan's benchmarks run together, one process per size (`divan`), when divan's list gives their order
/// and both processes end well with every benchmark's dumps; else, and for criterion, each benchmark runs
/// in its own processes, so that one that fails, runs past [`LIMIT`] or has not the harness's shape (a
/// divan benchmark with several thread counts) is named alone and the others counted.
fn count_all(
    binary: &BenchBinary,
    executable: &Path,
    run_home: &Path,
    dir: &Path,
    names: &[String],
    extras: Extras,
) -> Result<Vec<Measured>, RunError> {
    if binary.harness == Harness::Divan
        && names.len() > 1
        && let Some(together) = count_divan_together(
            binary,
            executable,
            run_home,
            &dir.join("all"),
            names,
            extras,
        )?
    {
        return Ok(together);
    }
    let mut measured = Vec::with_capacity(names.len());
    for (index, name) in names.iter().enumerate() {
        let dir = dir.join(index.to_string());
        let (counted, counts_setup) = count(binary, executable, run_home, &dir, name, extras)?;
        measured.push(Measured {
            counted,
            files: files_under(&dir),
            counts_setup,
        });
    }
    Ok(measured)
}

/// divan's benchmarks `names` counted together: the order divan runs them in from its `--list` tree, then
/// one process per size running all of them (each allowed [`LIMIT`] per benchmark), each benchmark's
/// estimate and profile from its window of the two processes' dumps (`divan::window`). `None` when the
/// order cannot be read, a process does not end well, or its dumps are not `divan::dumps_of` the
/// benchmarks: the benchmarks are then counted one by one.
fn count_divan_together(
    binary: &BenchBinary,
    executable: &Path,
    run_home: &Path,
    dir: &Path,
    names: &[String],
    extras: Extras,
) -> Result<Option<Vec<Measured>>, RunError> {
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut command = Command::new(executable);
    command
        .args(divan::list_args(&names))
        .current_dir(&binary.package_dir)
        .env("CARGO_MANIFEST_DIR", &binary.package_dir);
    let out = process::capture(&mut command)?;
    if !out.status.success() {
        return Ok(None);
    }
    let Some(order) = divan::run_order(&String::from_utf8_lossy(&out.stdout), &names) else {
        return Ok(None);
    };
    let ordered: Vec<&str> = order.iter().map(String::as_str).collect();
    let limit = LIMIT.saturating_mul(u32::try_from(names.len()).unwrap_or(u32::MAX));
    let mut at: Vec<(String, Written)> = Vec::new();
    for size in [DIVAN_SIZES.0, DIVAN_SIZES.1] {
        let folder = format!("n{size}");
        let args = divan::run_args(size, &ordered);
        let dump = [divan::DUMP.to_string()];
        let how = Callgrind {
            dumps: &dump,
            limit,
            extras,
        };
        match callgrind_totals(binary, executable, run_home, &dir.join(&folder), &args, how)? {
            Ok(written) if written.totals.len() == divan::dumps_of(names.len()) => {
                at.push((folder, written))
            }
            _ => return Ok(None),
        }
    }
    let (low, high) = (&at[0].1, &at[1].1);
    let mut by_name: BTreeMap<&str, Measured> = BTreeMap::new();
    for (k, name) in ordered.iter().enumerate() {
        let window = divan::window(k);
        let estimate = estimate::divan(
            DIVAN_SAMPLES,
            (DIVAN_SIZES.0, &low.totals[window.clone()]),
            (DIVAN_SIZES.1, &high.totals[window.clone()]),
        );
        let profile = divan_profile(
            &estimate,
            &low.files[window.clone()],
            &high.files[window.clone()],
        );
        let beside = extra_events::divan(
            &extras.asked(),
            DIVAN_SAMPLES,
            (DIVAN_SIZES.0, &low.extras[window.clone()]),
            (DIVAN_SIZES.1, &high.extras[window.clone()]),
        );
        // The benchmark's own dumps: its loops and the gaps after them.
        let files = at
            .iter()
            .flat_map(|(folder, written)| {
                written.files[window.start + 1..window.end]
                    .iter()
                    .map(|f| (Some(folder.clone()), f.clone()))
            })
            .collect();
        by_name.insert(
            name,
            Measured {
                counted: Counted::Estimated(estimate, profile, beside),
                files,
                counts_setup: false,
            },
        );
    }
    Ok(names
        .iter()
        .map(|name| by_name.remove(name))
        .collect::<Option<Vec<Measured>>>())
}

/// divan's profile from one benchmark's dumps at each size (its window: the dump before its first loop,
/// then each sample's loop and the gap after it): the last sample's loops, of `SIZES.1 − SIZES.0`
/// iterations apart, when the count is exact.
fn divan_profile(estimate: &Estimate, low: &[PathBuf], high: &[PathBuf]) -> Option<Profile> {
    let last_loop = 2 * DIVAN_SAMPLES - 1;
    match (estimate, low.get(last_loop), high.get(last_loop)) {
        (Estimate::Exact { .. }, Some(low), Some(high)) => {
            profile_between(low, high, DIVAN_SIZES.1 - DIVAN_SIZES.0)
        }
        _ => None,
    }
}

/// Runs benchmark `name` of `binary` (its `executable`) under callgrind as its harness needs, each process
/// with `run_home` as its `CRITERION_HOME` and its dumps under `dir`, and estimates its instructions per
/// iteration, the counts `extras` asks beside them, and whether that count holds the benchmark's setup
/// (criterion's `iter_batched*`).
fn count(
    binary: &BenchBinary,
    executable: &Path,
    run_home: &Path,
    dir: &Path,
    name: &str,
    extras: Extras,
) -> Result<(Counted, bool), RunError> {
    match binary.harness {
        Harness::Criterion | Harness::Libtest => {
            let args = vec![
                "--bench".to_string(),
                "--profile-time".to_string(),
                "1".to_string(),
                Harness::Criterion.exact(&[&name.to_string()]),
            ];
            let dumps = criterion_dumps::dump_options();
            let how = Callgrind {
                dumps: &dumps,
                limit: LIMIT,
                extras,
            };
            Ok(
                match callgrind_totals(binary, executable, run_home, dir, &args, how)? {
                    Ok(written) => {
                        let estimate = estimate::criterion(&written.totals);
                        let profile = match estimate {
                            Estimate::Exact { .. } => criterion_profile(&written.files),
                            _ => None,
                        };
                        // Call 1's dump names the method every call of the benchmark returns from.
                        let counts_setup = written
                            .files
                            .first()
                            .and_then(|f| std::fs::read_to_string(f).ok())
                            .is_some_and(|text| {
                                criterion_dumps::boundary(&text)
                                    .is_some_and(criterion_dumps::counts_setup)
                            });
                        let beside = extra_events::criterion(&extras.asked(), &written.extras);
                        (Counted::Estimated(estimate, profile, beside), counts_setup)
                    }
                    Err(counted) => (counted, false),
                },
            )
        }
        Harness::Divan => {
            let mut at: Vec<Written> = Vec::new();
            for size in [DIVAN_SIZES.0, DIVAN_SIZES.1] {
                let args = divan::run_args(size, &[name]);
                let dir = dir.join(format!("n{size}"));
                let dump = [divan::DUMP.to_string()];
                let how = Callgrind {
                    dumps: &dump,
                    limit: LIMIT,
                    extras,
                };
                match callgrind_totals(binary, executable, run_home, &dir, &args, how)? {
                    Ok(written) => at.push(written),
                    Err(counted) => return Ok((counted, false)),
                }
            }
            let estimate = estimate::divan(
                DIVAN_SAMPLES,
                (DIVAN_SIZES.0, &at[0].totals),
                (DIVAN_SIZES.1, &at[1].totals),
            );
            let profile = divan_profile(&estimate, &at[0].files, &at[1].files);
            let beside = extra_events::divan(
                &extras.asked(),
                DIVAN_SAMPLES,
                (DIVAN_SIZES.0, &at[0].extras),
                (DIVAN_SIZES.1, &at[1].extras),
            );
            Ok((Counted::Estimated(estimate, profile, beside), false))
        }
    }
}

/// criterion's profile from a process's dump files in order (call j's is the j-th, the program's end the
/// last): the last doubling's, calls − 1 against calls − 2, of 2^(calls − 2) iterations, the largest batch
/// the process ran; `None` with fewer calls than an estimate needs.
fn criterion_profile(files: &[PathBuf]) -> Option<Profile> {
    let calls = files.len().checked_sub(1)?;
    if calls < 4 || calls - 2 >= 63 {
        return None;
    }
    profile_between(&files[calls - 2], &files[calls - 1], 1 << (calls - 2))
}

/// The routine's functions per iteration from two dumps whose batches differ by `iterations`
/// (`functions::per_iteration`); `None` when a file cannot be read as a call graph (the count stands
/// without it).
fn profile_between(before: &Path, after: &Path, iterations: u64) -> Option<Profile> {
    let read = |path: &Path| {
        let text = std::fs::read_to_string(path).ok()?;
        functions::read_call_graph(&text).ok()
    };
    let (before, after) = (read(before)?, read(after)?);
    Some(Profile::new(functions::per_iteration(
        &before.routine(),
        &after.routine(),
        iterations,
    )))
}

/// One process's dumps, in the order written: each one's instruction total, its file, and its counts
/// beside instructions (in the order of [`Extras::asked`]).
#[derive(Debug)]
struct Written {
    totals: Vec<u64>,
    files: Vec<PathBuf>,
    extras: Vec<Vec<u64>>,
}

/// How one process runs under callgrind: its dump options, the time it may take, and the counts asked
/// beside instructions (which may add Valgrind options, `--cache-sim=yes`).
#[derive(Debug, Clone, Copy)]
struct Callgrind<'a> {
    dumps: &'a [String],
    limit: Duration,
    extras: Extras,
}

/// One process of `executable` with `args` under callgrind as `how` says (its dump options, what its
/// extras need), its dumps written under `dir` (emptied first), stopped after its limit: its dumps in
/// order, or how it did not end well.
fn callgrind_totals(
    binary: &BenchBinary,
    executable: &Path,
    run_home: &Path,
    dir: &Path,
    args: &[String],
    how: Callgrind<'_>,
) -> Result<Result<Written, Counted>, RunError> {
    let Callgrind {
        dumps,
        limit,
        extras,
    } = how;
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(MeasureError::io("keeping callgrind's dumps", dir))?;
    let mut command = Command::new("valgrind");
    command
        .arg("--tool=callgrind")
        .arg(format!(
            "--callgrind-out-file={}",
            dir.join("out.%p").display()
        ))
        .args(dumps)
        .args(extras.valgrind_args())
        .arg(executable)
        .args(args)
        .current_dir(&binary.package_dir)
        .env("CRITERION_HOME", run_home)
        .env("CARGO_MANIFEST_DIR", &binary.package_dir);
    let Some(out) = process::capture_within(&mut command, limit)? else {
        return Ok(Err(Counted::TimedOut));
    };
    if !out.status.success() {
        let stderr = out.stderr_text();
        let message = process::first_lines(&stderr, |line| {
            line.contains("panicked")
                || line.contains("error")
                || line.contains("Process terminating")
        });
        return Ok(Err(Counted::Failed {
            code: out.status.code(),
            message,
        }));
    }
    let mut dumps: Vec<Dump> = Vec::new();
    let mut files: Vec<PathBuf> = Vec::new();
    let mut beside: Vec<Vec<u64>> = Vec::new();
    let entries =
        std::fs::read_dir(dir).map_err(MeasureError::io("reading callgrind's dumps", dir))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if !entry.file_name().to_string_lossy().starts_with("out.") {
            continue;
        }
        let text = std::fs::read_to_string(&path)
            .map_err(MeasureError::io("reading a callgrind dump", &path))?;
        let dump = callgrind::read_dump(&text).map_err(|detail| MeasureError::Read {
            path: path.clone(),
            detail,
        })?;
        let counts = extras
            .read(&dump, &text)
            .map_err(|detail| MeasureError::Read {
                path: path.clone(),
                detail,
            })?;
        dumps.push(dump);
        files.push(path);
        beside.push(counts);
    }
    let order = callgrind::main_process(&dumps);
    Ok(Ok(Written {
        totals: order.iter().map(|&i| dumps[i].instructions).collect(),
        files: order.iter().map(|&i| files[i].clone()).collect(),
        extras: order.iter().map(|&i| beside[i].clone()).collect(),
    }))
}

/// Benchmark `name`'s count `extra` beside its exact instructions (`docs/instruction-counts.md` §8), from
/// its `estimate` of the dumps under `dir`, into `results`: an exact count the benchmark `NAME (L1
/// misses)`, `NAME (LL misses)` or `NAME (allocations)`, one value, compared exactly as instructions are; a
/// count of zero per iteration into `zeros` (no ratio compares it; the run's note names them); one whose
/// estimates differ left out with their range, never compared as if exact.
fn count_beside(
    name: &str,
    extra: Extra,
    estimate: Estimate,
    dir: &Path,
    results: &mut Results,
    zeros: &mut std::collections::BTreeSet<String>,
) -> Result<(), MeasureError> {
    let event = extra.event();
    let metric = event.counted.benchmark_name(name);
    let detail = match estimate {
        Estimate::Exact {
            per_iteration: 0, ..
        } => {
            zeros.insert(metric);
            return Ok(());
        }
        Estimate::Exact { per_iteration, .. } => {
            let unit = event.unit();
            let read = |e: String| MeasureError::Read {
                path: dir.to_path_buf(),
                detail: e,
            };
            let sample =
                Sample::new(vec![per_iteration as f64], unit).map_err(|e| read(e.to_string()))?;
            let runs = Runs::new(vec![Run::new(sample, None)]).map_err(|e| read(e.to_string()))?;
            results.benchmarks.push(Benchmark {
                name: metric,
                runs,
                unit,
                counters: vec![],
            });
            return Ok(());
        }
        Estimate::NotExact { low, high } => format!(
            "not exact: its estimates of {} per iteration range from {low} to {high}; the count depends \
             on the state its iterations leave (the caches, the heap) or on time",
            event.counted.name
        ),
        Estimate::NoBoundaries { dumps } => {
            format!("no iteration boundaries under callgrind ({dumps} dumps)")
        }
    };
    results
        .left_out
        .push(LeftOut::benchmark(metric, None, Reason::NoValue { detail }));
    Ok(())
}

/// `text` as one safe file name: letters, digits, `.`, `-` and `_` kept, each run of other characters one
/// `_` (none at the end), at most 100 bytes, never empty nor starting with a dot (no `.`, `..` or hidden
/// file): `main (1a2b3c4d5e)` is `main_1a2b3c4d5e`.
fn safe_name(text: &str) -> String {
    let mut name = String::new();
    for c in text.chars() {
        match c {
            c if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') => name.push(c),
            _ if name.ends_with('_') => {}
            _ => name.push('_'),
        }
    }
    let mut name: String = name.trim_end_matches('_').chars().take(100).collect();
    if name.is_empty() || name.starts_with('.') {
        name.insert(0, '_');
    }
    name
}

/// `dir/name`, or `dir/name-2`, `-3`, ... when two benchmarks' names are made the same.
fn unused(dir: &Path, name: &str) -> PathBuf {
    let mut path = dir.join(name);
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{name}-{n}"));
        n += 1;
    }
    path
}

/// The callgrind files under `dir` (a benchmark's own processes': divan's two in `n100/` and `n200/`), each
/// with the folder it is in below `dir`, if any.
fn files_under(dir: &Path) -> Vec<(Option<String>, PathBuf)> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return files;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            files.extend(
                files_under(&path)
                    .into_iter()
                    .map(|(_, f)| (Some(name.clone()), f)),
            );
        } else if name.starts_with("out.") {
            files.push((None, path));
        }
    }
    files
}

/// Copies a benchmark's callgrind `files` to `to` (each under its folder, made safe), each `out.PID[.PART]`
/// as `callgrind.out.PID[.PART]` (the names KCachegrind lists); never over an existing file.
fn keep_profile(files: &[(Option<String>, PathBuf)], to: &Path) -> Result<(), MeasureError> {
    for (folder, path) in files {
        let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
            continue;
        };
        let dir = match folder {
            Some(folder) => to.join(safe_name(folder)),
            None => to.to_path_buf(),
        };
        std::fs::create_dir_all(&dir)
            .map_err(MeasureError::io("keeping callgrind's files", &dir))?;
        let target = dir.join(format!("callgrind.{name}"));
        if !target.exists() {
            std::fs::copy(path, &target)
                .map_err(MeasureError::io("keeping callgrind's files", &target))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_criterion_process_that_ran_no_benchmark_says_so() {
        assert!(
            no_boundaries(Harness::Criterion, 1)
                .starts_with("criterion ran no benchmark by this name"),
            "{}",
            no_boundaries(Harness::Criterion, 1)
        );
        assert_eq!(
            no_boundaries(Harness::Criterion, 3),
            "no iteration boundaries under callgrind (3 dumps, not the shape criterion gives)"
        );
        assert_eq!(
            no_boundaries(Harness::Divan, 1),
            "no iteration boundaries under callgrind (1 dumps, not the shape divan gives)"
        );
    }

    #[test]
    fn profiles_are_kept_under_safe_names_never_over_a_file() {
        assert_eq!(safe_name("a/b c::<d>"), "a_b_c_d");
        assert_eq!(safe_name("base-main (1a2b3c4d5e)"), "base-main_1a2b3c4d5e");
        assert_eq!(safe_name(".."), "_..");
        assert_eq!(safe_name(""), "_");
        assert_eq!(safe_name(&"x".repeat(300)).len(), 100);
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("dumps");
        std::fs::create_dir_all(from.join("n100")).unwrap();
        std::fs::write(from.join("out.7.1"), "one").unwrap();
        std::fs::write(from.join("n100").join("out.8"), "two").unwrap();
        std::fs::write(from.join("other"), "not a dump").unwrap();
        let kept = dir.path().join("kept");
        let to = unused(&kept, "bench");
        keep_profile(&files_under(&from), &to).unwrap();
        assert_eq!(
            std::fs::read_to_string(to.join("callgrind.out.7.1")).unwrap(),
            "one"
        );
        assert_eq!(
            std::fs::read_to_string(to.join("n100").join("callgrind.out.8")).unwrap(),
            "two"
        );
        assert!(!to.join("callgrind.other").exists() && !to.join("other").exists());
        // A second benchmark made the same name goes beside it.
        assert_eq!(unused(&kept, "bench"), kept.join("bench-2"));
        std::fs::write(from.join("out.7.1"), "changed").unwrap();
        keep_profile(&files_under(&from), &to).unwrap();
        assert_eq!(
            std::fs::read_to_string(to.join("callgrind.out.7.1")).unwrap(),
            "one"
        );
    }
}
