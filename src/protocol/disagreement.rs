//! Where a benchmark's time and its instruction count, compared in one report (`--measure
//! time,instructions`, or results that give both, such as BMF's `latency` and `instructions`), tell
//! different stories (`docs/instruction-counts.md` §7): the time called slower or faster while the count
//! stayed within `--threshold` (the change is not in the instructions executed: memory, I/O or
//! scheduling), the count changed beyond `--threshold` while the time was shown unchanged (the
//! instructions that changed cost no time that the runs could see), or the two moved opposite ways (fewer
//! instructions and a slower time, or the reverse: what changed is how the instructions run).
//!
//! The rule reads the verdicts the analysis took, and decides nothing else: a time left undecided
//! (inconclusive) disagrees with nothing. Must not: word anything (`report` does) or read runs.

use super::{Analysis, BenchmarkAnalysis, Verdict};
use crate::model::Basis;

/// How a benchmark's time and count disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisagreementKind {
    /// The time was called slower or faster, the count stayed within `--threshold`: the change is in
    /// something the count does not see (memory, I/O, scheduling: a sleep, a lock, cache misses).
    TimeNotCount,
    /// The count changed beyond `--threshold`, the time was shown unchanged (equivalent within ±ε): the
    /// instructions that changed cost no time the runs could see.
    CountNotTime,
    /// The time was called slower (faster) while the count fell (grew) beyond `--threshold`: what changed
    /// is how the instructions run (memory, cache, branch prediction, code alignment), not how many.
    Opposite,
}

impl DisagreementKind {
    /// Its name in the JSON report: `time-not-count`, `count-not-time` or `opposite`.
    pub fn name(self) -> &'static str {
        match self {
            DisagreementKind::TimeNotCount => "time-not-count",
            DisagreementKind::CountNotTime => "count-not-time",
            DisagreementKind::Opposite => "opposite",
        }
    }
}

/// One benchmark whose time and instruction count disagree.
#[derive(Debug, Clone, PartialEq)]
pub struct Disagreement {
    /// The benchmark, as its time is named (`NAME`).
    pub benchmark: String,
    /// Its count, as named in the report (`NAME (instructions)`).
    pub count: String,
    /// How they disagree.
    pub kind: DisagreementKind,
    /// The time's verdict (slower, faster, or unchanged).
    pub time: Verdict,
    /// The time's change, HEAD's median over BASE's − 1, in percent.
    pub time_change_pct: f64,
    /// The count's change, HEAD's over BASE's − 1, in percent.
    pub count_change_pct: f64,
}

/// The name of `benchmark`'s instruction count in a report: `benchmark (instructions)` (the name the readers
/// of counts and `--measure instructions` give it, `model::Counted::benchmark_name`).
fn count_name(benchmark: &str) -> String {
    format!("{benchmark} (instructions)")
}

/// HEAD's median over BASE's − 1, in percent.
fn change_pct(b: &BenchmarkAnalysis) -> f64 {
    (b.head.median / b.base.median - 1.0) * 100.0
}

/// How `time` (a tested time) and `count` (its instructions, compared exactly) disagree at the gate's
/// `threshold_pct`, if they do: a count within the threshold either way is "unchanged".
pub fn disagreement(
    time: &BenchmarkAnalysis,
    count: &BenchmarkAnalysis,
    threshold_pct: f64,
) -> Option<Disagreement> {
    if time.unit.is_count() || time.basis == Basis::Deterministic {
        return None;
    }
    if !count.unit.is_count() || count.basis != Basis::Deterministic {
        return None;
    }
    let count_change_pct = change_pct(count);
    let time_change_pct = change_pct(time);
    if !count_change_pct.is_finite() || !time_change_pct.is_finite() {
        return None;
    }
    // Within the threshold either way: an increase as the gate reads it (`gate::count_exceeds`), a
    // decrease by at most the same share of BASE, both without rounding at the threshold itself.
    let (base, head) = (count.base.median, count.head.median);
    let count_unchanged = !crate::protocol::gate::count_exceeds(base, head, threshold_pct)
        && head * 100.0 >= base * (100.0 - threshold_pct);
    let count_fell = !count_unchanged && head < base;
    let kind = match (time.verdict, count_unchanged) {
        (Verdict::Slower | Verdict::Faster, true) => DisagreementKind::TimeNotCount,
        (Verdict::Unchanged, false) => DisagreementKind::CountNotTime,
        (Verdict::Slower, false) if count_fell => DisagreementKind::Opposite,
        (Verdict::Faster, false) if !count_fell => DisagreementKind::Opposite,
        _ => return None,
    };
    Some(Disagreement {
        benchmark: time.name.clone(),
        count: count.name.clone(),
        kind,
        time: time.verdict,
        time_change_pct,
        count_change_pct,
    })
}

/// Every benchmark of `analysis` with both a time and an instruction count that disagree, in the report's
/// order of the times, at the gate's `--threshold`.
pub fn disagreements(analysis: &Analysis) -> Vec<Disagreement> {
    let threshold = analysis.gate.threshold.pct();
    analysis
        .benchmarks
        .iter()
        .filter(|b| !b.unit.is_count())
        .filter_map(|time| {
            let name = count_name(&time.name);
            let count = analysis.benchmarks.iter().find(|b| b.name == name)?;
            disagreement(time, count, threshold)
        })
        .collect()
}

#[cfg(test)]
mod tests;
