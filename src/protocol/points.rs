//! The observations of one benchmark as a picture shows them: one point per process run (its value, the
//! median of its samples) with the spread of the samples inside that run, its interquartile range.
//!
//! Why: a report that draws the per-run distributions of BASE and HEAD needs the runs themselves, which the
//! rest of the analysis only summarises; a bimodal side, one outlying run or a run much noisier than the
//! others are seen here and nowhere else. When the comparison is on the samples of one process per side
//! ([`Basis::OneProcess`]), each sample is a point without spread: that is what the tests compared. It
//! decides nothing.

use crate::model::{Basis, Run, Runs};
use crate::protocol::RunPoint;
use crate::stats::describe::quantile;

/// The points of one side: per run when `basis` is [`Basis::ProcessRuns`], per sample otherwise.
pub fn run_points(runs: &Runs, basis: Basis) -> Vec<RunPoint> {
    match basis {
        Basis::ProcessRuns | Basis::Deterministic => runs.runs().iter().map(point).collect(),
        Basis::OneProcess => runs
            .runs()
            .iter()
            .flat_map(Run::samples)
            .map(|&value| RunPoint {
                value,
                spread: None,
            })
            .collect(),
    }
}

/// A run's value with the type-7 quartiles of its samples, when it has more than one.
fn point(run: &Run) -> RunPoint {
    let samples = run.samples();
    let spread = (samples.len() > 1)
        .then(|| Some((quantile(samples, 0.25).ok()?, quantile(samples, 0.75).ok()?)))
        .flatten();
    RunPoint {
        value: run.value(),
        spread,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Sample, Unit};

    fn run(values: &[f64]) -> Run {
        Run::new(Sample::new(values.to_vec(), Unit::Ns).unwrap(), None)
    }

    #[test]
    fn a_run_is_its_median_with_its_quartiles() {
        // R: quantile(c(1, 2, 3, 4, 10), c(0.25, 0.75)) gives 2 and 4; median 3.
        let runs = Runs::new(vec![run(&[4.0, 1.0, 10.0, 3.0, 2.0]), run(&[7.0])]).unwrap();
        let points = run_points(&runs, Basis::ProcessRuns);
        assert_eq!(
            points,
            vec![
                RunPoint {
                    value: 3.0,
                    spread: Some((2.0, 4.0))
                },
                RunPoint {
                    value: 7.0,
                    spread: None
                }
            ]
        );
    }

    #[test]
    fn one_process_shows_every_sample_without_spread() {
        let runs = Runs::one_process(Sample::new(vec![5.0, 6.0, 9.0], Unit::Ns).unwrap());
        let values: Vec<f64> = run_points(&runs, Basis::OneProcess)
            .iter()
            .map(|p| p.value)
            .collect();
        assert_eq!(values, [5.0, 6.0, 9.0]);
        assert!(
            run_points(&runs, Basis::OneProcess)
                .iter()
                .all(|p| p.spread.is_none())
        );
    }
}
