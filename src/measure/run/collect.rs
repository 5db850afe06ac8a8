//! One revision's runs joined: what each process run measured becomes one [`Run`] of each benchmark it
//! ran, tagged with its layout; the runs are never pooled into one sample (`docs/replication.md`).
//!
//! Must not: read files or start runs (its input is what the runner read), or word its notes itself
//! (`report/words/measuring.rs` does).

use std::collections::HashMap;

use crate::model::coverage::{Granularity, LeftOut};
use crate::model::{Benchmark, Results, Run, Runs};
use crate::report::words::measuring::Measuring;

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
    stopped: &HashMap<String, u32>,
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
                notes.push(
                    Measuring::LeftOutOfSomeRuns {
                        origin,
                        name: &b.name,
                        count: *count,
                        total,
                        reason: &item.reason,
                        measured: runs.len(),
                    }
                    .words(),
                );
            } else if runs.len() < expected {
                notes.push(
                    Measuring::MissedRuns {
                        origin,
                        name: &b.name,
                        ran: runs.len(),
                        expected,
                    }
                    .words(),
                );
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

#[cfg(test)]
mod tests;
