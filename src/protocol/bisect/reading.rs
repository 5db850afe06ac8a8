//! What one comparison of a bisection shows (`docs/bisect.md` §3): the [`Reading`] of the suite, of its
//! one benchmark, or of one named benchmark under `--each` ([`Follow`]), and whether it shows the change
//! sought beyond `--threshold` ([`Reading::shows`]). `cargo speedup bisect` reads each measured comparison
//! with [`read`], and `simulate --bisect` each drawn one, so that both read a step alike.
//!
//! Must not: measure, print, or decide where the search goes (that is `step.rs` and `search.rs`).

use crate::model::Suite;
use crate::protocol::{BenchmarkAnalysis, Direction, Options, Verdict, analyse};

/// What one comparison showed, as the bisection reads it: the verdict of the later commit against the
/// earlier one (the suite's, or the one selected benchmark's) and the speedup shown with it
/// (earlier's time / later's time), with its interval, if any.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reading {
    /// The verdict of the later commit against the earlier one.
    pub verdict: Verdict,
    /// The speedup of the later commit over the earlier one (above 1: faster).
    pub speedup: Option<f64>,
    /// The interval of `speedup` at the comparison's confidence (one benchmark's Hodges-Lehmann interval
    /// of the ratio); `None` for a suite (HPT states a confidence, not an interval) or when it does not
    /// exist.
    pub interval: Option<(f64, f64)>,
    /// Every benchmark built identical executables on both sides: nothing was run, nothing can differ.
    pub identical: bool,
}

impl Reading {
    /// Whether this comparison shows the change sought: its verdict is `direction`, and, with a threshold
    /// above 0, the speedup shown is beyond it (a slowdown of at least `threshold_pct` percent of the later
    /// commit's speed, 1/speedup − 1; a speed-up of at least that, speedup − 1). Identical executables
    /// never show a change.
    pub fn shows(&self, direction: Direction, threshold_pct: f64) -> bool {
        if self.identical || self.verdict != Verdict::from(direction) {
            return false;
        }
        if threshold_pct <= 0.0 {
            return true;
        }
        let Some(speedup) = self.speedup.filter(|s| s.is_finite() && *s > 0.0) else {
            return false;
        };
        let change = match direction {
            Direction::Slower => 1.0 / speedup - 1.0,
            Direction::Faster => speedup - 1.0,
        };
        change * 100.0 >= threshold_pct
    }

    /// Whether this comparison shows no change: identical executables, or shown unchanged (equivalent
    /// within the margin, `--equivalence`).
    pub fn unchanged(&self) -> bool {
        self.identical || self.verdict == Verdict::Unchanged
    }

    /// One benchmark's reading: its verdict, its median speedup and the median protocol's 1 − alpha
    /// interval of it.
    pub fn of_benchmark(one: &BenchmarkAnalysis) -> Reading {
        Reading {
            verdict: one.verdict,
            speedup: Some(one.speedup.median),
            // The median protocol's 1 − alpha interval, not the printed 1 − 2 alpha one: the `levels`
            // evidence (`docs/bisect.md` §3) reads non-overlap at that level as its conservative sign of a
            // difference.
            interval: one.median_test.speedup_interval,
            identical: false,
        }
    }

    /// A comparison that shows nothing: inconclusive, no speedup.
    fn nothing() -> Reading {
        Reading {
            verdict: Verdict::Inconclusive,
            speedup: None,
            interval: None,
            identical: false,
        }
    }

    /// Identical executables: unchanged, nothing run.
    fn identical() -> Reading {
        Reading {
            verdict: Verdict::Unchanged,
            speedup: None,
            interval: None,
            identical: true,
        }
    }
}

/// What a bisection follows: the suite's verdict (or the one benchmark's, when one is compared), or one
/// named benchmark of the comparisons (`--each`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Follow {
    /// The suite, or its only benchmark.
    Suite,
    /// The benchmark of this name.
    Benchmark(String),
}

/// What the comparison `suite` (BASE the earlier commit, HEAD the later; its design has the looks taken)
/// shows of what `follow` follows, at the confidence of `options` (the per-comparison one).
pub fn read(suite: &Suite, options: &Options, follow: &Follow) -> Reading {
    match follow {
        Follow::Suite => suite_reading(suite, options),
        Follow::Benchmark(name) => benchmark_reading(suite, options, name),
    }
}

/// The benchmarks a comparison (GOOD against BAD) compared, counted with those whose executables were
/// identical, and the names of those it shows changed the way sought (beyond `threshold_pct`), in the
/// comparison's order: the ones `--each` bisects. A benchmark whose executables were identical shows no
/// change.
pub fn changed_benchmarks(
    suite: &Suite,
    options: &Options,
    direction: Direction,
    threshold_pct: f64,
) -> (usize, Vec<String>) {
    let analysis = analyse(suite, options);
    let changed = analysis
        .benchmarks
        .iter()
        .filter(|b| Reading::of_benchmark(b).shows(direction, threshold_pct))
        .map(|b| b.name.clone())
        .collect();
    (analysis.benchmarks.len() + suite.identical.len(), changed)
}

/// The verdict a comparison gives the bisection: the one benchmark's when one was compared, else the
/// suite's; every benchmark identical reads as unchanged, nothing run.
fn suite_reading(suite: &Suite, options: &Options) -> Reading {
    if suite.pairs.is_empty() {
        return if suite.identical.is_empty() {
            Reading::nothing()
        } else {
            Reading::identical()
        };
    }
    let analysis = analyse(suite, options);
    match analysis.benchmarks.as_slice() {
        [one] => Reading::of_benchmark(one),
        _ => Reading {
            verdict: analysis.verdict,
            speedup: analysis.suite.overall.map(|o| o.median.speedup),
            interval: None,
            identical: false,
        },
    }
}

/// The reading of the benchmark `name` in a comparison of several (`--each`): its own verdict (at the
/// comparison's confidence, corrected for the looks; not Holm-corrected across the suite: each benchmark
/// is its own search), unchanged when its executables were identical, inconclusive when the comparison
/// does not hold it.
fn benchmark_reading(suite: &Suite, options: &Options, name: &str) -> Reading {
    if suite.identical.iter().any(|n| n == name) {
        return Reading::identical();
    }
    let analysis = analyse(suite, options);
    analysis
        .benchmarks
        .iter()
        .find(|b| b.name == name)
        .map_or_else(Reading::nothing, Reading::of_benchmark)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::FailOn;

    /// One benchmark, 5 runs per side, every HEAD run 10 % slower than every BASE run: the rank-sum p is
    /// 1/C(10, 5) = 1/252, shown slower at 0.95.
    fn one_benchmark(base: f64, head: f64) -> Suite {
        use crate::model::{Run, Runs, Sample, Unit};
        use crate::testutil::simulated_results as results;
        let runs = |level: f64| {
            let runs = (0..5)
                .map(|i| {
                    let values = vec![
                        level + f64::from(i) * 0.1,
                        level + f64::from(i) * 0.1 + 0.05,
                    ];
                    Run::new(Sample::new(values, Unit::Ns).unwrap(), None)
                })
                .collect();
            Runs::new(runs).unwrap()
        };
        Suite::pair(
            results(vec![("b".into(), runs(base))]),
            results(vec![("b".into(), runs(head))]),
        )
    }

    #[test]
    fn one_benchmark_reads_its_own_verdict_and_identical_executables_read_as_unchanged() {
        let options = Options::defaults(FailOn::Suite);
        let slower = read(&one_benchmark(100.0, 110.0), &options, &Follow::Suite);
        assert_eq!(slower.verdict, Verdict::Slower);
        assert!(!slower.identical);
        let speedup = slower.speedup.unwrap();
        assert!((0.88..0.93).contains(&speedup), "{speedup}");
        let mut identical = one_benchmark(100.0, 100.0);
        identical.identical = vec!["b".into()];
        identical.pairs.clear();
        let read = read(&identical, &options, &Follow::Suite);
        assert_eq!(read.verdict, Verdict::Unchanged);
        assert!(read.identical);
        let mut empty = identical;
        empty.identical.clear();
        let nothing = super::read(&empty, &options, &Follow::Suite);
        assert_eq!(
            (nothing.verdict, nothing.identical),
            (Verdict::Inconclusive, false)
        );
    }

    #[test]
    fn each_benchmark_reads_its_own_verdict_identical_as_unchanged_and_absent_as_inconclusive() {
        let options = Options::defaults(FailOn::Suite);
        let mut suite = one_benchmark(100.0, 110.0);
        suite.identical = vec!["same".into()];
        let follow = |name: &str| Follow::Benchmark(name.into());
        let b = read(&suite, &options, &follow("b"));
        assert_eq!(b.verdict, Verdict::Slower);
        let (low, high) = b.interval.expect("one benchmark's interval");
        assert!(low < high && high < 1.0, "{low} {high}");
        let same = read(&suite, &options, &follow("same"));
        assert_eq!((same.verdict, same.identical), (Verdict::Unchanged, true));
        let gone = read(&suite, &options, &follow("gone"));
        assert_eq!((gone.verdict, gone.speedup), (Verdict::Inconclusive, None));
        // `--each` bisects `b` (10 % slower, beyond 2 %), not `same`; both were compared.
        let (compared, changed) = changed_benchmarks(&suite, &options, Direction::Slower, 2.0);
        assert_eq!((compared, changed), (2, vec!["b".to_string()]));
        // Beyond a 20 % threshold, nothing.
        let (_, changed) = changed_benchmarks(&suite, &options, Direction::Slower, 20.0);
        assert!(changed.is_empty());
    }

    #[test]
    fn a_threshold_keeps_smaller_changes_from_counting() {
        let slower_by_a_quarter = Reading {
            verdict: Verdict::Slower,
            speedup: Some(0.8),
            interval: None,
            identical: false,
        };
        // 1 / 0.8 - 1 = 25 %.
        assert!(slower_by_a_quarter.shows(Direction::Slower, 20.0));
        assert!(slower_by_a_quarter.shows(Direction::Slower, 25.0));
        assert!(!slower_by_a_quarter.shows(Direction::Slower, 30.0));
        assert!(!slower_by_a_quarter.shows(Direction::Faster, 0.0));
        // Faster by a quarter: speedup − 1.
        let faster = Reading {
            verdict: Verdict::Faster,
            speedup: Some(1.25),
            ..slower_by_a_quarter
        };
        assert!(faster.shows(Direction::Faster, 25.0));
        assert!(!faster.shows(Direction::Faster, 26.0));
        // No speedup: nothing shown beyond a threshold.
        let unknown = Reading {
            speedup: None,
            ..slower_by_a_quarter
        };
        assert!(unknown.shows(Direction::Slower, 0.0));
        assert!(!unknown.shows(Direction::Slower, 2.0));
    }
}
