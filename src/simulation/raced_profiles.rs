//! Paper 002's race for two versions (Leather, O'Boyle & Worton, *Raced Profiles*, LCTES 2009; `docs/racing.md`
//! §4), as the paper runs it, so that the simulator can set it beside the project's planned looks.
//!
//! - Each version's sample is the natural log of its run values, from n = `min_runs` (at least 2, the
//!   t-test minimum) per side, one more run per side after every look, up to `max_runs`.
//! - The loser test: Welch's one-sided t-test on the log samples ([`crate::stats::t_test::welch`], real-valued
//!   Satterthwaite df) at `alpha_lt`: HEAD significantly lower is *faster*, BASE significantly lower
//!   *slower*. Constant samples on both sides differ when their means do.
//! - The equivalence test: each side gets its one-sided interval μ ± t⁻¹(1 − `alpha_eq`; n − 1)·s/√n on the
//!   log scale (quantiles one-sided, as the paper's remark on alpha = 0.5 implies); with b the side of lower
//!   mean and c the other, the paper's rule is exp(upper_b − lower_c) ≤ 1 + ε (its printed `<` reversed:
//!   erratum 1), which bounds the regret of picking b, not how much slower c may be. [`EquivalenceRule::
//!   Symmetric`] also asks exp(upper_c − lower_b) ≤ 1 + ε, the question a regression gate asks.
//! - Neither at the cap: inconclusive.
//!
//! The paper tests after every run at the nominal alphas and tunes them by simulation: the risk it states
//! is not the real one (erratum 7), which `cargo speedup simulate` measures. Pure: no I/O.

use crate::protocol::Verdict;
use crate::stats::describe::{mean, variance};
use crate::stats::t_test::{t_upper_quantile, welch};
use crate::stats::{Alternative, StatsError};

/// Which intervals must lie within 1 + ε for the two versions to be equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EquivalenceRule {
    /// The paper's: the faster-looking version's upper bound against the other's lower bound.
    Paper,
    /// Both ways: HEAD neither more than ε faster nor more than ε slower.
    #[cfg(test)]
    Symmetric,
}

/// The paper's parameters for one race of two versions.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PaperPlan {
    alpha_lt: f64,
    alpha_eq: f64,
    epsilon_pct: f64,
    min_runs: usize,
    max_runs: usize,
    rule: EquivalenceRule,
    /// t⁻¹(1 − alpha_eq; n − 1) at index n, for n in 2..=max_runs.
    quantiles: Vec<f64>,
}

impl PaperPlan {
    /// `alpha_lt` and `alpha_eq` in (0, 1), `epsilon_pct` > 0, 2 <= `min_runs` <= `max_runs`; `None`
    /// otherwise.
    pub(crate) fn new(
        alpha_lt: f64,
        alpha_eq: f64,
        epsilon_pct: f64,
        min_runs: usize,
        max_runs: usize,
        rule: EquivalenceRule,
    ) -> Option<PaperPlan> {
        let risk = |a: f64| a > 0.0 && a < 1.0;
        if !(risk(alpha_lt) && risk(alpha_eq) && epsilon_pct > 0.0 && epsilon_pct.is_finite())
            || min_runs < 2
            || max_runs < min_runs
        {
            return None;
        }
        let quantiles = (0..=max_runs)
            .map(|n| {
                if n < 2 {
                    f64::NAN
                } else {
                    t_upper_quantile((n - 1) as f64, alpha_eq)
                }
            })
            .collect();
        Some(PaperPlan {
            alpha_lt,
            alpha_eq,
            epsilon_pct,
            min_runs,
            max_runs,
            rule,
            quantiles,
        })
    }

    /// The risk of the loser test (Welch's one-sided t-test on log times).
    pub(crate) fn alpha_lt(&self) -> f64 {
        self.alpha_lt
    }

    /// ε of the equivalence test, in percent.
    pub(crate) fn epsilon_pct(&self) -> f64 {
        self.epsilon_pct
    }

    /// Runs per side at the first look (≥ 2).
    pub(crate) fn min_runs(&self) -> usize {
        self.min_runs
    }

    /// Runs per side at the cap, where an undecided race is inconclusive.
    pub(crate) fn max_runs(&self) -> usize {
        self.max_runs
    }

    /// t⁻¹(1 − alpha_eq; n − 1), the quantile of a version's interval after `n` (>= 2) runs.
    pub(crate) fn quantile(&self, n: usize) -> f64 {
        self.quantiles
            .get(n)
            .copied()
            .unwrap_or_else(|| t_upper_quantile((n - 1) as f64, self.alpha_eq))
    }
}

/// The decision of one look on the log samples (equal sizes or not), `None` to go on.
pub(crate) fn look(base_logs: &[f64], head_logs: &[f64], plan: &PaperPlan) -> Option<Verdict> {
    if let Some(verdict) = loser(base_logs, head_logs, plan.alpha_lt) {
        return Some(verdict);
    }
    let base = MeanLogInterval::of(base_logs, plan.quantile(base_logs.len()))?;
    let head = MeanLogInterval::of(head_logs, plan.quantile(head_logs.len()))?;
    (worst_speedup(&base, &head, plan.rule) <= 1.0 + plan.epsilon_pct / 100.0)
        .then_some(Verdict::Unchanged)
}

/// Races BASE and HEAD on their run values (in the order they ran, at least `max_runs` of each, > 0):
/// the verdict and the runs per side it took.
pub(crate) fn race(base: &[f64], head: &[f64], plan: &PaperPlan) -> (Verdict, usize) {
    let base: Vec<f64> = base.iter().take(plan.max_runs).map(|v| v.ln()).collect();
    let head: Vec<f64> = head.iter().take(plan.max_runs).map(|v| v.ln()).collect();
    let last = base.len().min(head.len());
    for n in plan.min_runs..=last {
        if let Some(verdict) = look(&base[..n], &head[..n], plan) {
            return (verdict, n);
        }
    }
    (Verdict::Inconclusive, last)
}

/// The loser test at `alpha`: which side Welch's one-sided test finds significantly lower, as the verdict
/// about HEAD.
pub(crate) fn loser(base_logs: &[f64], head_logs: &[f64], alpha: f64) -> Option<Verdict> {
    match welch(base_logs, head_logs, Alternative::Greater) {
        Ok(t) if t.statistic > 0.0 => (t.p_value <= alpha).then_some(Verdict::Faster),
        Ok(_) => match welch(base_logs, head_logs, Alternative::Less) {
            Ok(t) if t.p_value <= alpha => Some(Verdict::Slower),
            _ => None,
        },
        // Zero or negligible variance on both sides: different means are significant.
        Err(StatsError::Constant) => {
            let (b, h) = (mean(base_logs).ok()?, mean(head_logs).ok()?);
            match b.partial_cmp(&h)? {
                std::cmp::Ordering::Greater => Some(Verdict::Faster),
                std::cmp::Ordering::Less => Some(Verdict::Slower),
                std::cmp::Ordering::Equal => None,
            }
        }
        Err(_) => None,
    }
}

/// One version's one-sided interval of its mean log time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct MeanLogInterval {
    /// The mean of the log run values.
    pub mean: f64,
    /// Lower end: mean − t·s/√n.
    pub lower: f64,
    /// Upper end: mean + t·s/√n.
    pub upper: f64,
}

impl MeanLogInterval {
    /// μ ± `quantile`·s/√n of the log sample; `None` below two values.
    pub(crate) fn of(logs: &[f64], quantile: f64) -> Option<MeanLogInterval> {
        let mean = mean(logs).ok()?;
        let half = quantile * (variance(logs).ok()? / logs.len() as f64).sqrt();
        Some(MeanLogInterval {
            mean,
            lower: mean - half,
            upper: mean + half,
        })
    }
}

/// The worst-case ratio the rule bounds: exp(upper_b − lower_c) with b the side of lower mean (the paper's
/// `worstspeedup(b, c)`), or the larger of both ways ([`EquivalenceRule::Symmetric`]).
pub(crate) fn worst_speedup(
    x: &MeanLogInterval,
    y: &MeanLogInterval,
    rule: EquivalenceRule,
) -> f64 {
    let (b, c) = if x.mean <= y.mean { (x, y) } else { (y, x) };
    match rule {
        EquivalenceRule::Paper => (b.upper - c.lower).exp(),
        #[cfg(test)]
        EquivalenceRule::Symmetric => (b.upper - c.lower).max(c.upper - b.lower).exp(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logs(v: &[f64]) -> Vec<f64> {
        v.iter().map(|x| x.ln()).collect()
    }

    fn close(got: f64, want: f64, tol: f64) {
        assert!(
            (got - want).abs() <= tol * want.abs().max(1e-300),
            "{got} vs {want}"
        );
    }

    #[test]
    fn quantiles_match_r_qt() {
        // R 4.2.2: qt(0.5, 1), qt(0.75, 1), qt(0.98, 1), qt(1 - 1e-4, 1), qt(0.98, 4).
        // qt(0.5, 1) = 0: the closed form 1 / tan(π/2) is 6e-17.
        assert!(t_upper_quantile(1.0, 0.5).abs() < 1e-15);
        close(t_upper_quantile(1.0, 0.25), 1.0, 1e-12);
        close(t_upper_quantile(1.0, 0.02), 15.89454, 1e-6);
        close(t_upper_quantile(1.0, 1e-4), 3183.099, 1e-6);
        close(t_upper_quantile(4.0, 0.02), 2.998528, 1e-6);
    }

    #[test]
    fn ex1_a_loses_at_two_percent() {
        // racing.md §7 ex1 (R: t.test(log(B), log(A), alternative = "less"), qt(0.98, df)).
        let (a, b) = (
            logs(&[100.0, 102.0, 101.0, 103.0]),
            logs(&[95.0, 96.0, 97.0, 94.0]),
        );
        let t = welch(&b, &a, Alternative::Less).unwrap();
        close(t.statistic, -6.565875, 1e-6);
        close(t.df, 5.977853, 1e-6);
        close(t_upper_quantile(t.df, 0.02), 2.614799, 1e-6);
        close(mean(&a).unwrap(), 4.619998126, 1e-9);
        close(variance(&b).unwrap(), 1.827749e-4, 1e-6);
        // A as BASE, B as HEAD: HEAD is significantly lower, faster; swapped, slower.
        assert_eq!(loser(&a, &b, 0.02), Some(Verdict::Faster));
        assert_eq!(loser(&b, &a, 0.02), Some(Verdict::Slower));
    }

    #[test]
    fn ex2_equal_under_the_papers_rule_and_not_under_the_symmetric_one() {
        let (x, y) = (
            logs(&[1000.0, 1002.0, 1001.0, 1003.0, 999.0]),
            logs(&[1001.0, 1003.0, 1002.0, 1004.0, 1000.0]),
        );
        let t = welch(&x, &y, Alternative::TwoSided).unwrap();
        close(t.statistic, -1.0, 1e-6);
        close(t.df, 7.999992, 1e-6);
        assert_eq!(loser(&x, &y, 0.02), None);
        // One-sided quantiles (the paper's), then two-sided ones t⁻¹(0.99; 4) for comparison.
        for (tail, paper, symmetric) in [(0.02, 1.003241, 1.005246), (0.01, 1.004302, 1.006309)] {
            let q = t_upper_quantile(4.0, tail);
            let (ix, iy) = (
                MeanLogInterval::of(&x, q).unwrap(),
                MeanLogInterval::of(&y, q).unwrap(),
            );
            close(worst_speedup(&ix, &iy, EquivalenceRule::Paper), paper, 1e-6);
            close(
                worst_speedup(&ix, &iy, EquivalenceRule::Symmetric),
                symmetric,
                1e-6,
            );
        }
        let paper = PaperPlan::new(0.02, 0.02, 0.5, 2, 5, EquivalenceRule::Paper).unwrap();
        assert_eq!(look(&x, &y, &paper), Some(Verdict::Unchanged));
        let symmetric = PaperPlan::new(0.02, 0.02, 0.5, 2, 5, EquivalenceRule::Symmetric).unwrap();
        assert_eq!(look(&x, &y, &symmetric), None);
    }

    #[test]
    fn at_alpha_one_half_every_race_stops_at_two_runs() {
        // §6.3: the intervals have zero width, so the versions are equal (or one loses) at once.
        let plan = PaperPlan::new(0.5, 0.5, 0.5, 2, 20, EquivalenceRule::Paper).unwrap();
        let base: Vec<f64> = (0..20).map(|i| 100.0 + (i * 7 % 5) as f64).collect();
        let head: Vec<f64> = (0..20).map(|i| 100.0 + (i * 3 % 4) as f64).collect();
        assert_eq!(race(&base, &head, &plan).1, 2);
    }

    #[test]
    fn a_clear_winner_stops_early_and_noise_beyond_epsilon_hits_the_cap() {
        let plan = PaperPlan::new(0.02, 0.02, 0.5, 2, 20, EquivalenceRule::Paper).unwrap();
        let base: Vec<f64> = (0..20).map(|i| 100.0 + 0.1 * (i % 3) as f64).collect();
        let head: Vec<f64> = base.iter().map(|v| v * 0.8).collect();
        let (verdict, runs) = race(&base, &head, &plan);
        assert_eq!(verdict, Verdict::Faster);
        assert!(runs <= 3, "{runs}");
        // Noise of ±10 % alternating, equal levels: neither side loses nor are they within 0.5 %.
        let noisy: Vec<f64> = (0..20)
            .map(|i| if i % 2 == 0 { 110.0 } else { 90.0 })
            .collect();
        let shifted: Vec<f64> = (0..20)
            .map(|i| if i % 2 == 0 { 90.0 } else { 110.0 })
            .collect();
        assert_eq!(race(&noisy, &shifted, &plan), (Verdict::Inconclusive, 20));
    }

    #[test]
    fn constant_samples_differ_when_their_means_do() {
        assert_eq!(loser(&[1.0, 1.0], &[2.0, 2.0], 0.02), Some(Verdict::Slower));
        assert_eq!(loser(&[1.0, 1.0], &[1.0, 1.0], 0.02), None);
        let plan = PaperPlan::new(0.02, 0.02, 0.5, 2, 4, EquivalenceRule::Symmetric).unwrap();
        assert_eq!(race(&[5.0; 4], &[5.0; 4], &plan), (Verdict::Unchanged, 2));
    }

    #[test]
    fn bad_parameters_are_refused() {
        let rule = EquivalenceRule::Paper;
        assert!(PaperPlan::new(0.0, 0.02, 0.5, 2, 20, rule).is_none());
        assert!(PaperPlan::new(0.02, 1.0, 0.5, 2, 20, rule).is_none());
        assert!(PaperPlan::new(0.02, 0.02, 0.0, 2, 20, rule).is_none());
        assert!(PaperPlan::new(0.02, 0.02, 0.5, 1, 20, rule).is_none());
        assert!(PaperPlan::new(0.02, 0.02, 0.5, 5, 4, rule).is_none());
    }
}
