//! Warnings about the inputs of a comparison as a whole, each check a function of its own: the same results
//! given twice, one-process inputs, small samples, names on one side only, environments that differ, and
//! what the readers noted. [`suite_warnings`] lists them in the order the reports print them.

use super::gate::PROCESS_SD_PERCENT;
use super::speedup_test::is_small;
use super::{BenchmarkAnalysis, Cause, Differs, Warning, WarningKind};
use crate::model::{Basis, Environment, Suite};

/// Warnings about the inputs as a whole, in the reports' order.
/// `alpha` is each benchmark's risk (per look), at which one-process benchmarks are held to the floor.
pub(super) fn suite_warnings(
    suite: &Suite,
    benchmarks: &[BenchmarkAnalysis],
    alpha: f64,
) -> Vec<Warning> {
    [
        same_samples(suite),
        one_process(suite, benchmarks, alpha),
        not_paired(benchmarks),
        small_samples(suite, benchmarks),
        unmatched(suite),
        environment_warning(&suite.base_environment, &suite.head_environment),
    ]
    .into_iter()
    .flatten()
    .chain(note_warnings(suite))
    .collect()
}

/// BASE and HEAD hold the very same samples: the same results were given twice. Only times count: equal
/// counts of a deterministic measurement are what unchanged code gives (`docs/verdicts.md` §7).
fn same_samples(suite: &Suite) -> Option<Warning> {
    let mut timed = suite
        .pairs
        .iter()
        .filter(|p| !matches!(p.base.unit, crate::model::Unit::Count(_)))
        .peekable();
    (timed.peek().is_some() && timed.all(|p| p.base.runs == p.head.runs))
        .then(|| Warning::of(WarningKind::Input, Cause::SameSamples))
}

/// Benchmarks measured in one process per side, whose confidence covers those two processes only.
fn one_process(suite: &Suite, benchmarks: &[BenchmarkAnalysis], alpha: f64) -> Option<Warning> {
    let count = benchmarks
        .iter()
        .filter(|b| {
            b.basis == Basis::OneProcess
                || (b.basis == Basis::ProcessRuns && b.runs.base == 1 && b.runs.head == 1)
        })
        .count();
    (count > 0).then(|| {
        Warning::of(
            WarningKind::OneProcess,
            Cause::OneProcess {
                count,
                total: suite.pairs.len(),
                process_sd_pct: PROCESS_SD_PERCENT,
                floor_pct: super::gate::noise_floor(alpha, 1),
            },
        )
    })
}

/// Under `--paired`, the tested benchmarks whose runs could not be paired by block, said once for the suite
/// with the first one's reason: the independent design decided them (`docs/replication.md` §7).
fn not_paired(benchmarks: &[BenchmarkAnalysis]) -> Option<Warning> {
    let mut unpaired = benchmarks.iter().filter_map(|b| match b.pairing {
        Some(super::Pairing::Unpaired(reason)) => Some(reason),
        _ => None,
    });
    let reason = unpaired.next()?;
    let total = benchmarks.iter().filter(|b| b.pairing.is_some()).count();
    Some(Warning::of(
        WarningKind::Input,
        Cause::NotPaired {
            count: 1 + unpaired.count(),
            total,
            reason,
        },
    ))
}

/// Benchmarks with 3 to 30 observations on a side, where the protocols lean on their small-sample models.
fn small_samples(suite: &Suite, benchmarks: &[BenchmarkAnalysis]) -> Option<Warning> {
    // Fewer than 3 runs on a side has a warning of its own per benchmark.
    let small = benchmarks
        .iter()
        .map(|b| b.base.n.min(b.head.n))
        .filter(|&n| n >= 3 && is_small(n))
        .count();
    (small > 0).then(|| {
        Warning::of(
            WarningKind::TooFewSamples,
            Cause::SmallSamples {
                small,
                total: suite.pairs.len(),
            },
        )
        // A detail: each benchmark whose verdict these models put at risk has a warning of its own.
        .as_detail()
    })
}

/// Names present on one side only (the reports list them; the warning counts them).
fn unmatched(suite: &Suite) -> Option<Warning> {
    let (base_only, head_only) = (suite.base_only.len(), suite.head_only.len());
    (base_only + head_only > 0).then(|| {
        Warning::of(
            WarningKind::Unmatched,
            Cause::Unmatched {
                base_only,
                head_only,
            },
        )
    })
}

/// The inputs' reading notes as warnings.
pub(super) fn note_warnings(suite: &Suite) -> impl Iterator<Item = Warning> + '_ {
    suite
        .notes
        .iter()
        .map(|note| Warning::new(WarningKind::Input, note.clone()))
}

/// The two sides were measured on different machines or toolchains.
fn environment_warning(base: &Environment, head: &Environment) -> Option<Warning> {
    let differs =
        |a: &Option<String>, b: &Option<String>| matches!((a, b), (Some(a), Some(b)) if a != b);
    let what: Vec<Differs> = [
        (Differs::Cpu, differs(&base.cpu, &head.cpu)),
        (Differs::Rustc, differs(&base.rustc, &head.rustc)),
        (Differs::Host, differs(&base.host, &head.host)),
    ]
    .into_iter()
    .filter_map(|(what, differs)| differs.then_some(what))
    .collect();
    (!what.is_empty()).then(|| {
        Warning::of(
            WarningKind::EnvironmentDiffers,
            Cause::EnvironmentDiffers(what),
        )
    })
}
