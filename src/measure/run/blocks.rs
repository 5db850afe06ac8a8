//! Running the blocks of a comparison: the runs the schedule draws from the seed (`schedule`), narrowed to
//! the benchmarks still open (`selection`), handed to the [`Runner`] one turn at a time (one bench target
//! in one block, every revision's run of it); a target that fails at one side stops there and is left
//! out (`failures`). Then each participant's runs read back through the runner and joined, each run kept
//! apart (`collect`). When a revision was linked in several layouts, block b runs layout b mod L.
//!
//! Must not: start a process itself (the runner does), or decide anything.

use std::collections::HashMap;
use std::ops::Range;

use super::collect::collect;
use super::failures::Failures;
use super::runner::{RunError, Runner, Start, Turn};
use super::schedule::{self, ScheduledRun, schedule};
use super::selection::RunSelection;
use crate::measure::MeasureError;
use crate::measure::prepare::participant::Participant;
use crate::measure::progress::Progress;
use crate::model::Results;
use crate::report::words::measuring::Measuring;

/// The blocks of one comparison: whose runs, in the order drawn from which seed, out of how many.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Blocks<'a> {
    pub participants: &'a [Participant],
    /// The seed of the blocks' order.
    pub seed: u64,
    /// The most blocks the plan may run, for progress.
    pub of: u32,
}

/// Runs the blocks `range` of the schedule drawn from the seed (the same order whatever range is asked)
/// through `runner`, with `selection`'s benchmarks, counting failures in `failures`.
pub(crate) fn run_blocks(
    runner: &dyn Runner,
    blocks: Blocks<'_>,
    range: Range<u32>,
    selection: RunSelection<'_>,
    progress: &Progress,
    failures: &mut Failures,
) -> Result<(), MeasureError> {
    let participants = blocks.participants;
    let steps: Vec<ScheduledRun> = schedule(range.end, participants, blocks.seed)
        .into_iter()
        .filter(|s| range.contains(&s.block))
        .filter(|s| filter(participants, selection, s).is_some())
        .collect();
    progress.start_runs(steps.len() as u64);
    for runs in schedule::turns(&steps, participants) {
        let starts: Vec<Start<'_>> = runs
            .iter()
            .map(|s| Start {
                participant: &participants[s.participant],
                binary: &participants[s.participant].binaries[s.binary],
                block: s.block,
                filter: filter(participants, selection, s).flatten(),
            })
            .collect();
        let mut turn = Going {
            runner,
            runs,
            starts: &starts,
            participants,
            failures: &mut *failures,
            progress,
            of: blocks.of,
        };
        runner.start_turn(&starts, &mut turn)?;
    }
    progress.finish();
    Ok(())
}

/// The filter of `step`'s run under `selection` (`RunSelection::filter`).
fn filter(
    participants: &[Participant],
    selection: RunSelection<'_>,
    step: &ScheduledRun,
) -> Option<Option<String>> {
    let binary = &participants[step.participant].binaries[step.binary];
    selection.filter(step.participant, &binary.target, binary.harness)
}

/// The scheduler's side of one turn: a run goes unless a failure stopped its target, and each outcome is
/// counted, a failure at one side left out there.
struct Going<'a> {
    runner: &'a dyn Runner,
    runs: &'a [ScheduledRun],
    starts: &'a [Start<'a>],
    participants: &'a [Participant],
    failures: &'a mut Failures,
    progress: &'a Progress,
    of: u32,
}

impl Turn for Going<'_> {
    fn goes(&mut self, index: usize) -> bool {
        let start = &self.starts[index];
        let target = &start.binary.target;
        if !self.failures.runs(
            self.participants.len(),
            self.runs[index].participant,
            target,
        ) {
            self.progress.done_one();
            return false;
        }
        self.progress
            .step(&start.participant.label, target, start.block + 1, self.of);
        true
    }

    fn ended(&mut self, index: usize, outcome: Result<(), RunError>) -> Result<(), MeasureError> {
        let start = &self.starts[index];
        let (participant, target) = (self.runs[index].participant, &start.binary.target);
        self.failures.started(participant, target, outcome.is_ok());
        match outcome {
            Ok(()) => {}
            Err(RunError::Fatal(error)) => return Err(error),
            Err(RunError::Failed {
                error,
                code,
                stderr,
            }) => {
                // At every participant (or the only one): the error, as it always was.
                if self.failures.everywhere(self.participants.len(), target) {
                    return Err(*error);
                }
                let benchmarks = listed_everywhere(self.runner, self.participants, target);
                self.progress.note(
                    &Measuring::TargetFailed {
                        target,
                        revision: &start.participant.label,
                        code,
                    }
                    .words(),
                );
                self.failures
                    .record(participant, target, code, &stderr, benchmarks);
            }
        }
        self.progress.done_one();
        Ok(())
    }
}

/// The benchmarks of `target` as every participant's executables list them, once each, sorted; a listing
/// that fails gives none.
fn listed_everywhere(
    runner: &dyn Runner,
    participants: &[Participant],
    target: &str,
) -> Vec<String> {
    let mut benchmarks: Vec<String> = participants
        .iter()
        .flat_map(|q| {
            q.binaries
                .iter()
                .filter(|b| b.target == target)
                .map(move |b| (q, b))
        })
        .flat_map(|(q, b)| runner.list(b, None, &q.label).unwrap_or_default())
        .collect();
    benchmarks.sort();
    benchmarks.dedup();
    benchmarks
}

/// Each participant's runs of the first `blocks` blocks (in the participants' order); `ran[i]` gives, per
/// benchmark, the blocks participant i ran it in (fewer than `blocks` when it stopped early, decided, or
/// sat out looks of a race), so that it is not reported missing from the others. The targets that failed
/// at one participant are taken out and left out there ([`Failures::apply`]); a participant with none of
/// its benchmarks left is an error unless a failure took them.
pub(crate) fn read_all(
    runner: &dyn Runner,
    participants: &[Participant],
    seed: u64,
    blocks: u32,
    ran: &[HashMap<String, u32>],
    failures: &Failures,
) -> Result<Vec<Results>, MeasureError> {
    let none = HashMap::new();
    // The session of these blocks: the seed of their order and the revisions that ran in them, so that the
    // blocks of two `record` runs of one seed are never taken for one another's.
    let mut key = seed.to_le_bytes().to_vec();
    for p in participants {
        key.extend(p.origin.as_bytes());
        key.push(0);
    }
    let session = crate::partition::fnv1a64(&key);
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
                    runner.read(p, b).map(|mut r| {
                        // Each run is tagged with its block: what `--paired` pairs BASE's and HEAD's
                        // runs by (`docs/replication.md` §7).
                        let block = Some(crate::model::Block { session, index: b });
                        for benchmark in &mut r.benchmarks {
                            benchmark.runs.set_block(block);
                        }
                        (r, layout)
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            // A failed target's benchmarks are taken out below: no note that they missed runs.
            let mut stopped = ran.get(i).unwrap_or(&none).clone();
            for name in failures.benchmarks() {
                stopped.insert(name.clone(), 0);
            }
            let collected = collect(&p.origin, runs, &stopped);
            // A side whose every benchmark its runs left out is compared as such (each listed as not
            // compared) beside the others; alone (`record`) it has nothing to give.
            if collected.benchmarks.is_empty()
                && (collected.left_out.is_empty() || participants.len() == 1)
                && !failures.any_at(i)
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

#[cfg(test)]
mod tests;
