//! Aggregates over b benchmarks (paper 000 §3.1, §3.2, §5, §6; `docs/speedup-test.md` §6–§7): the observed
//! speedups spmin, spmean, spmedian of one benchmark; the overall gain G and speedup S per execution-time
//! statistic ET ∈ {min, mean, median} with custom, equal or fraction weights; the proportion of accelerated
//! benchmarks with R `prop.test`'s interval (Wilson with continuity correction, not the Wald formula that §5
//! writes: erratum 6), its validity condition a(1 − a/b) > 5 and the minimal b for a precision r.
//!
//! G = 1 − Σ w_i ET(head_i) / Σ w_i ET(base_i) and S = Σ w_i ET(base_i) / Σ w_i ET(head_i) (eq. 2, 3), over
//! all the benchmarks given: slowdowns included, so G may be negative and S below 1 (§3.2). No confidence is
//! attached to G or S (the paper gives none). Pure arithmetic; nothing here tests or decides.

use crate::protocol::{GainSpeedup, Overall, Proportion, Speedups};
use crate::stats::describe::Summary;
use crate::stats::proportion as prop;

/// The observed speedups base/head of min, mean and median (§3.1). Above 1 means HEAD is faster.
pub fn speedups(base: &Summary, head: &Summary) -> Speedups {
    Speedups {
        min: base.min / head.min,
        mean: base.mean / head.mean,
        median: base.median / head.median,
    }
}

/// How benchmarks weigh in G and S (§6.2.3).
#[derive(Debug, Clone, PartialEq)]
pub enum Weights {
    /// One coefficient ≥ 0 per benchmark, normalised to weights Coef_i / Σ Coef_j (§6.2.1).
    Custom(Vec<f64>),
    /// w_i = 1/b.
    Equal,
    /// w_i = ET(base_i) / Σ_j ET(base_j), separately for each ET (eq. 1).
    Fraction,
}

/// The coefficients actually used for each ET, before normalisation: the `CoefMin`, `CoefMean` and
/// `CoefMedian` columns of `speeduptest`'s `.out` (1 for equal weights, ET(base_i) for fraction weights).
#[derive(Debug, Clone, PartialEq)]
pub struct Coefficients {
    /// Per benchmark, the coefficient of its minimum times (`CoefMin`).
    pub min: Vec<f64>,
    /// Per benchmark, the coefficient of its mean times (`CoefMean`).
    pub mean: Vec<f64>,
    /// Per benchmark, the coefficient of its median times (`CoefMedian`).
    pub median: Vec<f64>,
}

/// Why G and S cannot be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OverallError {
    /// There is no benchmark.
    #[error("no benchmark to aggregate")]
    Empty,
    /// The number of custom weights differs from the number of benchmarks.
    #[error("{given} custom weights for {benchmarks} benchmarks")]
    WeightCount {
        /// How many weights were given.
        given: usize,
        /// How many benchmarks there are.
        benchmarks: usize,
    },
    /// A custom weight is negative, NaN or infinite.
    #[error("weight {value} of benchmark {index} is not a finite number >= 0")]
    InvalidWeight {
        /// The benchmark's position, from 0.
        index: usize,
        /// The weight given.
        value: f64,
    },
    /// Every weight is zero, so the weights cannot be normalised.
    #[error("the total weight is zero")]
    ZeroTotal,
}

/// The coefficients of every benchmark for each ET.
pub fn coefficients(
    pairs: &[(Summary, Summary)],
    weights: &Weights,
) -> Result<Coefficients, OverallError> {
    if pairs.is_empty() {
        return Err(OverallError::Empty);
    }
    let per = |et: fn(&Summary) -> f64| -> Result<Vec<f64>, OverallError> {
        let coefficients: Vec<f64> = match weights {
            Weights::Custom(c) if c.len() != pairs.len() => {
                return Err(OverallError::WeightCount {
                    given: c.len(),
                    benchmarks: pairs.len(),
                });
            }
            Weights::Custom(c) => c.clone(),
            Weights::Equal => vec![1.0; pairs.len()],
            Weights::Fraction => pairs.iter().map(|(base, _)| et(base)).collect(),
        };
        if let Some((index, &value)) = coefficients
            .iter()
            .enumerate()
            .find(|(_, v)| !(v.is_finite() && **v >= 0.0))
        {
            return Err(OverallError::InvalidWeight { index, value });
        }
        if coefficients.iter().sum::<f64>() <= 0.0 {
            return Err(OverallError::ZeroTotal);
        }
        Ok(coefficients)
    };
    Ok(Coefficients {
        min: per(|s| s.min)?,
        mean: per(|s| s.mean)?,
        median: per(|s| s.median)?,
    })
}

/// G and S for min, mean and median over all `pairs` (base, head).
pub fn overall(pairs: &[(Summary, Summary)], weights: &Weights) -> Result<Overall, OverallError> {
    let c = coefficients(pairs, weights)?;
    let one = |w: &[f64], et: fn(&Summary) -> f64| {
        let weighted = |side: fn(&(Summary, Summary)) -> &Summary| -> f64 {
            pairs.iter().zip(w).map(|(p, w)| w * et(side(p))).sum()
        };
        let (base, head) = (weighted(|p| &p.0), weighted(|p| &p.1));
        GainSpeedup {
            gain: 1.0 - head / base,
            speedup: base / head,
        }
    };
    Ok(Overall {
        min: one(&c.min, |s| s.min),
        mean: one(&c.mean, |s| s.mean),
        median: one(&c.median, |s| s.median),
    })
}

/// The proportion a/b of accelerated benchmarks with R `prop.test(a, b, conf.level = confidence)`'s
/// interval, the validity condition, and the minimal b for the half-width `precision` (§5).
///
/// With b = 0 (nothing analysed) the interval is the uninformative [0, 1], marked not valid.
pub fn proportion(accelerated: usize, total: usize, confidence: f64, precision: f64) -> Proportion {
    let (a, b) = (accelerated as u64, total as u64);
    let (lower, upper) = match prop::prop_test_interval(a, b, confidence) {
        Ok(i) => (i.lower, i.upper),
        Err(_) => (0.0, 1.0),
    };
    let observed = if total == 0 { 0.0 } else { a as f64 / b as f64 };
    Proportion {
        accelerated,
        total,
        lower,
        upper,
        minimal_benchmarks: prop::minimal_benchmarks(observed, precision, confidence),
        precision,
        valid: prop::validity_condition(a, b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::describe::summarize;

    /// The §6.3 example (`docs/speedup-test.md` §10.2): four benchmarks, BASE and HEAD.
    pub(crate) fn paper_pairs() -> Vec<(Summary, Summary)> {
        crate::testutil::protocol_cases::PAPER
            .iter()
            .map(|(b, h)| (summarize(b).unwrap(), summarize(h).unwrap()))
            .collect()
    }

    fn close(actual: f64, expected: f64, tol: f64) {
        assert!(
            (actual - expected).abs() <= tol * expected.abs(),
            "{actual} vs {expected}"
        );
    }

    #[test]
    fn per_benchmark_speedups_match_the_papers_out_columns() {
        // docs/speedup-test.md §10.1: spmin 4.861004, spmean 1.956938, spmedian 1.956023 (R).
        let p = paper_pairs();
        let s = speedups(&p[1].0, &p[1].1);
        close(s.min, 4.861004, 1e-6);
        close(s.mean, 1.956938, 1e-6);
        close(s.median, 1.956023, 1e-6);
    }

    #[test]
    fn equal_weights_reproduce_the_papers_overall_gains() {
        // docs/speedup-test.md §10.2: G = 0.3707425, 0.1775144, 0.1561178; S = 1.589175, 1.215827, 1.185000.
        let o = overall(&paper_pairs(), &Weights::Equal).unwrap();
        close(o.min.gain, 0.3707425, 1e-6);
        close(o.mean.gain, 0.1775144, 1e-6);
        close(o.median.gain, 0.1561178, 1e-6);
        close(o.min.speedup, 1.589175, 1e-6);
        close(o.mean.speedup, 1.215827, 1e-6);
        close(o.median.speedup, 1.185000, 1e-6);
    }

    #[test]
    fn fraction_weights_use_bases_share_per_statistic() {
        // docs/speedup-test.md §10.2: G = 0.3250652 (min), 0.1417374 (mean), 0.1303177 (median); S = 1/(1 − G).
        let o = overall(&paper_pairs(), &Weights::Fraction).unwrap();
        close(o.min.gain, 0.3250652, 1e-6);
        close(o.mean.gain, 0.1417374, 1e-6);
        close(o.median.gain, 0.1303177, 1e-6);
        close(o.mean.speedup, 1.0 / (1.0 - 0.1417374), 1e-6);
    }

    #[test]
    fn custom_weights_are_normalised_coefficients() {
        // Example 3.1 (§3.2): 3 s -> 1 s and 3600 s -> 3428 s; weights 3/3603, 3600/3603 give G = 4.778 %,
        // equal weights G = 4.829 % and S = 3603/3429.
        let s = |v: f64| summarize(&[v]).unwrap();
        let pairs = [(s(3.0), s(1.0)), (s(3600.0), s(3428.0))];
        let o = overall(&pairs, &Weights::Custom(vec![3.0, 3600.0])).unwrap();
        close(o.median.gain, 0.04778, 1e-3);
        let scaled = overall(
            &pairs,
            &Weights::Custom(vec![3.0 / 3603.0, 3600.0 / 3603.0]),
        )
        .unwrap();
        close(scaled.median.gain, o.median.gain, 1e-12);
        let e = overall(&pairs, &Weights::Equal).unwrap();
        close(e.median.gain, 1.0 - 3429.0 / 3603.0, 1e-12);
        close(e.median.speedup, 3603.0 / 3429.0, 1e-12);
    }

    #[test]
    fn slowdowns_make_the_gain_negative() {
        let s = |v: f64| summarize(&[v]).unwrap();
        let o = overall(&[(s(1.0), s(2.0))], &Weights::Equal).unwrap();
        assert_eq!((o.mean.gain, o.mean.speedup), (-1.0, 0.5));
    }

    #[test]
    fn bad_weights_are_errors_not_nan() {
        let p = paper_pairs();
        assert_eq!(
            overall(&p, &Weights::Custom(vec![0.0; 4])),
            Err(OverallError::ZeroTotal)
        );
        assert_eq!(
            overall(&p, &Weights::Custom(vec![1.0; 3])),
            Err(OverallError::WeightCount {
                given: 3,
                benchmarks: 4
            })
        );
        assert!(matches!(
            overall(&p, &Weights::Custom(vec![1.0, -1.0, 1.0, 1.0])),
            Err(OverallError::InvalidWeight { index: 1, .. })
        ));
        assert_eq!(overall(&[], &Weights::Equal), Err(OverallError::Empty));
    }

    #[test]
    fn coefficients_print_one_for_equal_and_base_times_for_fraction() {
        let p = paper_pairs();
        assert_eq!(
            coefficients(&p, &Weights::Equal).unwrap().mean,
            vec![1.0; 4]
        );
        let f = coefficients(&p, &Weights::Fraction).unwrap();
        assert_eq!(f.min[0], 2.01);
        assert_eq!(f.median[1], 2.046);
    }

    #[test]
    fn proportions_match_the_papers_report() {
        // docs/speedup-test.md §10.3: prop.test(3, 4) = [0.2194265, 0.9868088], b_min 289; prop.test(4, 4) =
        // [0.3957730, 1], no b_min; both fail the validity condition.
        let mean = proportion(3, 4, 0.95, 0.05);
        close(mean.lower, 0.2194265, 1e-6);
        close(mean.upper, 0.9868088, 1e-6);
        assert_eq!((mean.minimal_benchmarks, mean.valid), (Some(289), false));
        let median = proportion(4, 4, 0.95, 0.05);
        close(median.lower, 0.3957730, 1e-6);
        assert_eq!((median.upper, median.minimal_benchmarks), (1.0, None));
        // §5: prop.test(17, 30, conf.level = 0.90) = [0.4027157, 0.7184049]; 17 − 17²/30 = 7.37 > 5.
        let p = proportion(17, 30, 0.90, 0.05);
        close(p.lower, 0.4027157, 1e-6);
        close(p.upper, 0.7184049, 1e-6);
        assert!(p.valid);
    }

    #[test]
    fn an_empty_suite_has_the_uninformative_interval() {
        let p = proportion(0, 0, 0.95, 0.05);
        assert_eq!(
            (p.lower, p.upper, p.valid, p.minimal_benchmarks),
            (0.0, 1.0, false, None)
        );
    }
}
