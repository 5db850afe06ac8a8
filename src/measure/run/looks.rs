//! The loop of looks: blocks of runs up to each look of the plan, then the analysis asked (through
//! [`Decide`] or [`DecideRace`]) which benchmarks are still open; the next blocks run those only. Also
//! what the runs are told before they start: the cost of the bench files' settings, the plan, the seed.
//!
//! Must not: decide anything itself (the analysis does, through the seam), or run a process but through
//! `blocks`.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use super::affinity::pinned_core;
use super::blocks::{self, Participant};
use crate::measure::MeasureError;
use crate::measure::cache::CacheKey;
use crate::measure::harness::Harness;
use crate::measure::prepare::bench_settings::{BenchSettings, RunPlan};
use crate::measure::progress::Progress;
use crate::measure::settings::RunOptions;
use crate::model::Results;

/// Which benchmarks the runs so far leave undecided, given BASE's and HEAD's results and the number of looks
/// the plan may take (the analysis decides at risk alpha / looks): the seam through which the runs ask the
/// analysis between looks, without this module deciding anything.
pub(crate) type Decide<'a> =
    &'a dyn Fn(&Results, &Results, u32) -> crate::protocol::sequential::LookDecision;

/// The same seam for a race of several revisions: given every revision's results so far (in the race's
/// order) and the number of looks, the benchmarks each revision must still run (`protocol::race`).
pub(crate) type DecideRace<'a> = &'a dyn Fn(&[Results], u32) -> Vec<Vec<String>>;

/// How the analysis is asked between looks.
#[derive(Clone, Copy)]
pub(crate) enum Decider<'a> {
    /// BASE against HEAD: both run the benchmarks still open.
    Pair(Decide<'a>),
    /// A race: each revision runs the open benchmarks it survives in.
    Several(DecideRace<'a>),
}

/// How the runs of a comparison may stop early: the analysis's verdicts between looks, and the clock the
/// budget counts from.
pub(crate) struct EarlyStop<'a> {
    /// `None`: one participant or nothing to decide between looks; the plan's runs all run.
    pub(crate) decide: Option<Decider<'a>>,
    /// When the command started: `--budget` counts from there, builds included.
    pub(crate) started: Instant,
    /// Set when `--budget` stopped the runs before a look: the results are what that budget gives, and are
    /// cached under it ([`CacheKey::cut_by_budget`]).
    pub(crate) cut_by_budget: std::cell::Cell<bool>,
}

impl EarlyStop<'_> {
    /// The key the runs of `key` are stored under: with the budget when it cut them short.
    pub(crate) fn store_key(&self, key: &CacheKey, options: &RunOptions) -> CacheKey {
        match options.budget {
            Some(budget) if self.cut_by_budget.get() => key.cut_by_budget(budget),
            _ => key.clone(),
        }
    }
}

/// Runs the plan's blocks look by look (`protocol::sequential`): after each look but the last, the
/// benchmarks the analysis decides stop and the next blocks run the open ones only; the runs end when none
/// is open, at the last look, or when the next look would not end within `--budget`. `part`: only these
/// benchmarks run (`--partition`). One look (a fixed plan, `record`) runs every block at once.
pub(crate) fn run_until_decided(
    runs_dir: &Path,
    participants: &[Participant],
    options: &RunOptions,
    progress: &Progress,
    stop: &EarlyStop<'_>,
    part: Option<&[String]>,
    bench: &BenchSettings,
) -> Result<Vec<Results>, MeasureError> {
    blocks::clear(runs_dir, participants)?;
    let looks = options.look_plan.looks();
    // A pair lists BASE's benchmarks; a race, or a part of the benchmarks, lists every revision's, since
    // any may have its own.
    let listed = match (stop.decide, part) {
        (Some(Decider::Several(_)), _) | (_, Some(_)) => participants,
        _ => participants.get(..1).unwrap_or_default(),
    };
    let mut by_target: Vec<(String, Vec<String>)> = Vec::new();
    for p in listed.iter().filter(|_| looks.len() > 1 || part.is_some()) {
        for b in &p.binaries {
            let mut names = blocks::list(b, options.filter.as_deref(), &p.label)?;
            names.retain(|name| part.is_none_or(|part| part.contains(name)));
            match by_target.iter_mut().find(|(t, _)| *t == b.target) {
                Some((_, known)) => {
                    for name in names {
                        if !known.contains(&name) {
                            known.push(name);
                        }
                    }
                }
                None => by_target.push((b.target.clone(), names)),
            }
        }
    }
    // A target with nothing in the part does not run.
    by_target.retain(|(_, names)| part.is_none() || !names.is_empty());
    let benchmarks: usize = by_target.iter().map(|(_, n)| n.len()).sum();
    let plan = RunPlan {
        revisions: participants.len(),
        first_look: looks.first().copied().unwrap_or(options.runs),
        max_runs: options.look_plan.max(),
        benchmarks: benchmark_counts(&by_target, participants, options, bench),
        budget_secs: options.budget.map(|b| b.as_secs_f64()),
    };
    // What the bench files' settings cost, said once, before the first look and in the report.
    let (notes, mut told) = bench.before_runs(&plan);
    for note in notes {
        progress.note(&note);
    }
    for warning in &told {
        progress.note(&format!("warning: {warning}"));
    }
    let per_run = plan
        .benchmarks
        .iter()
        .map(|(target, _)| bench.run_secs(target))
        .fold(options.warm_up_secs + options.measurement_secs, f64::max);
    if let Some(budget) = options.budget {
        // One block: every benchmark once per side, warm-up and measurement.
        let block = per_run * (benchmarks.max(1) * participants.len()) as f64;
        if stop.started.elapsed().as_secs_f64() + block > budget.as_secs_f64() {
            return Err(MeasureError::Option {
                flag: "--budget",
                value: format!("{}s", budget.as_secs()),
                expected: "time for at least one block of runs after the builds (every benchmark once per \
                           revision, warm-up and measurement)",
            });
        }
    }
    match looks.as_slice() {
        [only] => progress.note(&format!(
            "{only} process runs per revision in randomized blocks, seed {} (`--seed {}` repeats this order)",
            options.seed, options.seed
        )),
        _ => progress.note(&format!(
            "process runs per revision in randomized blocks until each benchmark is decided: looks after \
             {} runs, at risk alpha/{} each; seed {} (`--seed {}` repeats this order)",
            looks
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            looks.len(),
            options.seed,
            options.seed
        )),
    }
    let pin = pinned_core(options, progress);
    let args = |harness: Harness, filter| harness.run_args(options, blocks::BASELINE, filter);
    // Per participant: the benchmarks it still runs (`None`: all), and how many blocks ran each benchmark.
    let mut open: Option<Vec<Vec<String>>> =
        part.map(|part| vec![part.to_vec(); participants.len()]);
    let mut ran: Vec<HashMap<String, u32>> = vec![HashMap::new(); participants.len()];
    let mut done = 0;
    let mut failures = blocks::Failures::default();
    let started_runs = Instant::now();
    for (i, &look) in looks.iter().enumerate() {
        if let (Some(budget), true) = (options.budget, done > 0) {
            // The next look costs about what the runs so far cost per block and open benchmark.
            let open_now = open.as_ref().map_or(benchmarks as f64, |o| {
                o.iter().map(Vec::len).sum::<usize>() as f64 / o.len().max(1) as f64
            });
            let per_block = started_runs.elapsed().as_secs_f64() / f64::from(done);
            let next = per_block * f64::from(look - done) * open_now / benchmarks.max(1) as f64;
            if stop.started.elapsed().as_secs_f64() + next > budget.as_secs_f64() {
                progress.note(&format!(
                    "note: the budget ({}s) leaves no time for the look after {look} runs: {} benchmarks \
                     still undecided after {done} runs are inconclusive",
                    budget.as_secs(),
                    open_now
                ));
                stop.cut_by_budget.set(true);
                break;
            }
        }
        for (p, counts) in ran.iter_mut().enumerate() {
            for (_, names) in &by_target {
                for name in names {
                    if open.as_ref().is_none_or(|o| o[p].contains(name)) {
                        *counts.entry(name.clone()).or_default() += look - done;
                    }
                }
            }
        }
        let selection = blocks::RunSelection {
            open: open.as_deref(),
            by_target: &by_target,
            partitioned: part.is_some(),
        };
        blocks::run_blocks(
            runs_dir,
            participants,
            done..look,
            options.look_plan.max(),
            options.seed,
            &args,
            selection,
            pin,
            progress,
            &mut failures,
        )?;
        done = look;
        if i == 0 {
            let lengths = blocks::lengths(runs_dir, participants, done);
            if let Some(warning) = bench.after_first_look(&lengths, &plan) {
                progress.note(&format!("warning: {warning}"));
                told.push(warning);
            }
        }
        let (Some(decide), false) = (stop.decide, i + 1 == looks.len()) else {
            break;
        };
        let so_far = blocks::read_all(runs_dir, participants, done, &ran, &failures)?;
        let k = looks.len() as u32;
        // Decided and stopped undecided, when the pair's analysis says (a race counts only what runs on).
        let mut counts: Option<(usize, usize)> = None;
        let still_open = match decide {
            Decider::Pair(decide) => {
                let [base, head] = so_far.as_slice() else {
                    break;
                };
                let decision = decide(base, head, k);
                if i == 0 && !decision.out_of_reach_at_cap.is_empty() {
                    progress.note(&crate::report::words::out_of_reach_at_cap(
                        look,
                        options.look_plan.max(),
                        benchmarks,
                        &decision,
                    ));
                }
                counts = Some((decision.decided, decision.stopped));
                vec![decision.open.clone(), decision.open]
            }
            Decider::Several(decide) => decide(&so_far, k),
        };
        let mut open_anywhere: Vec<&String> = still_open.iter().flatten().collect();
        open_anywhere.sort();
        open_anywhere.dedup();
        if let Some((decided, stopped)) = counts {
            progress.note(&crate::report::words::look_progress(
                look,
                decided,
                stopped,
                open_anywhere.len(),
            ));
            if open_anywhere.is_empty() {
                break;
            }
            open = Some(still_open);
            continue;
        }
        if open_anywhere.is_empty() {
            progress.note(&format!(
                "every benchmark decided after {look} runs per revision"
            ));
            break;
        }
        progress.note(&format!(
            "after {look} runs per revision: {} of {} benchmarks decided, {} still open",
            benchmarks.saturating_sub(open_anywhere.len()),
            benchmarks,
            open_anywhere.len()
        ));
        open = Some(still_open);
    }
    let mut results = blocks::read_all(runs_dir, participants, done, &ran, &failures)?;
    // Read for the last time: what the harnesses wrote goes, unless asked for. A failure to remove it costs
    // disk, not the comparison; the next one clears it first.
    if !options.keep_runs {
        let _ = blocks::clear(runs_dir, participants);
    }
    // Once per comparison: in the last revision's notes, which the report shows as warnings.
    if let Some(last) = results.last_mut() {
        last.notes.extend(told);
    }
    Ok(results)
}

/// The number of benchmarks of each bench target: as listed for the looks; else, when the projection of
/// the plan may have something to say (a setting found, a budget, or runs that could outlast plain ones),
/// as the first revision's executables list them (a target that does not answer criterion's `--list` is
/// left out); else none.
fn benchmark_counts(
    by_target: &[(String, Vec<String>)],
    participants: &[Participant],
    options: &RunOptions,
    bench: &BenchSettings,
) -> Vec<(String, usize)> {
    if !by_target.is_empty() {
        return by_target
            .iter()
            .map(|(t, names)| (t.clone(), names.len()))
            .collect();
    }
    if !bench.may_tell(options) {
        return vec![];
    }
    participants
        .first()
        .map(|p| {
            p.binaries
                .iter()
                .filter_map(|b| {
                    let names = blocks::list(b, options.filter.as_deref(), &p.label).ok()?;
                    Some((b.target.clone(), names.len()))
                })
                .collect()
        })
        .unwrap_or_default()
}
