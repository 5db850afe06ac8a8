//! "KSfit", paper 001's parametric-bootstrap goodness of fit of a Gaussian mixture (§5.1.2–5.2.3,
//! `docs/mixtures.md` §4).
//!
//! - H0: the sample is drawn from a Gaussian mixture (any K ≤ 9, either variance model). Standard KS tables
//!   do not apply because the parameters are estimated (H0 is composite), hence the bootstrap.
//! - Statistic: KS_X = sup_x |F_n(x) − F̂(x)| for the mixture F̂ chosen by BIC ([`super::mixture::select`]).
//! - Bootstrap: N samples of size n drawn from F̂, each refitted with the full procedure (K re-chosen), with
//!   KS⁽ⁱ⁾ its distance to its own fit; p = #{i : KS⁽ⁱ⁾ > KS_X}/N (strict, no +1, as the paper), and the
//!   critical value at α is KS^(⌊N(1−α)⌋) of the ascending replicates. p is a multiple of 1/N; with N = 200 and
//!   a true p of 3 %, the bootstrap p exceeds 5 % with probability 4 % (§5.1.3).
//! - Draws: SplitMix64 with Box-Muller normals from an explicit seed; a replicate whose refit fails (all
//!   draws equal, impossible in practice) is drawn again.
//! - No undersampling (n' = 0.9 n for n in the hundreds, §5.2.2): the runs of a benchmark are tens.
//! - Cost: N full fits, so it runs only on request (`--mixture-fit`).

use super::mixture::{FitOptions, Mixture, SplitMix64, select};
use super::{StatsError, StatsResult};

/// The paper's default number of bootstrap samples.
pub const DEFAULT_REPLICATES: usize = 200;

/// The outcome of [`ks_fit`].
#[derive(Debug, Clone, PartialEq)]
pub struct KsFit {
    /// KS_X, the distance between the sample and its fitted mixture.
    pub statistic: f64,
    /// #{KS⁽ⁱ⁾ > KS_X}/N.
    pub p_value: f64,
    /// The replicates' distances, ascending.
    pub replicates: Vec<f64>,
}

impl KsFit {
    /// c_α = KS^(⌊N(1−α)⌋), 1-based in the ascending replicates; reject H0 at α iff KS_X > c_α.
    pub fn critical_value(&self, alpha: f64) -> Option<f64> {
        let index = (self.replicates.len() as f64 * (1.0 - alpha)).floor() as usize;
        index
            .checked_sub(1)
            .and_then(|i| self.replicates.get(i))
            .copied()
    }
}

/// The bootstrap p-value #{KS⁽ⁱ⁾ > KS_X}/N.
pub fn bootstrap_p_value(statistic: f64, replicates: &[f64]) -> f64 {
    replicates.iter().filter(|&&r| r > statistic).count() as f64 / replicates.len().max(1) as f64
}

/// KSfit of `x` against its BIC-chosen mixture, with `replicates` bootstrap samples drawn from `seed`.
pub fn ks_fit(x: &[f64], options: &FitOptions, replicates: usize, seed: u64) -> StatsResult<KsFit> {
    if replicates == 0 {
        return Err(StatsError::InvalidArgument(
            "KSfit needs at least one replicate",
        ));
    }
    let fitted = select(x, options)?.best.mixture;
    let statistic = fitted.ks_distance(x);
    let mut rng = SplitMix64::new(seed);
    let mut distances = Vec::with_capacity(replicates);
    let mut draw = vec![0.0; x.len()];
    let mut attempts = 0;
    while distances.len() < replicates && attempts < 10 * replicates {
        attempts += 1;
        for v in draw.iter_mut() {
            *v = sample(&fitted, &mut rng);
        }
        if let Ok(refit) = select(&draw, options) {
            distances.push(refit.best.mixture.ks_distance(&draw));
        }
    }
    distances.sort_by(f64::total_cmp);
    Ok(KsFit {
        statistic,
        p_value: bootstrap_p_value(statistic, &distances),
        replicates: distances,
    })
}

/// One draw from the mixture: a component by its weight, then its normal.
fn sample(mixture: &Mixture, rng: &mut SplitMix64) -> f64 {
    let u = rng.uniform();
    let mut acc = 0.0;
    let last = mixture.components.len().saturating_sub(1);
    for (j, c) in mixture.components.iter().enumerate() {
        acc += c.weight;
        if u < acc || j == last {
            return c.mean + c.sd * rng.normal();
        }
    }
    f64::NAN
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_value_and_critical_value_follow_the_paper() {
        // docs/mixtures.md §7.3: N = 500 and 36 replicates above KS_X give p = 7.2 %; c_0.05 = KS^(475).
        let replicates: Vec<f64> = (1..=500).map(|i| f64::from(i) / 1000.0).collect();
        let fit = KsFit {
            statistic: 0.464,
            p_value: bootstrap_p_value(0.464, &replicates),
            replicates,
        };
        assert_eq!(fit.p_value, 36.0 / 500.0);
        assert_eq!(fit.critical_value(0.05), Some(0.475));
        // Strict: a replicate equal to KS_X does not count.
        assert_eq!(bootstrap_p_value(0.5, &[0.4, 0.5, 0.6]), 1.0 / 3.0);
    }

    #[test]
    fn seeded_and_in_the_unit_interval() {
        let x: Vec<f64> = (0..25)
            .map(|i| 10.0 + (f64::from(i) * 0.37).sin() + if i % 3 == 0 { 4.0 } else { 0.0 })
            .collect();
        let options = FitOptions::default();
        let a = ks_fit(&x, &options, 40, 7).expect("fit");
        let b = ks_fit(&x, &options, 40, 7).expect("fit");
        assert_eq!(a, b);
        assert_eq!(a.replicates.len(), 40);
        assert!((0.0..=1.0).contains(&a.p_value));
        assert!((a.p_value * 40.0 - (a.p_value * 40.0).round()).abs() < 1e-9);
        assert!(a.replicates.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(
            ks_fit(&[1.0, 1.0, 1.0], &options, 10, 1),
            Err(StatsError::Constant)
        );
    }

    #[test]
    fn a_mixture_sample_is_not_rejected_and_a_cliff_is() {
        // Drawn from a two-component mixture: the fit is good, p well above 1 %.
        let mut rng = SplitMix64::new(3);
        let mixture = Mixture::new(vec![
            super::super::mixture::Component {
                weight: 0.6,
                mean: 0.0,
                sd: 1.0,
            },
            super::super::mixture::Component {
                weight: 0.4,
                mean: 6.0,
                sd: 0.5,
            },
        ]);
        let x: Vec<f64> = (0..60).map(|_| sample(&mixture, &mut rng)).collect();
        let good = ks_fit(&x, &FitOptions::default(), 100, 11).expect("fit");
        assert!(good.p_value > 0.01, "p = {}", good.p_value);
        // Heavy ties (values rounded to a coarse timer), the report's main cause of rejection (§5.3).
        let tied: Vec<f64> = (0..80).map(|i| f64::from(i % 4).powi(3)).collect();
        let bad = ks_fit(&tied, &FitOptions::default(), 100, 11).expect("fit");
        assert!(bad.p_value < 0.05, "p = {}", bad.p_value);
    }
}
