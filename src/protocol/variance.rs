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
///
/// Those two cases are told before anything is allocated or any logarithm taken: they are exactly the cases
/// where [`one_way`] refuses the runs (fewer than two groups, or no more values than groups; a run is never
/// empty), and they are the common ones (raw timing JSON: every run one value). Otherwise the logs of all
/// runs go into one buffer, in run order, and each run is a slice of it: [`one_way`] sees the same values in
/// the same groups as it did with a vector per run, so it sums in the same order and gives the same bits.
pub(super) fn variance_components(runs: &Runs) -> Option<VarianceComponents> {
    let runs = runs.runs();
    if runs.len() < 2 || runs.iter().all(|r| r.samples().len() < 2) {
        return None;
    }
    let total: usize = runs.iter().map(|r| r.samples().len()).sum();
    let mut logs = Vec::with_capacity(total);
    for run in runs {
        logs.extend(run.samples().iter().map(|v| v.ln()));
    }
    let mut groups: Vec<&[f64]> = Vec::with_capacity(runs.len());
    let mut rest = logs.as_slice();
    for run in runs {
        let (group, after) = rest.split_at(run.samples().len());
        groups.push(group);
        rest = after;
    }
    let process = one_way(&groups).ok()?;
    let between_layout = layout_component(runs);
    let percent = |variance: f64| 100.0 * variance.sqrt();
    Some(VarianceComponents {
        within_process_pct: percent(process.within),
        between_process_pct: percent(process.between),
        between_layout_pct: between_layout.map(percent),
        layouts: layout_count(runs),
        design_effect: process.design_effect,
        samples_per_run: total as f64 / runs.len() as f64,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{NANOS_RANGE, Sample, Unit};

    /// The computation before runs without two samples returned early and the logs went into one buffer:
    /// a vector of logs per run, kept as the reference the fast path must match bit for bit.
    fn reference(runs: &Runs) -> Option<VarianceComponents> {
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

    fn bits(c: &VarianceComponents) -> (u64, u64, Option<u64>, usize, u64, u64) {
        (
            c.within_process_pct.to_bits(),
            c.between_process_pct.to_bits(),
            c.between_layout_pct.map(f64::to_bits),
            c.layouts,
            c.design_effect.to_bits(),
            c.samples_per_run.to_bits(),
        )
    }

    /// Runs of `sizes` samples each, drawn from `values` in turn, with the layout `layouts(i)` for run `i`.
    fn runs_of(sizes: &[usize], values: &[f64], layouts: impl Fn(usize) -> Option<u32>) -> Runs {
        let mut next = values.iter().copied().cycle();
        let runs = sizes
            .iter()
            .enumerate()
            .map(|(i, &size)| {
                let sample = Sample::new(next.by_ref().take(size).collect(), Unit::Ns)
                    .expect("valid sample");
                Run::new(sample, layouts(i))
            })
            .collect();
        Runs::new(runs).expect("runs")
    }

    /// Values with ties, exact 1 ns (a log of zero), logs of both signs and the extremes a sample may hold.
    fn values() -> Vec<f64> {
        let (low, high) = NANOS_RANGE;
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut out = vec![1.0, 1.0, 1.0, 2.0, 0.5, low, high, 1000.0, 1000.0, 7.25];
        for _ in 0..300 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            // Around 1 µs, rounded to 1/8 ns so that ties recur.
            out.push(1000.0 + ((state >> 40) % 400) as f64 / 8.0);
        }
        out
    }

    #[test]
    fn the_fast_path_gives_the_bits_of_a_vector_per_run() {
        let values = values();
        let mut shapes: Vec<Vec<usize>> = Vec::new();
        for n in [1, 2, 3, 100] {
            shapes.push(vec![1; n]);
            shapes.push(vec![2; n]);
            shapes.push((0..n).map(|i| 1 + i % 3).collect());
            shapes.push((0..n).map(|i| if i == n - 1 { 2 } else { 1 }).collect());
            shapes.push((0..n).map(|i| 1 + (i * 7) % 11).collect());
        }
        let layouts: [&dyn Fn(usize) -> Option<u32>; 4] = [
            &|_| None,
            &|i| Some((i % 2) as u32),
            &|i| Some((i % 3) as u32),
            &|i| (i % 4 != 3).then_some((i % 2) as u32),
        ];
        let (mut some, mut none) = (0, 0);
        for (s, sizes) in shapes.iter().enumerate() {
            for (l, layout) in layouts.iter().enumerate() {
                for offset in [0, 3, 5, 10] {
                    let runs = runs_of(sizes, &values[offset..], layout);
                    let (fast, slow) = (variance_components(&runs), reference(&runs));
                    assert_eq!(
                        fast.as_ref().map(bits),
                        slow.as_ref().map(bits),
                        "sizes {s}, layouts {l}, offset {offset}: {fast:?} vs {slow:?}"
                    );
                    if fast.is_some() { some += 1 } else { none += 1 }
                }
            }
        }
        // Both paths were taken: the early return and the one-way components.
        assert!(some > 100 && none > 50, "{some} computed, {none} refused");
    }

    #[test]
    fn runs_of_one_sample_and_a_single_run_have_no_components() {
        let values = values();
        assert_eq!(
            variance_components(&runs_of(&[1; 100], &values, |_| None)),
            None
        );
        assert_eq!(
            variance_components(&runs_of(&[1; 4], &values, |i| Some(i as u32 % 2))),
            None
        );
        assert_eq!(
            variance_components(&runs_of(&[50], &values, |_| None)),
            None
        );
        let one_pair = variance_components(&runs_of(&[1, 2], &[1.0, 2.0, 4.0], |_| None))
            .expect("a run with two samples");
        // Logs 0 | ln 2, ln 4: within = (ln 2)² / 2, samples per run 1.5.
        assert_eq!(one_pair.samples_per_run, 1.5);
        let within = std::f64::consts::LN_2.powi(2) / 2.0;
        assert!((one_pair.within_process_pct - 100.0 * within.sqrt()).abs() < 1e-12);
    }
}
