//! The bench targets whose process failed (a panic, a signal) at some participants while the others ran
//! them: they stop running (at the participant that failed at once, at the others once they have run them
//! since), their benchmarks are taken out of every side's results, and each is left out at the side that
//! failed ([`Reason::Failed`]), so that one benchmark that panics at HEAD leaves the rest to compare. A
//! target that fails at every participant, or at the only one (`record`), is the error of its last
//! failure.
//!
//! Must not: start a run, or word what it records (`report/words/measuring.rs` does).

use std::collections::HashMap;

use crate::model::Results;
use crate::model::coverage::{Granularity, LeftOut, Reason};

/// One bench target whose process failed (a panic, a signal) at one participant.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) participant: usize,
    pub(crate) target: String,
    /// Runs of it started at that participant, the failed one included.
    pub(crate) runs: usize,
    pub(crate) exit_codes: Vec<Option<i32>>,
    /// The first lines of its standard error.
    pub(crate) message: String,
    /// Its benchmarks as the participants list them: taken out of every side's results.
    pub(crate) benchmarks: Vec<String>,
}

/// The failures so far, and how many runs of each (participant, target) started.
#[derive(Debug, Default)]
pub(crate) struct Failures {
    pub(crate) failed: Vec<Failure>,
    /// (participant, target): how many runs of it have started and succeeded.
    pub(crate) started: HashMap<(usize, String), (usize, usize)>,
}

impl Failures {
    /// Whether `participant` (of `participants`) still runs `target`.
    pub(crate) fn runs(&self, participants: usize, participant: usize, target: &str) -> bool {
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

    /// Counts a run of `target` at `participant` that started, and whether it succeeded.
    pub(crate) fn started(&mut self, participant: usize, target: &str, ok: bool) {
        let counts = self
            .started
            .entry((participant, target.to_string()))
            .or_default();
        counts.0 += 1;
        counts.1 += usize::from(ok);
    }

    /// Whether a failure of `target` now would be its failure at every one of `participants` (or at the
    /// only one): the comparison then stops with its error.
    pub(crate) fn everywhere(&self, participants: usize, target: &str) -> bool {
        let others = self.failed.iter().filter(|f| f.target == target).count();
        others + 1 >= participants
    }

    /// Records the failure of `participant`'s run of `target`, which ended with `code` and printed
    /// `stderr`; `benchmarks`: the target's benchmarks as every participant lists them.
    pub(crate) fn record(
        &mut self,
        participant: usize,
        target: &str,
        code: Option<i32>,
        stderr: &str,
        benchmarks: Vec<String>,
    ) {
        let runs = self
            .started
            .get(&(participant, target.to_string()))
            .map_or(1, |&(n, _)| n);
        self.failed.push(Failure {
            participant,
            target: target.to_string(),
            runs,
            exit_codes: vec![code],
            message: first_lines(stderr),
            benchmarks,
        });
    }

    /// The benchmarks of every failed target.
    pub(crate) fn benchmarks(&self) -> impl Iterator<Item = &String> {
        self.failed.iter().flat_map(|f| &f.benchmarks)
    }

    /// Whether some target failed at `participant`.
    pub(crate) fn any_at(&self, participant: usize) -> bool {
        self.failed.iter().any(|f| f.participant == participant)
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

/// A failed process's first lines: from the first that says it panicked, else from the start, at most
/// [`FIRST_LINES`](crate::measure::process::FIRST_LINES).
fn first_lines(stderr: &str) -> String {
    crate::measure::process::first_lines(stderr, |l| l.contains("panicked at"))
}
