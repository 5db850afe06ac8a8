//! What the runs of a comparison say while they run, in words: the plan of the blocks and looks, the core
//! of `--pin`, how a look went, where `--budget` cut the runs, a bench target that failed at one side, and the notes of a
//! side whose benchmarks some runs missed. `measure/run/` raises these as [`Measuring`] values with their
//! numbers and prints (or keeps) the words this module gives them, as nextest keeps its events typed and
//! words them in its reporter.
//!
//! Must not: decide anything, or read back its own text.

use crate::model::coverage::Reason;

/// One thing the runs tell, with its numbers.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Measuring<'a> {
    /// A fixed plan: every run at once, `runs` per revision, in blocks ordered by `seed`.
    FixedPlan { runs: u32, seed: u64 },
    /// A sequential plan: looks after each of `looks` runs per revision, at risk alpha / looks each.
    SequentialPlan { looks: &'a [u32], seed: u64 },
    /// `--budget` (`budget_secs`) leaves no time for the look after `look` runs: `open` benchmarks (on
    /// average over the revisions) are still undecided after `done` runs.
    BudgetCut {
        budget_secs: u64,
        look: u32,
        open: f64,
        done: u32,
    },
    /// A warning worded elsewhere (the bench files' settings), printed as one.
    Warning(&'a str),
    /// `--pin`: every run is pinned to `cpu`; `None`: runs cannot be pinned here (not Linux).
    Pinned { cpu: Option<usize> },
    /// `--duet`: the runs of a block start together on `cores`; `None`: they cannot (this process may use
    /// `allowed` cores, `None` when its mask cannot be read: not Linux), and start one after another.
    Duet {
        cores: Option<[usize; 2]>,
        allowed: Option<usize>,
    },
    /// A race's look after `look` runs decided every benchmark.
    AllDecided { look: u32 },
    /// A race's look after `look` runs: `open` of `total` benchmarks are still open in some revision.
    RaceLook {
        look: u32,
        total: usize,
        open: usize,
    },
    /// The bench target `target` failed at `revision` (exit `code`; `None`: a signal): it is left out.
    TargetFailed {
        target: &'a str,
        revision: &'a str,
        code: Option<i32>,
    },
    /// `origin`'s benchmark `name` was left out of `count` of `total` runs for `reason`, and is compared
    /// on the `measured` runs that measured it.
    LeftOutOfSomeRuns {
        origin: &'a str,
        name: &'a str,
        count: usize,
        total: usize,
        reason: &'a Reason,
        measured: usize,
    },
    /// Bench target `target` uses criterion `versions` (before 0.4), which takes whole seconds only: its
    /// runs warm up `ran.0` s and measure `ran.1` s where `asked` (warm-up, measurement) was asked.
    WholeSeconds {
        target: &'a str,
        versions: &'a str,
        asked: (f64, f64),
        ran: (f64, f64),
    },
    /// `origin`'s benchmark `name` ran in `ran` of the `expected` runs.
    MissedRuns {
        origin: &'a str,
        name: &'a str,
        ran: usize,
        expected: usize,
    },
}

impl Measuring<'_> {
    /// The line as printed on standard error (or kept in a side's notes).
    pub(crate) fn words(&self) -> String {
        match self {
            // One run per revision: exact counts (`--measure instructions`), one block.
            Measuring::FixedPlan { runs: 1, seed } => format!(
                "1 run per revision, in one block, seed {seed} (`--seed {seed}` repeats this order)"
            ),
            Measuring::FixedPlan { runs, seed } => format!(
                "{runs} process runs per revision in randomized blocks, seed {seed} (`--seed {seed}` \
                 repeats this order)"
            ),
            Measuring::SequentialPlan { looks, seed } => format!(
                "process runs per revision in randomized blocks until each benchmark is decided: looks after \
                 {} runs, at risk alpha/{} each; seed {seed} (`--seed {seed}` repeats this order)",
                looks
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                looks.len(),
            ),
            Measuring::BudgetCut {
                budget_secs,
                look,
                open,
                done,
            } => format!(
                "note: the budget ({budget_secs}s) leaves no time for the look after {look} runs: {open} \
                 benchmarks still undecided after {done} runs are inconclusive"
            ),
            Measuring::Warning(text) => format!("warning: {text}"),
            Measuring::Pinned { cpu: Some(cpu) } => {
                format!("every run is pinned to CPU {cpu} (--pin)")
            }
            Measuring::Pinned { cpu: None } => {
                "note: --pin has no effect here: runs can only be pinned to a core on Linux"
                    .to_string()
            }
            Measuring::Duet {
                cores: Some([a, b]),
                ..
            } => format!(
                "the runs of each block start together, one on CPU {a} and one on CPU {b} (--duet)"
            ),
            Measuring::Duet {
                cores: None,
                allowed: Some(n),
            } => format!(
                "note: --duet needs two CPU cores and this process may use {n}: the runs of each block \
                 start one after another, as without --duet"
            ),
            Measuring::Duet {
                cores: None,
                allowed: None,
            } => "note: --duet has no effect here: runs can only be pinned to cores on Linux; the runs \
                  of each block start one after another"
                .to_string(),
            Measuring::AllDecided { look } => {
                format!("every benchmark decided after {look} runs per revision")
            }
            Measuring::RaceLook { look, total, open } => format!(
                "after {look} runs per revision: {} of {total} benchmarks decided, {open} still open",
                total.saturating_sub(*open)
            ),
            Measuring::TargetFailed {
                target,
                revision,
                code,
            } => format!(
                "warning: the benchmark `{target}` of {revision} failed ({}): it is left out, the others \
                 are compared",
                exit_text(*code)
            ),
            Measuring::LeftOutOfSomeRuns {
                origin,
                name,
                count,
                total,
                reason,
                measured,
            } => format!(
                "{origin}: `{name}` was left out of {count} of {total} runs ({}); it is compared on the \
                 {measured} that measured it",
                why(reason)
            ),
            Measuring::WholeSeconds {
                target,
                versions,
                asked,
                ran,
            } => format!(
                "bench target `{target}` uses criterion {versions}, which takes whole seconds only: its runs \
                 warm up for {} s and measure for {} s, not {} s and {} s (about {:.0} times as long \
                 each); criterion 0.4 or later as its dev-dependency runs the shorter ones",
                ran.0,
                ran.1,
                asked.0,
                asked.1,
                (ran.0 + ran.1) / (asked.0 + asked.1)
            ),
            Measuring::MissedRuns {
                origin,
                name,
                ran,
                expected,
            } => format!(
                "{origin}: `{name}` ran in {ran} of {expected} runs; it is compared on those"
            ),
        }
    }
}

/// `exit code N`, or `ended by a signal`.
fn exit_text(code: Option<i32>) -> String {
    match code {
        Some(code) => format!("exit code {code}"),
        None => "ended by a signal".to_string(),
    }
}

/// Why a run left a benchmark out (the reason's data, as the reader gave it).
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

    #[test]
    fn the_plans_name_the_seed_that_repeats_them() {
        assert_eq!(
            Measuring::FixedPlan { runs: 10, seed: 7 }.words(),
            "10 process runs per revision in randomized blocks, seed 7 (`--seed 7` repeats this order)"
        );
        assert_eq!(
            Measuring::FixedPlan { runs: 1, seed: 7 }.words(),
            "1 run per revision, in one block, seed 7 (`--seed 7` repeats this order)"
        );
        assert_eq!(
            Measuring::SequentialPlan {
                looks: &[6, 12, 24],
                seed: 3
            }
            .words(),
            "process runs per revision in randomized blocks until each benchmark is decided: looks after \
             6, 12, 24 runs, at risk alpha/3 each; seed 3 (`--seed 3` repeats this order)"
        );
    }

    #[test]
    fn a_failed_target_says_how_it_ended() {
        let failed = |code| {
            Measuring::TargetFailed {
                target: "boom",
                revision: "HEAD",
                code,
            }
            .words()
        };
        assert_eq!(
            failed(Some(101)),
            "warning: the benchmark `boom` of HEAD failed (exit code 101): it is left out, the others are \
             compared"
        );
        assert!(failed(None).contains("(ended by a signal)"));
    }

    #[test]
    fn a_race_look_counts_the_decided_from_the_open() {
        let look = Measuring::RaceLook {
            look: 12,
            total: 5,
            open: 2,
        };
        assert_eq!(
            look.words(),
            "after 12 runs per revision: 3 of 5 benchmarks decided, 2 still open"
        );
    }
}
