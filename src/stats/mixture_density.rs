//! A univariate Gaussian mixture as a distribution: g(x) = Σ_k π_k φ(x; μ_k, σ_k), its distribution function,
//! quantiles, moments, log-likelihood and Kolmogorov distance to a sample (paper 001 §3.1, `docs/mixtures.md`), and
//! the variance models (E, V) a fit chooses between. Fitting lives in `mixture.rs`, modes in `modes.rs`.

use super::normal;

const LN_2PI: f64 = 1.837_877_066_409_345_3;

/// One component π φ(x; μ, σ).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Component {
    /// π, the mixing proportion, in [0, 1]; a fitted mixture's weights sum to 1.
    pub weight: f64,
    /// μ, the component's mean, in the sample's units.
    pub mean: f64,
    /// σ, the component's standard deviation, in the sample's units (> 0).
    pub sd: f64,
}

/// A Gaussian mixture, components sorted by mean.
#[derive(Debug, Clone, PartialEq)]
pub struct Mixture {
    /// The components π_k φ(x; μ_k, σ_k), in increasing mean.
    pub components: Vec<Component>,
}

impl Mixture {
    /// A mixture of the given components (sorted here by mean); weights are taken as given.
    pub fn new(mut components: Vec<Component>) -> Mixture {
        components.sort_by(|a, b| a.mean.total_cmp(&b.mean));
        Mixture { components }
    }

    /// A mixture from its parameters as columns (weights, means, standard deviations), as the papers and
    /// mclust print them; the shortest column sets the number of components.
    pub fn from_columns(weights: &[f64], means: &[f64], sds: &[f64]) -> Mixture {
        Mixture::new(
            weights
                .iter()
                .zip(means)
                .zip(sds)
                .map(|((&weight, &mean), &sd)| Component { weight, mean, sd })
                .collect(),
        )
    }

    /// The density g(x).
    pub fn pdf(&self, x: f64) -> f64 {
        self.components
            .iter()
            .map(|c| c.weight * normal_pdf((x - c.mean) / c.sd) / c.sd)
            .sum()
    }

    /// The derivative g'(x) = Σ π_k φ_k(x) (μ_k − x)/σ_k².
    pub fn pdf_derivative(&self, x: f64) -> f64 {
        self.components
            .iter()
            .map(|c| {
                let z = (x - c.mean) / c.sd;
                -c.weight * normal_pdf(z) * z / (c.sd * c.sd)
            })
            .sum()
    }

    /// The distribution function F(x).
    pub fn cdf(&self, x: f64) -> f64 {
        self.components
            .iter()
            .map(|c| c.weight * normal::cdf((x - c.mean) / c.sd))
            .sum()
    }

    /// The p-quantile, the solution of F(q) = p by bisection (to the last bit), for p in (0, 1).
    pub fn quantile(&self, p: f64) -> f64 {
        let lo_start = self
            .components
            .iter()
            .map(|c| c.mean - 40.0 * c.sd)
            .fold(f64::INFINITY, f64::min);
        let hi_start = self
            .components
            .iter()
            .map(|c| c.mean + 40.0 * c.sd)
            .fold(f64::NEG_INFINITY, f64::max);
        let (mut lo, mut hi) = (lo_start, hi_start);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if self.cdf(mid) < p {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    }

    /// The mixture's mean Σ π_k μ_k.
    pub fn mean(&self) -> f64 {
        self.components.iter().map(|c| c.weight * c.mean).sum()
    }

    /// The mixture's variance Σ π_k (σ_k² + μ_k²) − mean².
    pub fn variance(&self) -> f64 {
        let mean = self.mean();
        self.components
            .iter()
            .map(|c| c.weight * (c.sd * c.sd + (c.mean - mean).powi(2)))
            .sum()
    }

    /// L = Σ_i log g(x_i), computed in log space.
    pub fn log_likelihood(&self, x: &[f64]) -> f64 {
        let mut terms = vec![0.0; self.components.len()];
        x.iter()
            .map(|&xi| {
                for (t, c) in terms.iter_mut().zip(&self.components) {
                    *t = log_component(xi, c.weight.ln(), c.mean, c.sd.ln(), 1.0 / c.sd);
                }
                log_sum_exp(&terms)
            })
            .sum()
    }

    /// The Kolmogorov distance sup_x |F_n(x) − F(x)| between the data's empirical distribution and the
    /// mixture, max_i max(i/n − F(x_(i)), F(x_(i)) − (i−1)/n) on sorted data (exact with ties).
    pub fn ks_distance(&self, x: &[f64]) -> f64 {
        let mut sorted = x.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len() as f64;
        sorted
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let f = self.cdf(v);
                ((i + 1) as f64 / n - f).max(f - i as f64 / n)
            })
            .fold(0.0, f64::max)
    }
}

/// log(π φ(x; μ, σ)) from log π, μ, log σ and 1/σ.
fn log_component(x: f64, log_weight: f64, mean: f64, log_sd: f64, inv_sd: f64) -> f64 {
    let z = (x - mean) * inv_sd;
    log_weight - log_sd - 0.5 * (LN_2PI + z * z)
}

fn log_sum_exp(terms: &[f64]) -> f64 {
    let max = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !max.is_finite() {
        return max;
    }
    max + terms.iter().map(|t| (t - max).exp()).sum::<f64>().ln()
}

fn normal_pdf(z: f64) -> f64 {
    (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

/// The variance model, with mclust's one-letter names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VarianceModel {
    /// "E": one variance common to every component.
    Equal,
    /// "V": one variance per component.
    Variable,
}

impl VarianceModel {
    /// mclust's name of the model: "E" or "V".
    pub fn as_str(self) -> &'static str {
        match self {
            VarianceModel::Equal => "E",
            VarianceModel::Variable => "V",
        }
    }

    /// ν, the number of free parameters of a K-component mixture under this model.
    pub fn parameters(self, k: usize) -> usize {
        match self {
            VarianceModel::Equal => 2 * k,
            VarianceModel::Variable => 3 * k - 1,
        }
    }
}
