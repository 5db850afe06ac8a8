//! The analysis behind the `speeduptest` command, which reproduces SpeedUpTest.sh (paper 000 §6,
//! `docs/speedup-test.md` §5–§8): each config row through both protocols at its level (the row's
//! `ConfLevel`, else `--conf-level`, else the search), then the overall gain and speedup and the proportions
//! of accelerated benchmarks over the b rows whose samples could be read.
//!
//! Decisions beyond the paper, flagged as such:
//! - Rows whose samples are unavailable are excluded from b, G, S and the proportions, and listed with their
//!   warnings (`docs/speedup-test.md` §9).
//! - Custom weights: with no `Coef` at all the weights are equal (§6.3.1); the paper leaves open the case of
//!   some missing `Coef`, which here falls back to equal weights with a warning, as does a zero total weight.
//! - With a fixed level a benchmark counts as accelerated only when HEAD is significantly faster.

use super::{Level, Ties, aggregate, mean_test_sorted, median_test_sorted, speedups};
use crate::model::BaseHead;
use crate::protocol::{
    Cause, Confidence, Direction, MeanTest, MedianTest, Overall, Proportions, Speedups, Warning,
    WarningKind,
};
use crate::stats::describe::{Summary, summarize};
use crate::stats::sorted::SortedVec;

/// One config row as read.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigRow {
    /// The row's benchmark name.
    pub name: String,
    /// `[BASE, HEAD]` execution times; `None` when they could not be read.
    pub samples: Option<BaseHead<Vec<f64>>>,
    /// The row's `ConfLevel`, already checked to be in (0, 1).
    pub conf_level: Option<f64>,
    /// The row's `Coef`, already checked to be ≥ 0.
    pub coef: Option<f64>,
    /// What the reader noticed about this row, in words.
    pub notes: Vec<String>,
}

/// `--weight`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeightChoice {
    /// The rows' `Coef` column (equal weights when no row has one).
    Custom,
    /// Equal weights, 1/b.
    Equal,
    /// Weights proportional to BASE's execution times (eq. 1).
    Fraction,
}

/// The options of the `speeduptest` command (which reproduces SpeedUpTest.sh), already validated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConfigOptions {
    /// `--conf-level`: the level of rows without their own, and of the proportion intervals.
    pub conf_level: Option<Confidence>,
    /// How benchmarks weigh in G and S.
    pub weight: WeightChoice,
    /// `--precision` r of the minimal number of benchmarks.
    pub precision: f64,
}

/// The results of one analysed row.
#[derive(Debug, Clone, PartialEq)]
pub struct RowResult {
    /// spmin, spmean and spmedian, BASE / HEAD.
    pub speedup: Speedups,
    /// The level the protocols decided at.
    pub level: Level,
    /// The mean protocol's outcome at `level`.
    pub mean: MeanTest,
    /// The median protocol's outcome at `level`.
    pub median: MedianTest,
    /// `CoefMin`, `CoefMean`, `CoefMedian`: the coefficients used in G and S.
    pub coefficients: [f64; 3],
}

/// One config row: its results, or `None` when its samples are unavailable.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalysedRow {
    /// The row's benchmark name.
    pub name: String,
    /// The row's results; `None` when its samples are unavailable.
    pub result: Option<RowResult>,
    /// Reading notes, then the mean protocol's warnings, then the median protocol's.
    pub warnings: Vec<Warning>,
}

/// Everything the `speeduptest` command reports on one config.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigAnalysis {
    /// One per config row, in the file's order.
    pub rows: Vec<AnalysedRow>,
    /// `None` when no row could be analysed.
    pub overall: Option<Overall>,
    /// The proportions of accelerated benchmarks; `None` when no row could be analysed.
    pub proportions: Option<Proportions>,
    /// The confidence level of the proportion intervals: `--conf-level`, else 0.95 (§6.2.4).
    pub proportion_confidence: f64,
    /// The precision r of the minimal number of benchmarks (`--precision`).
    pub precision: f64,
    /// Warnings about the suite as a whole (weights).
    pub warnings: Vec<Warning>,
}

/// Runs both protocols on every row and aggregates the analysed ones.
pub fn analyse_config(inputs: &[ConfigRow], options: &ConfigOptions) -> ConfigAnalysis {
    let mut rows: Vec<AnalysedRow> = inputs.iter().map(|i| analyse_row(i, options)).collect();
    let analysed: Vec<(usize, (Summary, Summary))> = inputs
        .iter()
        .enumerate()
        .filter(|(i, _)| rows[*i].result.is_some())
        .filter_map(|(i, input)| Some((i, summaries(input.samples.as_ref()?)?)))
        .collect();
    let pairs: Vec<(Summary, Summary)> = analysed.iter().map(|(_, p)| *p).collect();
    let mut warnings = Vec::new();
    let coefs: Vec<Option<f64>> = analysed.iter().map(|(i, _)| inputs[*i].coef).collect();
    let mut weights = resolve_weights(options.weight, &coefs, &mut warnings);
    if let Err(e) = aggregate::coefficients(&pairs, &weights)
        && !pairs.is_empty()
    {
        let cause = Cause::UnusableWeights(e.to_string());
        warnings.push(Warning::of(WarningKind::Input, cause));
        weights = aggregate::Weights::Equal;
    }
    if let Ok(c) = aggregate::coefficients(&pairs, &weights) {
        for (k, (i, _)) in analysed.iter().enumerate() {
            if let Some(r) = rows[*i].result.as_mut() {
                r.coefficients = [c.min[k], c.mean[k], c.median[k]];
            }
        }
    }
    let overall = aggregate::overall(&pairs, &weights).ok();
    let proportion_confidence = options.conf_level.map_or(0.95, Confidence::level);
    let proportions = (!pairs.is_empty()).then(|| {
        let count = |f: fn(&RowResult) -> Option<Direction>| {
            rows.iter()
                .filter_map(|r| r.result.as_ref())
                .filter(|r| f(r) == Some(Direction::Faster))
                .count()
        };
        let p = |a| aggregate::proportion(a, pairs.len(), proportion_confidence, options.precision);
        Proportions {
            mean: p(count(|r| r.mean.direction)),
            median: p(count(|r| r.median.direction)),
        }
    });
    ConfigAnalysis {
        rows,
        overall,
        proportions,
        proportion_confidence,
        precision: options.precision,
        warnings,
    }
}

fn summaries(samples: &BaseHead<Vec<f64>>) -> Option<(Summary, Summary)> {
    Some((
        summarize(&samples.base).ok()?,
        summarize(&samples.head).ok()?,
    ))
}

fn analyse_row(input: &ConfigRow, options: &ConfigOptions) -> AnalysedRow {
    let mut warnings: Vec<Warning> = input
        .notes
        .iter()
        .map(|n| Warning::new(WarningKind::Input, n.clone()))
        .collect();
    let result = input.samples.as_ref().and_then(|s| {
        let (base, head) = summaries(s)?;
        let level = input
            .conf_level
            .or(options.conf_level.map(Confidence::level))
            .map_or(Level::Search, Level::Fixed);
        // Each side sorted once for both protocols.
        let sorted = s.as_ref().map(|v| SortedVec::of(v));
        let sorted = sorted.as_ref().map(SortedVec::as_sorted);
        let mean = mean_test_sorted(&s.base, &s.head, sorted, level);
        let median = median_test_sorted(sorted, level, Ties::AsR);
        warnings.extend(mean.warnings.iter().cloned());
        warnings.extend(median.warnings.iter().cloned());
        Some(RowResult {
            speedup: speedups(&base, &head),
            level,
            mean,
            median,
            coefficients: [1.0; 3],
        })
    });
    AnalysedRow {
        name: input.name.clone(),
        result,
        warnings,
    }
}

/// The weights of `choice` given the analysed rows' `Coef` values.
fn resolve_weights(
    choice: WeightChoice,
    coefs: &[Option<f64>],
    warnings: &mut Vec<Warning>,
) -> aggregate::Weights {
    match choice {
        WeightChoice::Equal => aggregate::Weights::Equal,
        WeightChoice::Fraction => aggregate::Weights::Fraction,
        WeightChoice::Custom if coefs.iter().all(Option::is_none) => aggregate::Weights::Equal,
        WeightChoice::Custom => match coefs.iter().copied().collect::<Option<Vec<f64>>>() {
            Some(c) => aggregate::Weights::Custom(c),
            None => {
                warnings.push(Warning::of(WarningKind::Input, Cause::CoefMissing));
                aggregate::Weights::Equal
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::protocol_cases::PAPER;

    fn paper_inputs() -> Vec<ConfigRow> {
        PAPER
            .iter()
            .enumerate()
            .map(|(i, (x, y))| ConfigRow {
                name: format!("bench{}", i + 1),
                samples: Some(BaseHead::new(x.to_vec(), y.to_vec())),
                conf_level: None,
                coef: None,
                notes: vec![],
            })
            .collect()
    }

    const SEARCH: ConfigOptions = ConfigOptions {
        conf_level: None,
        weight: WeightChoice::Custom,
        precision: 0.05,
    };

    #[test]
    fn the_papers_example_counts_three_and_four_accelerated_benchmarks() {
        let a = analyse_config(&paper_inputs(), &SEARCH);
        let p = a.proportions.unwrap();
        assert_eq!((p.mean.accelerated, p.mean.total), (3, 4));
        assert_eq!((p.median.accelerated, p.median.total), (4, 4));
        assert_eq!(a.proportion_confidence, 0.95);
        // No Coef at all: equal weights (§6.3.1), G(min) = 0.3707425.
        assert!((a.overall.unwrap().min.gain - 0.3707425).abs() < 1e-6);
        assert!(a.warnings.is_empty());
        let total: usize = a.rows.iter().map(|r| r.warnings.len()).sum();
        assert_eq!(total, 3, "the paper prints 3 warnings");
    }

    #[test]
    fn a_rows_level_overrides_the_option_and_the_option_the_search() {
        let mut inputs = paper_inputs();
        inputs[0].conf_level = Some(0.7);
        let options = ConfigOptions {
            conf_level: Confidence::new(0.9),
            ..SEARCH
        };
        let a = analyse_config(&inputs, &options);
        let levels: Vec<Level> = a
            .rows
            .iter()
            .map(|r| r.result.as_ref().unwrap().level)
            .collect();
        assert_eq!(levels[0], Level::Fixed(0.7));
        assert_eq!(levels[1], Level::Fixed(0.9));
        assert_eq!(a.proportion_confidence, 0.9);
        // Bench 1's median p = 0.2317 <= 0.3: significant at 0.7.
        assert!(a.rows[0].result.as_ref().unwrap().median.significant);
    }

    #[test]
    fn unavailable_rows_are_kept_with_their_notes_but_not_counted() {
        let mut inputs = paper_inputs();
        inputs[2].samples = None;
        inputs[2].notes = vec!["File 'x' is not readable".into()];
        let a = analyse_config(&inputs, &SEARCH);
        assert!(a.rows[2].result.is_none());
        assert_eq!(
            crate::report::words::paper_message(&a.rows[2].warnings[0]),
            "File 'x' is not readable"
        );
        assert_eq!(a.proportions.unwrap().mean.total, 3);
    }

    #[test]
    fn custom_coefficients_are_used_and_printed() {
        let mut inputs = paper_inputs();
        for (i, input) in inputs.iter_mut().enumerate() {
            input.coef = Some(i as f64 + 1.0);
        }
        let a = analyse_config(&inputs, &SEARCH);
        let c: Vec<[f64; 3]> = a
            .rows
            .iter()
            .map(|r| r.result.as_ref().unwrap().coefficients)
            .collect();
        assert_eq!(c[3], [4.0; 3]);
        let equal = analyse_config(&paper_inputs(), &SEARCH).overall.unwrap();
        assert_ne!(a.overall.unwrap().mean.gain, equal.mean.gain);
    }

    #[test]
    fn partial_or_zero_coefficients_fall_back_to_equal_weights_with_a_warning() {
        let equal = analyse_config(&paper_inputs(), &SEARCH).overall.unwrap();
        let mut inputs = paper_inputs();
        inputs[0].coef = Some(3.0);
        let a = analyse_config(&inputs, &SEARCH);
        assert_eq!(a.overall.unwrap(), equal);
        assert_eq!(a.warnings.len(), 1);
        for input in inputs.iter_mut() {
            input.coef = Some(0.0);
        }
        let a = analyse_config(&inputs, &SEARCH);
        assert_eq!(a.overall.unwrap(), equal);
        assert!(
            crate::report::words::paper_message(&a.warnings[0]).contains("total weight is zero")
        );
    }

    #[test]
    fn nothing_analysed_gives_no_aggregates() {
        let inputs = vec![ConfigRow {
            name: "x".into(),
            samples: None,
            conf_level: None,
            coef: None,
            notes: vec![],
        }];
        let a = analyse_config(&inputs, &SEARCH);
        assert_eq!((a.overall, a.proportions), (None, None));
        assert!(a.warnings.is_empty());
    }
}
