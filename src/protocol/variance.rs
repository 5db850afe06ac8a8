//! The variance components of one side's runs, on log times (`docs/replication.md` §5), for the report:
//! within a process, between processes and between layouts. They describe the noise; no decision uses them.

use super::VarianceComponents;
use crate::model::{Run, Runs};
use crate::stats::variance_components::one_way;

/// The variance components of one side's runs, on log times (`docs/replication.md` §5): within a process
/// (the samples of each run around their run), between processes (the runs of one layout around each other,
/// beyond what the within-process noise explains) and between layouts (when several layouts each ran more
/// than once; with one layout per run it cannot be told apart from the process and is `None`). `None` when
/// the side has fewer than two runs or no run with two samples.
pub(super) fn variance_components(runs: &Runs) -> Option<VarianceComponents> {
    let logs: Vec<Vec<f64>> = runs
        .runs()
        .iter()
        .map(|r| r.samples().iter().map(|v| v.ln()).collect())
        .collect();
    let groups: Vec<&[f64]> = logs.iter().map(Vec::as_slice).collect();
    let process = one_way(&groups).ok()?;
    let between_layout = layout_component(runs.runs());
    let percent = |variance: f64| 100.0 * variance.sqrt();
    Some(VarianceComponents {
        within_process_pct: percent(process.within),
        between_process_pct: percent(process.between),
        between_layout_pct: between_layout.map(percent),
        layouts: layout_count(runs.runs()),
        design_effect: process.design_effect,
        samples_per_run: logs.iter().map(Vec::len).sum::<usize>() as f64 / logs.len() as f64,
    })
}

/// The number of distinct layouts among `runs`; 1 when none is tagged.
fn layout_count(runs: &[Run]) -> usize {
    let mut layouts: Vec<u32> = runs.iter().filter_map(Run::layout).collect();
    layouts.sort_unstable();
    layouts.dedup();
    layouts.len().max(1)
}

/// The between-layout variance of log run values, when at least two layouts each ran at least twice.
fn layout_component(runs: &[Run]) -> Option<f64> {
    let mut by_layout: Vec<(u32, Vec<f64>)> = Vec::new();
    for run in runs {
        let layout = run.layout()?;
        match by_layout.iter_mut().find(|(l, _)| *l == layout) {
            Some((_, values)) => values.push(run.value().ln()),
            None => by_layout.push((layout, vec![run.value().ln()])),
        }
    }
    if by_layout.iter().filter(|(_, v)| v.len() >= 2).count() < 2 {
        return None;
    }
    let groups: Vec<&[f64]> = by_layout.iter().map(|(_, v)| v.as_slice()).collect();
    one_way(&groups).ok().map(|c| c.between)
}
