//! Warnings about the inputs of a comparison as a whole, each check a function of its own: the same results
//! given twice, one-process inputs, small samples, names on one side only, environments that differ, and
//! what the readers noted. [`suite_warnings`] lists them in the order the reports print them.

use super::gate::PROCESS_SD_PERCENT;
use super::speedup_test::is_small;
use super::{BenchmarkAnalysis, Cause, Warning, WarningKind};
use crate::model::{Basis, Environment, Suite};

/// Warnings about the inputs as a whole, in the reports' order.
pub(super) fn suite_warnings(suite: &Suite, benchmarks: &[BenchmarkAnalysis]) -> Vec<Warning> {
    [
        same_samples(suite),
        one_process(suite, benchmarks),
        small_samples(suite, benchmarks),
        unmatched(suite),
        environment_warning(&suite.base_environment, &suite.head_environment),
    ]
    .into_iter()
    .flatten()
    .chain(note_warnings(suite))
    .collect()
}

/// BASE and HEAD hold the very same samples: the same results were given twice.
fn same_samples(suite: &Suite) -> Option<Warning> {
    (!suite.pairs.is_empty() && suite.pairs.iter().all(|p| p.base.runs == p.head.runs)).then(|| {
        Warning::new(
            WarningKind::Input,
            "BASE and HEAD hold the very same samples for every benchmark: the same results were \
             given twice",
        )
        .with_hint(
            "for criterion, save two baselines (`cargo bench --bench NAME -- --save-baseline before`, \
             then `after`) and compare them: `cargo speedup compare before after`",
        )
    })
}

/// Benchmarks measured in one process per side, whose confidence covers those two processes only.
fn one_process(suite: &Suite, benchmarks: &[BenchmarkAnalysis]) -> Option<Warning> {
    let one_process = benchmarks
        .iter()
        .filter(|b| b.basis == Basis::OneProcess)
        .count();
    (one_process > 0).then(|| {
        Warning::new(
            WarningKind::OneProcess,
            format!(
                "{one_process} of {} benchmarks come from one process per side (a criterion baseline or \
                 stream): their samples show the noise inside that process, not how much a level moves \
                 from one process to the next, so their confidence covers those two processes only; the \
                 gate fails them only beyond the slowdown that process effects of {PROCESS_SD_PERCENT} % \
                 could make",
                suite.pairs.len()
            ),
        )
        .with_hint(
            "measure several process runs per side: `cargo speedup BASE..HEAD` does, and so do \
             `record` files and the raw JSON's `runs`",
        )
    })
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
    // The reports list the names themselves ("Only in BASE, not compared: ..."; JSON `unmatched`): the
    // warning counts them, so that a long list is not printed twice.
    let (base_only, head_only) = (suite.base_only.len(), suite.head_only.len());
    (base_only + head_only > 0).then(|| {
        Warning::new(
            WarningKind::Unmatched,
            format!(
                "{} benchmark(s) are present on one side only and are not compared ({base_only} only in \
                 BASE, {head_only} only in HEAD)",
                base_only + head_only
            ),
        )
        .with_hint("benchmarks are matched by exact name: rename consistently or compare the same set")
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
    let mut what = Vec::new();
    if differs(&base.cpu, &head.cpu) {
        what.push("CPU");
    }
    if differs(&base.rustc, &head.rustc) {
        what.push("rustc version");
    }
    if differs(&base.host, &head.host) {
        what.push("host");
    }
    (!what.is_empty()).then(|| {
        Warning::new(
            WarningKind::EnvironmentDiffers,
            format!(
                "BASE and HEAD were measured with a different {}: the difference may come from the machine, \
                 not the change",
                what.join(" and ")
            ),
        )
        .with_hint("measure both sides on one machine, e.g. `cargo speedup BASE..HEAD`")
    })
}
