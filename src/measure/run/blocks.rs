//! Running the benchmark executables of one, two or several (a race) revisions in randomized interleaved
//! blocks, and keeping each process run apart.
//!
//! Design (`docs/replication.md` §3; randomized multiple interleaved trials, Abedi & Brecht, ICPE 2017):
//! block b (counted from 0) runs every bench target once per revision, the revisions of each target in an
//! order drawn at random for that block from the seed ([`schedule`]), so that drift of the machine (heating, a
//! background job winding down) weighs on both revisions alike and no fixed order favours one. Each run is
//! one process with its own `CRITERION_HOME` under `<target>/speedup/runs/`, never the user's; what it saved
//! becomes one [`Run`] of each benchmark it ran: the runs are never pooled into one sample.
//! When a revision was linked in several layouts, block b runs layout b mod L.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::measure::harness::{self, Harness};
use crate::measure::prepare::bench_settings;
use crate::measure::prepare::build::BenchBinary;
use crate::measure::progress::Progress;
use crate::measure::{MeasureError, process, read};
use crate::model::coverage::{Granularity, LeftOut, Reason};
use crate::model::{Benchmark, Results, Run, Runs};
use crate::stats::random::SplitMix64;

/// The baseline name criterion saves each run under.
pub(crate) const BASELINE: &str = "speedup";

/// One revision to run: its name for messages, its directory under `runs/`, its executables.
#[derive(Debug, Clone)]
pub(crate) struct Participant {
    /// For progress and errors (`BASE (main, 1a2b3c4d5e)`).
    pub label: String,
    /// The pooled results' origin (`main (1a2b3c4d5e)`).
    pub origin: String,
    /// Its directory name under `runs/` (`base`, `head`, `r001`...).
    pub slug: String,
    pub binaries: Vec<BenchBinary>,
}

/// One run of one executable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ScheduledRun {
    pub block: u32,
    pub participant: usize,
    pub binary: usize,
}

/// Shuffles `items` uniformly (Fisher-Yates) with the crate's seeded generator ([`SplitMix64`], kept in this
/// crate because the printed seed must give the same order with every version of the dependencies, which
/// general-purpose generators do not promise).
fn shuffle<T>(rng: &mut SplitMix64, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i + 1);
        items.swap(i, j);
    }
}

/// The order of every run: `blocks` blocks, each running every target once per revision that has it, the
/// revisions of each target in a random order drawn from `seed` (a target of one revision only runs alone).
pub(crate) fn schedule(blocks: u32, participants: &[Participant], seed: u64) -> Vec<ScheduledRun> {
    let mut targets: Vec<&str> = Vec::new();
    for p in participants {
        for b in &p.binaries {
            if !targets.contains(&b.target.as_str()) {
                targets.push(&b.target);
            }
        }
    }
    let mut rng = SplitMix64::new(seed);
    let mut steps = Vec::new();
    for block in 0..blocks {
        for target in &targets {
            let mut who: Vec<usize> = (0..participants.len()).collect();
            shuffle(&mut rng, &mut who);
            for participant in who {
                let binaries = &participants[participant].binaries;
                for (binary, _) in binaries
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| b.target == *target)
                {
                    steps.push(ScheduledRun {
                        block,
                        participant,
                        binary,
                    });
                }
            }
        }
    }
    steps
}

/// Removes what earlier runs left in `runs_dir` for these participants.
pub(crate) fn clear(runs_dir: &Path, participants: &[Participant]) -> Result<(), MeasureError> {
    for p in participants {
        let dir = runs_dir.join(&p.slug);
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(|source| MeasureError::Io {
                what: "clearing an earlier run",
                path: dir.clone(),
                error: source,
            })?;
        }
    }
    Ok(())
}

/// Which benchmarks the next blocks run: all that the user's filter selects, or only the ones still open
/// for each participant, through criterion's filter narrowed to their exact names per bench target (a
/// target with none open does not run).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RunSelection<'a> {
    /// `None`: every benchmark; else the open ones of each participant, in the participants' order.
    pub open: Option<&'a [Vec<String>]>,
    /// The benchmarks of each bench target, as criterion lists them.
    pub by_target: &'a [(String, Vec<String>)],
    /// Under `--partition`: a target not in `by_target` has nothing of the part and does not run.
    pub partitioned: bool,
}

impl RunSelection<'_> {
    /// criterion's filter for `participant`'s `target`: `Some(None)` keeps the user's, `Some(Some(regex))`
    /// narrows it to the open benchmarks, `None` when the target has nothing to run.
    fn filter(&self, participant: usize, target: &str, harness: Harness) -> Option<Option<String>> {
        let Some(all) = self.open else {
            return Some(None);
        };
        let open = all.get(participant).map_or(&[][..], Vec::as_slice);
        let listed: Vec<&String> = self
            .by_target
            .iter()
            .filter(|(t, _)| t == target)
            .flat_map(|(_, names)| names)
            .collect();
        // A target whose benchmarks could not be listed (a harness that does not answer criterion's
        // `--list`) cannot be narrowed: it keeps running under the user's filter.
        if listed.is_empty() {
            return (!self.partitioned).then_some(None);
        }
        let names: Vec<&String> = listed
            .into_iter()
            .filter(|n| open.iter().any(|o| harness.listed_name(o) == **n))
            .collect();
        (!names.is_empty()).then(|| Some(harness.exact(&names)))
    }
}

/// The most lines kept of a failed benchmark's message.
const FIRST_LINES: usize = 12;

/// One bench target whose process failed (a panic, a signal) at one participant.
#[derive(Debug)]
struct Failure {
    participant: usize,
    target: String,
    /// Runs of it started at that participant, the failed one included.
    runs: usize,
    exit_codes: Vec<Option<i32>>,
    /// The first lines of its standard error.
    message: String,
    /// Its benchmarks as the participants list them: taken out of every side's results.
    benchmarks: Vec<String>,
}

/// The bench targets whose process failed at some participants while the others ran them: they stop
/// running (at the participant that failed at once, at the others once they have run them since), their
/// benchmarks are taken out of every side's results, and each is left out at the side that failed
/// ([`Reason::Failed`]), so that one benchmark that panics at HEAD leaves the rest to compare. A target that
/// fails at every participant, or at the only one (`record`), is the error of its last failure, as before.
#[derive(Debug, Default)]
pub(crate) struct Failures {
    failed: Vec<Failure>,
    /// (participant, target): how many runs of it have started and succeeded.
    started: std::collections::HashMap<(usize, String), (usize, usize)>,
}

impl Failures {
    /// Whether `participant` still runs `target`.
    fn runs(&self, participants: usize, participant: usize, target: &str) -> bool {
        let failed: Vec<&Failure> = self.failed.iter().filter(|f| f.target == target).collect();
        if failed.is_empty() {
            return true;
        }
        if failed.iter().any(|f| f.participant == participant) {
            return false;
        }
        // Run once more where it has not failed, to tell a target that fails everywhere from one that
        // fails at one side; then no more.
        let since = |p: usize| {
            self.started
                .get(&(p, target.to_string()))
                .map_or(0, |&(_, ok)| ok)
        };
        !(0..participants)
            .filter(|p| !failed.iter().any(|f| f.participant == *p))
            .all(|p| since(p) > 0)
    }

    fn started(&mut self, participant: usize, target: &str, ok: bool) {
        let counts = self
            .started
            .entry((participant, target.to_string()))
            .or_default();
        counts.0 += 1;
        counts.1 += usize::from(ok);
    }

    /// Takes the failed targets' benchmarks out of `results` (in the participants' order) and leaves each
    /// target out at the participant it failed at.
    pub(crate) fn apply(&self, results: &mut [Results]) {
        for failure in &self.failed {
            for r in results.iter_mut() {
                r.benchmarks
                    .retain(|b| !failure.benchmarks.contains(&b.name));
                r.left_out.retain(|l| {
                    l.granularity == Granularity::Target || !failure.benchmarks.contains(&l.name)
                });
            }
            if let Some(r) = results.get_mut(failure.participant) {
                r.left_out.push(LeftOut::target(
                    &failure.target,
                    None,
                    Reason::Failed {
                        failed: 1,
                        runs: failure.runs,
                        exit_codes: failure.exit_codes.clone(),
                        message: failure.message.clone(),
                    },
                ));
            }
        }
    }
}

/// Runs blocks `blocks` of the schedule drawn from `seed` (the same order whatever range is asked), with
/// `selection`'s benchmarks; `of` is the most blocks the plan may run, for progress; `pin`: the CPU core
/// every run is pinned to (`affinity`), `None` leaves them free.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_blocks(
    runs_dir: &Path,
    participants: &[Participant],
    blocks: std::ops::Range<u32>,
    of: u32,
    seed: u64,
    args: &dyn Fn(Harness, Option<String>) -> Vec<String>,
    selection: RunSelection<'_>,
    pin: Option<usize>,
    progress: &Progress,
    failures: &mut Failures,
) -> Result<(), MeasureError> {
    let steps: Vec<ScheduledRun> = schedule(blocks.end, participants, seed)
        .into_iter()
        .filter(|s| blocks.contains(&s.block))
        .filter(|s| {
            let binary = &participants[s.participant].binaries[s.binary];
            selection
                .filter(s.participant, &binary.target, binary.harness)
                .is_some()
        })
        .collect();
    progress.start_runs(steps.len() as u64);
    for step in &steps {
        let p = &participants[step.participant];
        let binary = &p.binaries[step.binary];
        let Some(filter) = selection.filter(step.participant, &binary.target, binary.harness)
        else {
            continue;
        };
        if !failures.runs(participants.len(), step.participant, &binary.target) {
            progress.done_one();
            continue;
        }
        progress.step(&p.label, &binary.target, step.block + 1, of);
        let home = home(runs_dir, &p.slug, step.block);
        let ran = run_one(
            binary,
            binary.layout_for(step.block),
            &home,
            &args(binary.harness, filter),
            &p.label,
            pin,
        );
        failures.started(step.participant, &binary.target, ran.is_ok());
        match ran {
            Ok(()) => {}
            Err(RunError::Fatal(error)) => return Err(error),
            Err(RunError::Failed {
                error,
                code,
                stderr,
            }) => {
                let others_failed = failures
                    .failed
                    .iter()
                    .filter(|f| f.target == binary.target)
                    .count();
                // At every participant (or the only one): the error, as it always was.
                if others_failed + 1 >= participants.len() {
                    return Err(*error);
                }
                let mut benchmarks: Vec<String> = participants
                    .iter()
                    .flat_map(|q| {
                        q.binaries
                            .iter()
                            .filter(|b| b.target == binary.target)
                            .map(move |b| (q, b))
                    })
                    .flat_map(|(q, b)| list(b, None, &q.label).unwrap_or_default())
                    .collect();
                benchmarks.sort();
                benchmarks.dedup();
                progress.note(&format!(
                    "warning: the benchmark `{}` of {} failed ({}): it is left out, the others are compared",
                    binary.target,
                    p.label,
                    exit_text(code)
                ));
                let runs = failures
                    .started
                    .get(&(step.participant, binary.target.clone()))
                    .map_or(1, |&(n, _)| n);
                failures.failed.push(Failure {
                    participant: step.participant,
                    target: binary.target.clone(),
                    runs,
                    exit_codes: vec![code],
                    message: first_lines(&stderr),
                    benchmarks,
                });
            }
        }
        progress.done_one();
    }
    progress.finish();
    Ok(())
}

/// Each participant's runs of the first `blocks` blocks (in the participants' order); `ran[i]` gives, per
/// benchmark, the blocks participant i ran it in (fewer than `blocks` when it stopped early, decided, or
/// sat out looks of a race), so that it is not reported missing from the others. The targets that failed
/// at one participant are taken out and left out there ([`Failures::apply`]); a participant with none of
/// its benchmarks left is an error unless a failure took them.
pub(crate) fn read_all(
    runs_dir: &Path,
    participants: &[Participant],
    blocks: u32,
    ran: &[std::collections::HashMap<String, u32>],
    failures: &Failures,
) -> Result<Vec<Results>, MeasureError> {
    let none = std::collections::HashMap::new();
    participants
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let layouts = p
                .binaries
                .iter()
                .map(|b| b.layouts.len())
                .max()
                .unwrap_or(1);
            let runs = (0..blocks)
                .map(|b| {
                    let layout = (layouts > 1).then_some(b % layouts as u32);
                    read_run(&home(runs_dir, &p.slug, b)).map(|r| (r, layout))
                })
                .collect::<Result<Vec<_>, _>>()?;
            // A failed target's benchmarks are taken out below: no note that they missed runs.
            let mut stopped = ran.get(i).unwrap_or(&none).clone();
            for name in failures.failed.iter().flat_map(|f| &f.benchmarks) {
                stopped.insert(name.clone(), 0);
            }
            let collected = collect(&p.origin, runs, &stopped);
            // A side whose every benchmark its runs left out is compared as such (each listed as not
            // compared) beside the others; alone (`record`) it has nothing to give.
            if collected.benchmarks.is_empty()
                && (collected.left_out.is_empty() || participants.len() == 1)
                && !failures.failed.iter().any(|f| f.participant == i)
            {
                return Err(MeasureError::NoSamples {
                    revision: p.label.clone(),
                });
            }
            Ok(collected)
        })
        .collect::<Result<Vec<_>, _>>()
        .map(|mut results| {
            failures.apply(&mut results);
            results
        })
}

/// The benchmarks of `binary` that `filter` selects, as its harness lists them (one `NAME: benchmark` or
/// `NAME: bench` line each); nothing is measured or written.
pub(crate) fn list(
    binary: &BenchBinary,
    filter: Option<&str>,
    label: &str,
) -> Result<Vec<String>, MeasureError> {
    let (args, env) = binary.harness.list_args(filter);
    let mut command = Command::new(&binary.layouts[0]);
    command
        .args(args)
        .current_dir(&binary.package_dir)
        .env("CARGO_MANIFEST_DIR", &binary.package_dir);
    command.envs(env);
    let out = process::capture(&mut command)?;
    if !out.status.success() {
        return Err(MeasureError::BenchmarkFailed {
            revision: label.to_string(),
            target: binary.target.clone(),
            command: process::describe(&command),
            status: out.status.to_string(),
            stderr: out.stderr_text(),
        });
    }
    Ok(listed(&String::from_utf8_lossy(&out.stdout)))
}

/// Whether a bench executable's error says it takes `--warm-up-time` or `--measurement-time` in whole
/// seconds only, as criterion 0.3 does (clap: "Invalid value for '--warm-up-time <warm-up-time>'").
fn rejects_fractional_seconds(stderr: &str) -> bool {
    stderr.lines().any(|line| {
        line.contains("valid value")
            && (line.contains("warm-up-time") || line.contains("measurement-time"))
    })
}

/// The names in criterion's `--list` output: `NAME: benchmark` (criterion 0.5 and later) or `NAME: bench`
/// (0.3, 0.4).
fn listed(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            line.strip_suffix(": benchmark")
                .or_else(|| line.strip_suffix(": bench"))
        })
        .map(str::to_string)
        .collect()
}

/// One run's values: criterion's saved samples and the kept outputs of divan and libtest targets
/// (`harness::output_file`); none when nothing ran or saved anything (a filter that matched nothing).
fn read_run(home: &Path) -> Result<Results, MeasureError> {
    let mut results = Results {
        origin: home.display().to_string(),
        benchmarks: vec![],
        environment: Default::default(),
        notes: vec![],
        left_out: vec![],
    };
    let Ok(entries) = std::fs::read_dir(home) else {
        return Ok(results);
    };
    let mut outputs = Vec::new();
    let mut criterion = false;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        match [Harness::Divan, Harness::Libtest]
            .into_iter()
            .find(|h| name.ends_with(&format!(".{}.txt", h.name())))
        {
            Some(harness) => outputs.push((harness, path)),
            None => criterion = true,
        }
    }
    if criterion {
        results = read::criterion_baseline(home, BASELINE)?;
    }
    outputs.sort_by(|a, b| a.1.cmp(&b.1));
    for (harness, path) in outputs {
        let read = harness::read_file(harness, &path).map_err(|detail| MeasureError::Read {
            path: path.clone(),
            detail,
        })?;
        results.benchmarks.extend(read.benchmarks);
        results.notes.extend(read.notes);
        results.left_out.extend(read.left_out);
    }
    Ok(results)
}

/// What every participant's runs of the first `blocks` blocks measured, one list per run
/// (`bench_settings::length`).
pub(crate) fn lengths(
    runs_dir: &Path,
    participants: &[Participant],
    blocks: u32,
) -> Vec<Vec<bench_settings::RunLength>> {
    participants
        .iter()
        .flat_map(|p| (0..blocks).map(|b| home(runs_dir, &p.slug, b)))
        .map(|home| bench_settings::read_run(&home, BASELINE))
        .collect()
}

fn home(runs_dir: &Path, slug: &str, block: u32) -> PathBuf {
    runs_dir.join(slug).join(format!("run-{}", block + 1))
}

/// How a run went wrong: an error that stops the comparison, or a process that failed (a panic, a signal,
/// an exit code other than 0), which [`Failures`] may leave out.
enum RunError {
    Fatal(MeasureError),
    Failed {
        error: Box<MeasureError>,
        /// Its exit code; `None`: ended by a signal.
        code: Option<i32>,
        stderr: String,
    },
}

impl From<MeasureError> for RunError {
    fn from(error: MeasureError) -> RunError {
        RunError::Fatal(error)
    }
}

/// `exit code N`, or `killed by a signal`.
fn exit_text(code: Option<i32>) -> String {
    match code {
        Some(code) => format!("exit code {code}"),
        None => "ended by a signal".to_string(),
    }
}

/// A failed process's first lines: from the first that says it panicked, else from the start, at most
/// [`FIRST_LINES`].
fn first_lines(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.contains("panicked at"))
        .unwrap_or(0);
    lines[start..]
        .iter()
        .take(FIRST_LINES)
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

fn run_one(
    binary: &BenchBinary,
    executable: &Path,
    home: &Path,
    args: &[String],
    label: &str,
    pin: Option<usize>,
) -> Result<(), RunError> {
    let mut command = Command::new(executable);
    command
        .args(args)
        .current_dir(&binary.package_dir)
        .env("CRITERION_HOME", home)
        .env("CARGO_MANIFEST_DIR", &binary.package_dir);
    if let Some(cpu) = pin {
        super::affinity::pin(&mut command, cpu);
    }
    let out = process::capture(&mut command)?;
    if !out.status.success() {
        let stderr = out.stderr_text();
        if rejects_fractional_seconds(&stderr) {
            return Err(RunError::Fatal(MeasureError::OldCriterion {
                revision: label.to_string(),
                target: binary.target.clone(),
                command: process::describe(&command),
                stderr,
            }));
        }
        return Err(RunError::Failed {
            error: Box::new(MeasureError::BenchmarkFailed {
                revision: label.to_string(),
                target: binary.target.clone(),
                command: process::describe(&command),
                status: out.status.to_string(),
                stderr: stderr.clone(),
            }),
            code: out.status.code(),
            stderr,
        });
    }
    let Some(file) = binary.harness.output_file(&binary.target) else {
        return Ok(());
    };
    // What it printed is read now, so that output that is not its harness's stops the first run, and
    // kept for reading the run with the others (`read_run`).
    let text = String::from_utf8_lossy(&out.stdout);
    // divan prints nothing at all when its filter selects no benchmark; a target that lists some is then
    // one whose filter left nothing to run here, not one that is broken.
    if text.trim().is_empty()
        && binary.harness == Harness::Divan
        && !list(binary, None, label)?.is_empty()
    {
        return Ok(());
    }
    if let Err(detail) = harness::read_output(binary.harness, &text, label) {
        return Err(RunError::Fatal(MeasureError::HarnessOutput {
            revision: label.to_string(),
            target: binary.target.clone(),
            harness: binary.harness.name(),
            command: process::describe(&command),
            detail,
        }));
    }
    let io = |error| MeasureError::Io {
        what: "keeping a benchmark's output",
        path: home.to_path_buf(),
        error,
    };
    std::fs::create_dir_all(home).map_err(io)?;
    std::fs::write(home.join(file), text.as_bytes()).map_err(|e| RunError::Fatal(io(e)))
}

/// One revision's runs as [`Runs`] per benchmark: what a run measured inside its one process becomes one
/// [`Run`], tagged with the layout it ran. A benchmark missing from some runs keeps the runs it has, with a
/// note, unless it ran in no more blocks than `stopped` gives it (decided early, or out of a race).
///
/// A benchmark a run's reader left out (printed as 0, saved without a usable value) is left out of the
/// revision once, with the reason of its first such run, when no run measured it; when other runs did, it
/// is compared on those, with a note saying how many runs left it out and why.
pub(crate) fn collect(
    origin: &str,
    runs: Vec<(Results, Option<u32>)>,
    stopped: &std::collections::HashMap<String, u32>,
) -> Results {
    let total = runs.len();
    let mut environment = Default::default();
    let mut notes = Vec::new();
    let mut collected: Vec<(Benchmark, Vec<Run>)> = Vec::new();
    // Each left-out benchmark's first entry and the number of runs that left it out; targets as given.
    let mut left_out: Vec<(LeftOut, usize)> = Vec::new();
    for (results, layout) in runs {
        environment = results.environment;
        notes.extend(results.notes);
        for item in results.left_out {
            match left_out.iter_mut().find(|(l, _)| {
                l.name == item.name && l.granularity == item.granularity && l.side == item.side
            }) {
                Some((_, count)) => *count += 1,
                None => left_out.push((item, 1)),
            }
        }
        for b in results.benchmarks {
            // A run's criterion baseline is one process: its samples are that run's.
            let these: Vec<Run> = b
                .runs
                .runs()
                .iter()
                .map(|r| {
                    let mut run = r.clone();
                    run.set_layout(layout);
                    run
                })
                .collect();
            match collected.iter_mut().find(|(c, _)| c.name == b.name) {
                Some((_, all)) => all.extend(these),
                None => collected.push((b, these)),
            }
        }
    }
    let left_out_of = |name: &str| {
        left_out
            .iter()
            .find(|(l, _)| l.granularity == Granularity::Benchmark && l.name == name)
    };
    let benchmarks: Vec<Benchmark> = collected
        .into_iter()
        .filter_map(|(mut b, runs)| {
            let expected = stopped.get(&b.name).map_or(total, |&n| n as usize);
            if let Some((item, count)) = left_out_of(&b.name) {
                notes.push(format!(
                    "{origin}: `{}` was left out of {count} of {total} runs ({}); it is compared on the {} \
                     that measured it",
                    b.name,
                    why(&item.reason),
                    runs.len()
                ));
            } else if runs.len() < expected {
                notes.push(format!(
                    "{origin}: `{}` ran in {} of {expected} runs; it is compared on those",
                    b.name,
                    runs.len()
                ));
            }
            b.runs = Runs::new(runs).ok()?;
            Some(b)
        })
        .collect();
    let left_out = left_out
        .into_iter()
        .map(|(item, _)| item)
        .filter(|item| {
            item.granularity == Granularity::Target
                || !benchmarks.iter().any(|b| b.name == item.name)
        })
        .collect();
    Results {
        origin: origin.to_string(),
        benchmarks,
        environment,
        notes,
        left_out,
    }
}

/// Why a run left a benchmark out, for the note of [`collect`] (the reason's data, as the reader gave it).
fn why(reason: &Reason) -> String {
    match reason {
        Reason::BelowResolution { printed } => {
            format!("printed `{printed}`, below the harness's resolution")
        }
        Reason::NoValue { detail } => format!("no usable value: {detail}"),
        Reason::Skipped { .. } => "skipped by its harness".to_string(),
        Reason::Errored { message } => format!("an error: {message}"),
        Reason::Failed { .. } => "failed".to_string(),
        Reason::NeedsFeatures { .. }
        | Reason::BuildFailed { .. }
        | Reason::Excluded { .. }
        | Reason::OnlyAtThisSide => "not run".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Environment, Sample, Unit};

    #[test]
    fn criterion_03_refusing_fractional_seconds_is_recognised() {
        // criterion 0.3.6 with clap 2, given --warm-up-time 0.3:
        let old = "error: Invalid value for '--warm-up-time <warm-up-time>': invalid digit found in string\n";
        assert!(rejects_fractional_seconds(old));
        let clap2 = "error: Invalid value for '--warm-up-time <SECONDS>': The argument '0.3' isn't a valid value\n";
        assert!(rejects_fractional_seconds(clap2));
        assert!(!rejects_fractional_seconds(
            "thread 'main' panicked at 'boom'\n"
        ));
        assert!(!rejects_fractional_seconds(
            "error: Invalid value for '--sample-size <N>'\n"
        ));
    }

    #[test]
    fn criterion_list_lines_give_the_names() {
        // criterion 0.5-0.8 `--list`: one `ID: benchmark` line per benchmark, ids with spaces and slashes.
        let text = "group/a: benchmark\nsame: benchmark\nwith space/3: benchmark\n\nwarning: x\n";
        assert_eq!(listed(text), ["group/a", "same", "with space/3"]);
        // criterion 0.4 (base64 0.22's benches): `: bench`.
        let old = "encode_small_input/encode/3: bench\nencode_small_input/encode/3072: bench\n";
        assert_eq!(
            listed(old),
            [
                "encode_small_input/encode/3",
                "encode_small_input/encode/3072"
            ]
        );
    }

    fn participant(slug: &'static str, targets: &[&str]) -> Participant {
        Participant {
            label: slug.into(),
            origin: slug.into(),
            slug: slug.into(),
            binaries: targets
                .iter()
                .map(|t| BenchBinary {
                    target: t.to_string(),
                    layouts: vec![PathBuf::from(t)],
                    package_dir: PathBuf::new(),
                    manifest: PathBuf::new(),
                    cargo_target: PathBuf::new(),
                    harness: Harness::Criterion,
                })
                .collect(),
        }
    }

    /// A bench executable written as a shell script: it lists `TARGET/one` for `--list`, and otherwise
    /// panics as Rust does (exit code 101) when `panics`, else succeeds saving nothing.
    #[cfg(unix)]
    fn script(dir: &Path, slug: &str, target: &str, panics: bool) -> BenchBinary {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join(format!("{slug}-{target}"));
        let run = match panics {
            true => {
                "echo \"thread 'main' panicked at benches/b.rs:3:5:\" >&2; echo boom >&2; exit 101"
            }
            false => "exit 0",
        };
        std::fs::write(
            &path,
            format!("#!/bin/sh\ncase \"$*\" in *--list*) echo '{target}/one: benchmark'; exit 0;; esac\n{run}\n"),
        )
        .unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        BenchBinary {
            target: target.to_string(),
            layouts: vec![path],
            package_dir: dir.to_path_buf(),
            manifest: PathBuf::new(),
            cargo_target: PathBuf::new(),
            harness: Harness::Criterion,
        }
    }

    #[cfg(unix)]
    fn run_three_blocks(panics: [bool; 2]) -> (Result<(), MeasureError>, Failures) {
        let dir = tempfile::tempdir().unwrap();
        let side = |slug: &'static str, panics: bool| Participant {
            label: slug.into(),
            origin: slug.into(),
            slug: slug.into(),
            binaries: vec![
                script(dir.path(), slug, "fine", false),
                script(dir.path(), slug, "boom", panics),
            ],
        };
        let participants = [side("base", panics[0]), side("head", panics[1])];
        let mut failures = Failures::default();
        let selection = RunSelection {
            open: None,
            by_target: &[],
            partitioned: false,
        };
        let ran = run_blocks(
            &dir.path().join("runs"),
            &participants,
            0..3,
            3,
            5,
            &|_, _| vec![],
            selection,
            None,
            &Progress::new(true),
            &mut failures,
        );
        (ran, failures)
    }

    #[cfg(unix)]
    #[test]
    fn a_target_that_panics_at_one_side_is_left_out_there_with_its_benchmarks_and_stops() {
        let (ran, failures) = run_three_blocks([false, true]);
        assert!(ran.is_ok(), "{ran:?}");
        assert_eq!(failures.failed.len(), 1);
        let failure = &failures.failed[0];
        assert_eq!((failure.participant, failure.target.as_str()), (1, "boom"));
        assert_eq!(failure.exit_codes, [Some(101)]);
        assert_eq!(failure.runs, 1);
        assert_eq!(
            failure.message,
            "thread 'main' panicked at benches/b.rs:3:5:\nboom"
        );
        assert_eq!(failure.benchmarks, ["boom/one"]);
        // It stops at both sides: HEAD never again, BASE after at most one more run; `fine` runs on.
        let started = |p: usize, t: &str| failures.started.get(&(p, t.to_string())).map(|c| c.0);
        assert_eq!(started(1, "boom"), Some(1));
        assert!(
            started(0, "boom").is_some_and(|n| n <= 2),
            "{:?}",
            started(0, "boom")
        );
        assert_eq!((started(0, "fine"), started(1, "fine")), (Some(3), Some(3)));
        let bench = |name: &str| Benchmark {
            name: name.into(),
            runs: Runs::independent(Sample::new(vec![1.0, 2.0], Unit::Ns).unwrap()),
            unit: Unit::Ns,
            counters: vec![],
        };
        let side = |names: &[&str]| Results {
            origin: "x".into(),
            benchmarks: names.iter().map(|n| bench(n)).collect(),
            environment: Environment::default(),
            notes: vec![],
            left_out: vec![],
        };
        let mut results = [side(&["fine/one", "boom/one"]), side(&["fine/one"])];
        failures.apply(&mut results);
        let names = |r: &Results| {
            r.benchmarks
                .iter()
                .map(|b| b.name.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            (names(&results[0]), names(&results[1])),
            (vec!["fine/one".to_string()], vec!["fine/one".to_string()])
        );
        assert!(results[0].left_out.is_empty());
        assert_eq!(
            results[1].left_out,
            [LeftOut::target(
                "boom",
                None,
                Reason::Failed {
                    failed: 1,
                    runs: 1,
                    exit_codes: vec![Some(101)],
                    message: "thread 'main' panicked at benches/b.rs:3:5:\nboom".into(),
                }
            )]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_target_that_panics_at_both_sides_is_the_error_it_always_was() {
        let (ran, _) = run_three_blocks([true, true]);
        match ran {
            Err(MeasureError::BenchmarkFailed { target, status, .. }) => {
                assert_eq!(
                    (target.as_str(), status.as_str()),
                    ("boom", "exit status: 101")
                )
            }
            other => panic!("{other:?}"),
        }
    }

    fn order(steps: &[ScheduledRun], participants: &[Participant]) -> Vec<String> {
        steps
            .iter()
            .map(|s| {
                let p = &participants[s.participant];
                format!("{}{}:{}", p.slug, s.block, p.binaries[s.binary].target)
            })
            .collect()
    }

    #[test]
    fn every_block_runs_each_target_once_per_revision() {
        let ps = [participant("A", &["x", "y"]), participant("B", &["x", "y"])];
        let steps = schedule(3, &ps, 7);
        let got = order(&steps, &ps);
        assert_eq!(got.len(), 12);
        for block in 0..3 {
            let mut this: Vec<&String> = got
                .iter()
                .filter(|s| s[1..].starts_with(&block.to_string()))
                .collect();
            this.sort();
            let expected = [
                format!("A{block}:x"),
                format!("A{block}:y"),
                format!("B{block}:x"),
                format!("B{block}:y"),
            ];
            assert_eq!(this, expected.iter().collect::<Vec<_>>(), "block {block}");
        }
        // Blocks follow each other: no run of block 1 before the last of block 0.
        let blocks: Vec<u32> = steps.iter().map(|s| s.block).collect();
        assert!(blocks.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn the_seed_decides_the_order_and_repeats_it() {
        let ps = [participant("A", &["x"]), participant("B", &["x"])];
        let first = |seed| {
            schedule(64, &ps, seed)
                .chunks(2)
                .map(|pair| pair[0].participant)
                .collect::<Vec<usize>>()
        };
        assert_eq!(first(1), first(1));
        assert_ne!(first(1), first(2));
        // Each revision goes first in some blocks and second in others, about half the time each:
        // 64 fair coin flips fall outside 16..=48 with probability below 1e-4.
        let a_first = first(1).iter().filter(|&&p| p == 0).count();
        assert!((16..=48).contains(&a_first), "{a_first}");
    }

    #[test]
    fn the_shuffle_is_uniform_over_orders() {
        // 6 orders of 3 items, 6000 shuffles: each order expected 1000 times; a count outside 850..1150 has
        // probability below 1e-5 for a uniform shuffle.
        let mut rng = SplitMix64::new(42);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..6000 {
            let mut items = [0, 1, 2];
            shuffle(&mut rng, &mut items);
            *counts.entry(items).or_insert(0) += 1;
        }
        assert_eq!(counts.len(), 6);
        assert!(
            counts.values().all(|&c| (850..1150).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn a_target_of_one_revision_runs_alone() {
        let ps = [participant("A", &["x"]), participant("B", &["x", "new"])];
        let got = order(&schedule(1, &ps, 3), &ps);
        assert_eq!(got.len(), 3);
        assert_eq!(got[2], "B0:new");
    }

    fn results(benchmarks: &[(&str, &[f64])]) -> Results {
        Results {
            origin: "run".into(),
            benchmarks: benchmarks
                .iter()
                .map(|(n, v)| Benchmark {
                    name: n.to_string(),
                    runs: Runs::one_process(Sample::new(v.to_vec(), Unit::Ns).unwrap()),
                    unit: Unit::Ns,
                    counters: Vec::new(),
                })
                .collect(),
            environment: Environment::default(),
            notes: vec![],
            left_out: vec![],
        }
    }

    #[test]
    fn each_process_becomes_one_run_and_missing_ones_are_noted() {
        let collected = collect(
            "main",
            vec![
                (results(&[("a", &[1.0, 2.0, 3.0]), ("b", &[5.0])]), Some(0)),
                (results(&[("a", &[3.0, 4.0])]), Some(1)),
            ],
            &Default::default(),
        );
        let a = &collected.benchmarks[0].runs;
        assert_eq!(a.len(), 2);
        assert_eq!(a.values(), vec![2.0, 3.5]);
        assert_eq!(a.runs()[1].samples(), &[3.0, 4.0]);
        assert_eq!(a.runs()[1].layout(), Some(1));
        assert_eq!(collected.benchmarks[1].runs.len(), 1);
        assert_eq!(collected.notes.len(), 1);
        assert!(
            collected.notes[0].contains("`b` ran in 1 of 2 runs"),
            "{:?}",
            collected.notes
        );
        // Stopped after its first run, decided: not missing.
        let stopped = [("b".to_string(), 1)].into_iter().collect();
        let quiet = collect(
            "main",
            vec![
                (results(&[("a", &[1.0]), ("b", &[5.0])]), None),
                (results(&[("a", &[3.0])]), None),
            ],
            &stopped,
        );
        assert!(quiet.notes.is_empty(), "{:?}", quiet.notes);
    }

    #[test]
    fn a_narrowed_filter_matches_exactly_the_open_names() {
        let by_target = vec![
            (
                "t".to_string(),
                vec!["g/a".to_string(), "g/a+b (1)".to_string(), "c".to_string()],
            ),
            ("u".to_string(), vec!["d".to_string()]),
        ];
        let open = vec![
            vec!["g/a+b (1)".to_string(), "c".to_string()],
            vec!["d".to_string()],
        ];
        let selection = RunSelection {
            open: Some(&open),
            by_target: &by_target,
            partitioned: false,
        };
        assert_eq!(
            selection.filter(0, "t", Harness::Criterion),
            Some(Some("^(?:g/a\\+b \\(1\\)|c)$".to_string()))
        );
        assert_eq!(selection.filter(0, "u", Harness::Criterion), None);
        // Each participant runs its own open benchmarks: the second only `d`.
        assert_eq!(selection.filter(1, "t", Harness::Criterion), None);
        assert_eq!(
            selection.filter(1, "u", Harness::Criterion),
            Some(Some("^(?:d)$".to_string()))
        );
        let all = RunSelection {
            open: None,
            by_target: &by_target,
            partitioned: false,
        };
        assert_eq!(all.filter(0, "u", Harness::Criterion), Some(None));
        // divan lists `w::f` once; its runs give `w::f::t=1` and `w::f::t=2`, either of which keeps it open.
        let divan = vec![(
            "w".to_string(),
            vec!["w::f".to_string(), "w::g".to_string()],
        )];
        let threads = vec![vec!["w::f::t=2".to_string()]];
        let narrowed = RunSelection {
            open: Some(&threads),
            by_target: &divan,
            partitioned: false,
        };
        assert_eq!(
            narrowed.filter(0, "w", Harness::Divan),
            Some(Some("^(?:w::f)$".to_string()))
        );
        // A target that listed nothing (not criterion's `--list`) keeps running under the user's filter.
        assert_eq!(
            selection.filter(0, "unlisted", Harness::Criterion),
            Some(None)
        );
        // Under `--partition`, a target with nothing of the part does not run at all.
        let part = RunSelection {
            partitioned: true,
            ..selection
        };
        assert_eq!(part.filter(0, "unlisted", Harness::Criterion), None);
        assert_eq!(
            part.filter(1, "u", Harness::Criterion),
            Some(Some("^(?:d)$".to_string()))
        );
    }

    /// Writes `runs[i]` as the kept libtest output of block i of `slug` under `runs_dir`, in libtest's
    /// documented bench line format (`test NAME ... bench: N ns/iter (+/- M)`).
    fn libtest_runs(runs_dir: &Path, slug: &str, runs: &[&[(&str, u32)]]) {
        for (block, rows) in runs.iter().enumerate() {
            let home = home(runs_dir, slug, block as u32);
            std::fs::create_dir_all(&home).unwrap();
            let mut text = format!("running {} tests\n", rows.len());
            for (name, nanos) in rows.iter() {
                text.push_str(&format!("test {name} ... bench: {nanos} ns/iter (+/- 0)\n"));
            }
            std::fs::write(home.join("t.libtest.txt"), text).unwrap();
        }
    }

    #[test]
    fn a_benchmark_left_out_in_every_run_is_left_out_of_the_side_once() {
        let dir = tempfile::tempdir().unwrap();
        let runs_dir = dir.path().join("runs");
        libtest_runs(
            &runs_dir,
            "base",
            &[
                &[("zero", 0), ("some", 0), ("fine", 7)],
                &[("zero", 0), ("some", 9), ("fine", 8)],
                &[("zero", 0), ("some", 10), ("fine", 9)],
            ],
        );
        let read = read_all(
            &runs_dir,
            &[participant("base", &["t"])],
            3,
            &[],
            &Failures::default(),
        )
        .unwrap();
        let base = &read[0];
        let names: Vec<(&str, usize)> = base
            .benchmarks
            .iter()
            .map(|b| (b.name.as_str(), b.runs.len()))
            .collect();
        // In the order first measured: `fine` in run 1, `some` in run 2.
        assert_eq!(names, [("fine", 3), ("some", 2)]);
        assert_eq!(base.benchmarks[1].runs.values(), [9.0, 10.0]);
        // Once, not once per run; `some`, measured in two runs, is compared on those.
        assert_eq!(
            base.left_out,
            [LeftOut::benchmark(
                "zero",
                None,
                Reason::BelowResolution {
                    printed: "0 ns/iter".into()
                }
            )]
        );
        assert_eq!(
            base.notes,
            [
                "base: `some` was left out of 1 of 3 runs (printed `0 ns/iter`, below the harness's \
              resolution); it is compared on the 2 that measured it"
            ]
        );
    }

    #[test]
    fn a_side_whose_every_benchmark_was_left_out_is_no_error_beside_another() {
        let dir = tempfile::tempdir().unwrap();
        let runs_dir = dir.path().join("runs");
        libtest_runs(&runs_dir, "base", &[&[("zero", 3)], &[("zero", 4)]]);
        libtest_runs(&runs_dir, "head", &[&[("zero", 0)], &[("zero", 0)]]);
        let sides = [participant("base", &["t"]), participant("head", &["t"])];
        let read = read_all(&runs_dir, &sides, 2, &[], &Failures::default()).unwrap();
        assert_eq!(read[0].benchmarks.len(), 1);
        assert!(read[1].benchmarks.is_empty());
        assert_eq!(read[1].left_out.len(), 1);
        assert_eq!(read[1].left_out[0].name, "zero");
        // Alone (`record`), nothing is left to give: the error it always was.
        match read_all(&runs_dir, &sides[1..], 2, &[], &Failures::default()) {
            Err(MeasureError::NoSamples { revision }) => assert_eq!(revision, "head"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_criterion_run_that_saved_no_usable_value_leaves_its_benchmark_out() {
        use crate::testutil::source_fixtures::{copy_tree, fixture};
        // criterion's saved benchmark `alpha` without its sample.json (a run stopped between the two
        // files), saved under this tool's baseline; another run measured `fib_20` only.
        let dir = tempfile::tempdir().unwrap();
        let runs_dir = dir.path().join("runs");
        let first = home(&runs_dir, "base", 0);
        copy_tree(
            &fixture("criterion/broken/alpha/new"),
            &first.join("alpha").join(BASELINE),
        );
        let run = read_run(&first).unwrap();
        assert!(run.benchmarks.is_empty());
        assert_eq!(
            run.left_out,
            [LeftOut::benchmark(
                "alpha",
                None,
                Reason::NoValue {
                    detail: "no sample.json beside its benchmark.json".into()
                }
            )]
        );
        copy_tree(
            &fixture("criterion/real/fib_20/new"),
            &home(&runs_dir, "base", 1).join("fib_20").join(BASELINE),
        );
        let read = read_all(
            &runs_dir,
            &[participant("base", &["t"])],
            2,
            &[],
            &Failures::default(),
        )
        .unwrap();
        assert_eq!(read[0].benchmarks.len(), 1);
        assert_eq!(read[0].benchmarks[0].name, "fib_20");
        assert_eq!(read[0].left_out.len(), 1);
        assert_eq!(read[0].left_out[0].name, "alpha");
    }

    #[test]
    fn a_runs_kept_divan_and_libtest_outputs_are_read_as_its_values() {
        let home = tempfile::tempdir().unwrap();
        let divan = include_str!("../../../fixtures/harness/divan-0.1.21.txt");
        std::fs::write(home.path().join("work.divan.txt"), divan).unwrap();
        std::fs::write(
            home.path().join("old.libtest.txt"),
            "running 1 test\ntest old_one ... bench:   2,500 ns/iter (+/- 10)\n",
        )
        .unwrap();
        let run = read_run(home.path()).unwrap();
        let names: Vec<&str> = run.benchmarks.iter().map(|b| b.name.as_str()).collect();
        // In file-name order: `old.libtest.txt`, then `work.divan.txt`.
        assert_eq!(names.len(), 11, "{names:?}");
        assert_eq!(names[0], "old_one");
        assert_eq!(names[1], "work::changed");
        assert_eq!(run.benchmarks[0].runs.values(), [2500.0]);
        assert_eq!(run.benchmarks[1].runs.values(), [34.61]);
        // A run that kept nothing (its filter selected no benchmark) has no values.
        let empty = tempfile::tempdir().unwrap();
        assert!(
            read_run(&empty.path().join("run-1"))
                .unwrap()
                .benchmarks
                .is_empty()
        );
        // A kept output that is not its harness's is an error naming the file.
        std::fs::write(home.path().join("bad.divan.txt"), "nonsense\n").unwrap();
        let error = read_run(home.path()).unwrap_err().to_string();
        assert!(error.contains("bad.divan.txt"), "{error}");
    }
}
