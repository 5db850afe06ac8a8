//! The loop of looks: blocks of runs up to each look of the plan, then the analysis asked (through
//! [`Decide`] or [`DecideRace`]) which benchmarks are still open; the next blocks run those only. Also
//! what the runs are told before they start: the cost of the bench files' settings, the plan, the seed.
//!
//! In steps ([`run_until_decided`]): list the benchmarks per target (`listed_targets`), say what the runs
//! will cost and check that `--budget` leaves time for a block (`before_runs`), then per look: stop when
//! the budget leaves no time for it (`Looking::budget_cut`), run its blocks (`blocks::run_blocks`), ask the
//! analysis (`ask`); at the end read every run once more and clear what the harnesses wrote.
//!
//! Must not: decide anything itself (the analysis does, through the seam), or start a run but through the
//! [`Runner`].

use std::collections::HashMap;
use std::time::Duration;

use super::blocks::{self, Blocks};
use super::failures::Failures;
use super::runner::Runner;
use super::selection::RunSelection;
use crate::measure::MeasureError;
use crate::measure::cache::CacheKey;
use crate::measure::harness::to_whole_seconds;
use crate::measure::prepare::bench_settings::{BenchSettings, RunPlan};
use crate::measure::prepare::participant::Participant;
use crate::measure::progress::Progress;
use crate::measure::settings::LookSettings;
use crate::model::Results;
use crate::report::words::measuring::Measuring;

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

/// The time as `--budget` counts it: since the command started, builds included.
pub(crate) trait Clock {
    /// The time since the command started.
    fn since_start(&self) -> Duration;
}

impl Clock for std::time::Instant {
    fn since_start(&self) -> Duration {
        self.elapsed()
    }
}

/// How the runs of a comparison may stop early: the analysis's verdicts between looks, and the clock the
/// budget counts from.
pub(crate) struct EarlyStop<'a> {
    /// `None`: one participant or nothing to decide between looks; the plan's runs all run.
    pub(crate) decide: Option<Decider<'a>>,
    /// The time since the command started (an `Instant` taken then): `--budget` counts from there.
    pub(crate) clock: &'a dyn Clock,
    /// Set when `--budget` stopped the runs before a look: the results are what that budget gives, and are
    /// cached under it ([`CacheKey::cut_by_budget`]).
    pub(crate) cut_by_budget: std::cell::Cell<bool>,
}

impl EarlyStop<'_> {
    /// The key the runs of `key` are stored under: with `budget` when it cut them short.
    pub(crate) fn store_key(&self, key: &CacheKey, budget: Option<Duration>) -> CacheKey {
        match budget {
            Some(budget) if self.cut_by_budget.get() => key.cut_by_budget(budget),
            _ => key.clone(),
        }
    }
}

/// What the prepare stage hands the runs: the participants, the part of the benchmarks that runs
/// (`--partition`), the bench files' settings and whether they may have something to say about the plan
/// (`BenchSettings::may_tell`).
#[derive(Clone, Copy)]
pub(crate) struct Ready<'a> {
    pub(crate) participants: &'a [Participant],
    pub(crate) part: Option<&'a [String]>,
    pub(crate) bench: &'a BenchSettings,
    pub(crate) may_tell: bool,
}

/// The benchmarks of each bench target, as listed for the looks.
type ByTarget = Vec<(String, Vec<String>)>;

/// Runs the plan's blocks look by look (`protocol::sequential`) through `runner`: after each look but the
/// last, the benchmarks the analysis decides stop and the next blocks run the open ones only; the runs end
/// when none is open, at the last look, or when the next look would not end within `--budget`. Only the
/// benchmarks of `ready.part` run (`--partition`). One look (a fixed plan, `record`) runs every block at
/// once. Returns each participant's results, in their order.
pub(crate) fn run_until_decided(
    runner: &mut dyn Runner,
    ready: Ready<'_>,
    settings: &LookSettings<'_>,
    progress: &Progress,
    stop: &EarlyStop<'_>,
) -> Result<Vec<Results>, MeasureError> {
    let participants = ready.participants;
    runner.clear(participants)?;
    let looks = settings.look_plan.looks();
    let by_target = listed_targets(&*runner, ready, settings, stop, looks.len())?;
    let (plan, mut told) = before_runs(&*runner, ready, settings, stop, &by_target, progress)?;
    tell_plan(&looks, settings.seed, progress);
    runner.begin(progress);
    let mut looking = Looking::new(ready, &by_target, stop);
    for (i, &look) in looks.iter().enumerate() {
        if looking.budget_cut(look, settings.budget, progress) {
            break;
        }
        looking.run_to(&*runner, look, settings, progress)?;
        if i == 0 {
            // A target whose criterion takes whole seconds runs longer on purpose, as said before the
            // runs (`whole_seconds`): the plan tells it apart, and its listed benchmarks' lengths say
            // nothing of its bench files' settings.
            let longer: Vec<&String> = by_target
                .iter()
                .filter(|(target, _)| plan.told_apart.contains(target))
                .flat_map(|(_, names)| names)
                .collect();
            let lengths: Vec<_> = participants
                .iter()
                .flat_map(|p| (0..look).map(move |b| (p, b)))
                .map(|(p, b)| {
                    let mut lengths = runner.lengths(p, b);
                    lengths.retain(|l| !longer.contains(&&l.name));
                    lengths
                })
                .collect();
            if let Some(warning) = ready.bench.after_first_look(&lengths, &plan) {
                progress.note(&Measuring::Warning(&warning).words());
                told.push(warning);
            }
        }
        let (Some(decide), false) = (stop.decide, i + 1 == looks.len()) else {
            break;
        };
        let so_far = looking.read(&*runner, settings.seed)?;
        let asked = Asked {
            look,
            first: i == 0,
            looks: looks.len() as u32,
            cap: settings.look_plan.max(),
            benchmarks: looking.benchmarks,
        };
        match ask(decide, &so_far, &asked, progress) {
            Some(open) => looking.open = Some(open),
            None => break,
        }
    }
    let mut results = looking.read(&*runner, settings.seed)?;
    // Read for the last time: what the harnesses wrote goes, unless asked for. A failure to remove it costs
    // disk, not the comparison; the next one clears it first.
    if !settings.keep_runs {
        let _ = runner.clear(participants);
    }
    // Once per comparison: in the last revision's notes, which the report shows as warnings.
    if let Some(last) = results.last_mut() {
        last.notes.extend(told);
    }
    Ok(results)
}

/// The benchmarks of each bench target, as the harnesses list them with the user's filter (only those of
/// the part under `--partition`), when there is more than one look or a part: a pair lists BASE's; a race,
/// or a part of the benchmarks, every revision's, since any may have its own. A target with nothing in
/// the part is left out: it does not run.
fn listed_targets(
    runner: &dyn Runner,
    ready: Ready<'_>,
    settings: &LookSettings<'_>,
    stop: &EarlyStop<'_>,
    looks: usize,
) -> Result<ByTarget, MeasureError> {
    let part = ready.part;
    let listed = match (stop.decide, part) {
        (Some(Decider::Several(_)), _) | (_, Some(_)) => ready.participants,
        _ => ready.participants.get(..1).unwrap_or_default(),
    };
    let mut by_target: ByTarget = Vec::new();
    for p in listed.iter().filter(|_| looks > 1 || part.is_some()) {
        for b in &p.binaries {
            let mut names = runner.list(b, settings.filter, &p.label)?;
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
    by_target.retain(|(_, names)| part.is_none() || !names.is_empty());
    Ok(by_target)
}

/// What the bench files' settings cost, said once, before the first look (and kept for the report: the
/// warnings returned), the bench targets whose criterion takes whole seconds said apart (`whole_seconds`,
/// the plan's `told_apart`); an error when `--budget` leaves no time for one block of runs.
fn before_runs(
    runner: &dyn Runner,
    ready: Ready<'_>,
    settings: &LookSettings<'_>,
    stop: &EarlyStop<'_>,
    by_target: &ByTarget,
    progress: &Progress,
) -> Result<(RunPlan, Vec<String>), MeasureError> {
    let looks = settings.look_plan.looks();
    let whole = whole_seconds(
        ready.participants,
        settings.warm_up_secs,
        settings.measurement_secs,
    );
    let plan = RunPlan {
        revisions: ready.participants.len(),
        first_look: looks.first().copied().unwrap_or(settings.runs),
        max_runs: settings.look_plan.max(),
        benchmarks: benchmark_counts(runner, by_target, ready, settings),
        budget_secs: settings.budget.map(|b| b.as_secs_f64()),
        told_apart: whole.targets,
    };
    let (notes, mut told) = ready.bench.before_runs(&plan);
    for note in notes {
        progress.note(&note);
    }
    told.extend(whole.words);
    for warning in &told {
        progress.note(&Measuring::Warning(warning).words());
    }
    let per_run = plan
        .benchmarks
        .iter()
        .map(|(target, _)| ready.bench.run_secs(target))
        .fold(settings.run_secs().max(whole.run_secs), f64::max);
    if let Some(budget) = settings.budget {
        let benchmarks: usize = by_target.iter().map(|(_, n)| n.len()).sum();
        // One block: every benchmark once per side, warm-up and measurement.
        let block = per_run * (benchmarks.max(1) * ready.participants.len()) as f64;
        if stop.clock.since_start().as_secs_f64() + block > budget.as_secs_f64() {
            return Err(MeasureError::Option {
                flag: "--budget",
                value: format!("{}s", budget.as_secs()),
                expected: "time for at least one block of runs after the builds (every benchmark once per \
                           revision, warm-up and measurement)",
            });
        }
    }
    Ok((plan, told))
}

/// What criterion before 0.4 does to the runs ([`BenchBinary::whole_seconds`]): a warning per bench
/// target whose runs take longer than asked, and the longest such run (0 when none).
struct WholeSeconds {
    words: Vec<String>,
    run_secs: f64,
    /// The bench targets.
    targets: Vec<String>,
}

/// The bench targets of `participants` whose criterion takes whole seconds, when the runs ask for less.
fn whole_seconds(
    participants: &[Participant],
    warm_up_secs: f64,
    measurement_secs: f64,
) -> WholeSeconds {
    let asked = (warm_up_secs, measurement_secs);
    let ran = (
        to_whole_seconds(warm_up_secs),
        to_whole_seconds(measurement_secs),
    );
    let mut told = WholeSeconds {
        words: vec![],
        run_secs: 0.0,
        targets: vec![],
    };
    if ran == asked {
        return told;
    }
    for binary in participants.iter().flat_map(|p| &p.binaries) {
        let Some(versions) = &binary.whole_seconds else {
            continue;
        };
        let words = Measuring::WholeSeconds {
            target: &binary.target,
            versions,
            asked,
            ran,
        }
        .words();
        if !told.words.contains(&words) {
            told.words.push(words);
        }
        if !told.targets.contains(&binary.target) {
            told.targets.push(binary.target.clone());
        }
        told.run_secs = ran.0 + ran.1;
    }
    told
}

/// Says how the runs are planned: their number, or the looks, and the seed that repeats their order.
fn tell_plan(looks: &[u32], seed: u64, progress: &Progress) {
    let plan = match looks {
        [only] => Measuring::FixedPlan { runs: *only, seed },
        _ => Measuring::SequentialPlan { looks, seed },
    };
    progress.note(&plan.words());
}

/// The number of benchmarks of each bench target: as listed for the looks; else, when the projection of
/// the plan may have something to say (`ready.may_tell`), as the first revision's executables list them (a
/// target that does not answer criterion's `--list` is left out); else none.
fn benchmark_counts(
    runner: &dyn Runner,
    by_target: &ByTarget,
    ready: Ready<'_>,
    settings: &LookSettings<'_>,
) -> Vec<(String, usize)> {
    if !by_target.is_empty() {
        return by_target
            .iter()
            .map(|(t, names)| (t.clone(), names.len()))
            .collect();
    }
    if !ready.may_tell {
        return vec![];
    }
    ready
        .participants
        .first()
        .map(|p| {
            p.binaries
                .iter()
                .filter_map(|b| {
                    let names = runner.list(b, settings.filter, &p.label).ok()?;
                    Some((b.target.clone(), names.len()))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The state of the loop between looks: which benchmarks each participant still runs, how many blocks
/// ran each, the failures so far.
struct Looking<'a> {
    participants: &'a [Participant],
    by_target: &'a ByTarget,
    part: Option<&'a [String]>,
    stop: &'a EarlyStop<'a>,
    /// The benchmarks listed for the looks, over all targets.
    benchmarks: usize,
    /// Per participant: the benchmarks it still runs (`None`: all).
    open: Option<Vec<Vec<String>>>,
    /// Per participant: how many blocks ran each benchmark.
    ran: Vec<HashMap<String, u32>>,
    /// The blocks run so far.
    done: u32,
    failures: Failures,
    /// When the runs began, on the budget's clock.
    runs_began: Duration,
}

impl<'a> Looking<'a> {
    fn new(ready: Ready<'a>, by_target: &'a ByTarget, stop: &'a EarlyStop<'a>) -> Looking<'a> {
        let participants = ready.participants;
        Looking {
            participants,
            by_target,
            part: ready.part,
            stop,
            benchmarks: by_target.iter().map(|(_, n)| n.len()).sum(),
            open: ready
                .part
                .map(|part| vec![part.to_vec(); participants.len()]),
            ran: vec![HashMap::new(); participants.len()],
            done: 0,
            failures: Failures::default(),
            runs_began: stop.clock.since_start(),
        }
    }

    /// Whether `--budget` leaves no time for the look after `look` runs: the next look costs about what
    /// the runs so far cost per block and open benchmark. Said, and recorded in the early stop, when so.
    fn budget_cut(&self, look: u32, budget: Option<Duration>, progress: &Progress) -> bool {
        let (Some(budget), true) = (budget, self.done > 0) else {
            return false;
        };
        let open_now = self.open.as_ref().map_or(self.benchmarks as f64, |o| {
            o.iter().map(Vec::len).sum::<usize>() as f64 / o.len().max(1) as f64
        });
        let now = self.stop.clock.since_start();
        let per_block = (now - self.runs_began).as_secs_f64() / f64::from(self.done);
        let next =
            per_block * f64::from(look - self.done) * open_now / self.benchmarks.max(1) as f64;
        if now.as_secs_f64() + next <= budget.as_secs_f64() {
            return false;
        }
        let cut = Measuring::BudgetCut {
            budget_secs: budget.as_secs(),
            look,
            open: open_now,
            done: self.done,
        };
        progress.note(&cut.words());
        self.stop.cut_by_budget.set(true);
        true
    }

    /// Runs the blocks up to `look` of the benchmarks still open.
    fn run_to(
        &mut self,
        runner: &dyn Runner,
        look: u32,
        settings: &LookSettings<'_>,
        progress: &Progress,
    ) -> Result<(), MeasureError> {
        for (p, counts) in self.ran.iter_mut().enumerate() {
            for name in self.by_target.iter().flat_map(|(_, names)| names) {
                if self.open.as_ref().is_none_or(|o| o[p].contains(name)) {
                    *counts.entry(name.clone()).or_default() += look - self.done;
                }
            }
        }
        let selection = RunSelection {
            open: self.open.as_deref(),
            by_target: self.by_target,
            partitioned: self.part.is_some(),
        };
        let blocks = Blocks {
            participants: self.participants,
            seed: settings.seed,
            of: settings.look_plan.max(),
        };
        blocks::run_blocks(
            runner,
            blocks,
            self.done..look,
            selection,
            progress,
            &mut self.failures,
        )?;
        self.done = look;
        Ok(())
    }

    /// Every participant's results of the blocks run so far.
    fn read(&self, runner: &dyn Runner, seed: u64) -> Result<Vec<Results>, MeasureError> {
        blocks::read_all(
            runner,
            self.participants,
            seed,
            self.done,
            &self.ran,
            &self.failures,
        )
    }
}

/// Where the analysis is asked: after `look` runs (`first`: the first look) of a plan of `looks` looks
/// with `cap` runs at the last, `benchmarks` listed.
struct Asked {
    look: u32,
    first: bool,
    looks: u32,
    cap: u32,
    benchmarks: usize,
}

/// Asks the analysis which benchmarks each participant still runs after a look, and says how the look
/// went; `None` when the runs end (none is open, or a pair's results are not two).
fn ask(
    decide: Decider<'_>,
    so_far: &[Results],
    asked: &Asked,
    progress: &Progress,
) -> Option<Vec<Vec<String>>> {
    let look = asked.look;
    // Decided and stopped undecided, when the pair's analysis says (a race counts only what runs on).
    let mut counts: Option<(usize, usize)> = None;
    let still_open = match decide {
        Decider::Pair(decide) => {
            let [base, head] = so_far else {
                return None;
            };
            let decision = decide(base, head, asked.looks);
            if asked.first && !decision.out_of_reach_at_cap.is_empty() {
                progress.note(&crate::report::words::out_of_reach_at_cap(
                    look,
                    asked.cap,
                    asked.benchmarks,
                    &decision,
                ));
            }
            counts = Some((decision.decided, decision.stopped));
            vec![decision.open.clone(), decision.open]
        }
        Decider::Several(decide) => decide(so_far, asked.looks),
    };
    let mut open_anywhere: Vec<&String> = still_open.iter().flatten().collect();
    open_anywhere.sort();
    open_anywhere.dedup();
    let open = open_anywhere.len();
    let line = match counts {
        Some((decided, stopped)) => {
            crate::report::words::look_progress(look, decided, stopped, open)
        }
        None if open == 0 => Measuring::AllDecided { look }.words(),
        None => Measuring::RaceLook {
            look,
            total: asked.benchmarks,
            open,
        }
        .words(),
    };
    progress.note(&line);
    (open > 0).then_some(still_open)
}

#[cfg(test)]
mod tests;
