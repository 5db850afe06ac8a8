//! Univariate Gaussian mixtures fitted by EM, the number of components chosen by BIC as the R package mclust
//! does (paper 001 §3–4, `docs/mixtures.md`).
//!
//! - Model: g(x) = Σ_k π_k φ(x; μ_k, σ_k) with π_k > 0, Σ π_k = 1. Two variance models, mclust's names:
//!   [`VarianceModel::Equal`] ("E", σ_1 = … = σ_K) and [`VarianceModel::Variable`] ("V", distinct σ_k).
//! - EM (Dempster, Laird & Rubin 1977): E-step α_ik = π_k φ_ik / Σ_l π_l φ_il in log space (log-sum-exp);
//!   M-step n_k = Σ_i α_ik, π_k = n_k/n, μ_k = Σ_i α_ik x_i/n_k, σ_k² = Σ_i α_ik (x_i − μ_k)²/n_k (V) or
//!   σ² = Σ_k Σ_i α_ik (x_i − μ_k)²/n (E). After any M-step Σ π_k μ_k = x̄ and Σ π_k (σ_k² + μ_k²) − x̄² is
//!   the 1/n sample variance (tests below). The likelihood never decreases. The loop itself is in
//!   `mixture_em.rs`, vectorised (its own base-2 exponential, the M-step fused into one pass).
//! - Stopping: |L_t − L_{t−1}| ≤ 10⁻⁵ (1 + |L_t|), mclust's relative tolerance `emControl()$tol[1]`; at most
//!   [`FitOptions::max_iterations`] iterations (mclust has no cap; the cap only bounds the cost, the fit at
//!   the cap is kept since L only grows).
//! - Initialisation, deterministic as mclust's for one dimension: the data are split at their type-7
//!   quantiles of orders k/K (class k holds x with q_{(k−1)/K} ≤ x < q_{k/K}, the last class includes the
//!   maximum), and EM starts with an M-step on that hard partition. An empty class (ties) means no start.
//!   mclust's own function for this is `qclass`; `fixtures/r/mixture.R` checks the partition against it.
//!   [`FitOptions::restarts`] adds seeded starts (K distinct data values drawn as centres, nearest-centre
//!   partition; SplitMix64, Steele, Lea & Flood 2014); the start with the highest likelihood is kept.
//! - Choice of K: BIC = 2L − ν ln n, maximised over K = 1..9 and both models, with ν_E = 2K and
//!   ν_V = 3K − 1 (mclust's convention; paper 001 §4.2 states it inconsistently, see `docs/mixtures.md`).
//!   Equal BICs keep the smaller K, then E. Every (K, model) is fitted: no early stop is proved to keep the
//!   BIC's choice (`docs/mixtures.md` §7, "Decision: the BIC's choice before speed").
//! - Singular fits: a fit whose variance falls to the floor σ_min = 10⁻³ · s (s the 1/n standard deviation
//!   of the data) or whose component empties (n_k < 10⁻⁸ n) is discarded, as mclust gives NA for a singular
//!   fit. Without it the V model finds spikes on tied values (rounded timings) with an unbounded likelihood.
//! - Guards: n ≥ 3, finite values, not all equal ([`StatsError`]); K is tried only up to the number of
//!   distinct values.
//!
//! Never ported from R: written from the algorithms above; mclust 6.0 is the oracle (`fixtures/r/mixture.R`).

pub use super::mixture_density::{Component, Mixture, VarianceModel};
use super::mixture_em::{Problem, em};
pub(crate) use super::random::SplitMix64;
use super::sorted::{Sorted, SortedVec};
use super::{StatsError, StatsResult, check_finite, check_len};
use std::borrow::Cow;

/// mclust's default largest number of components.
pub const MAX_COMPONENTS: usize = 9;

const LN_2PI: f64 = 1.837_877_066_409_345_3;

/// One fitted (K, model).
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// Equal (E) or variable (V) component variances.
    pub model: VarianceModel,
    /// The fitted components.
    pub mixture: Mixture,
    /// L at the fitted parameters.
    pub log_likelihood: f64,
    /// 2L − ν ln n.
    pub bic: f64,
    /// EM iterations (E-steps) run.
    pub iterations: usize,
}

impl Fit {
    /// K, the number of components.
    pub fn components(&self) -> usize {
        self.mixture.components.len()
    }
}

/// How to fit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FitOptions {
    /// The largest K tried (mclust: 9).
    pub max_components: usize,
    /// The relative log-likelihood tolerance (mclust: 1e-5).
    pub tolerance: f64,
    /// At most this many EM iterations per start.
    pub max_iterations: usize,
    /// Seeded starts tried beside the quantile partition, per (K, model).
    pub restarts: usize,
    /// Seed of the [`SplitMix64`] that draws the starts of the restarts.
    pub seed: u64,
}

impl Default for FitOptions {
    /// mclust's settings (K ≤ 9, tolerance 1e-5, quantile start only), at most 1000 iterations.
    fn default() -> FitOptions {
        FitOptions {
            max_components: MAX_COMPONENTS,
            tolerance: 1e-5,
            max_iterations: 1000,
            restarts: 0,
            seed: 0,
        }
    }
}

/// The BICs of every (K, model) tried, and the best fit.
#[derive(Debug, Clone, PartialEq)]
pub struct Selection {
    /// The fit with the highest BIC.
    pub best: Fit,
    /// For K = 1.., [BIC of E, BIC of V]; `None` for a singular fit (mclust's NA).
    pub bic: Vec<[Option<f64>; 2]>,
}

/// Fits K = 1..`max_components` under both models and keeps the highest BIC, as mclust's `Mclust(x)`.
///
/// Errors: fewer than 3 values, a non-finite value, or all values equal.
pub fn select(x: &[f64], options: &FitOptions) -> StatsResult<Selection> {
    select_from(Data::new(x)?, options)
}

/// [`select`] of `x` given `sorted`, the same values sorted (the quantile starts read them), without
/// sorting them again: the same fits, the sorted values being the same bits.
pub(crate) fn select_sorted(
    x: &[f64],
    sorted: Sorted<'_>,
    options: &FitOptions,
) -> StatsResult<Selection> {
    select_from(
        Data::with_sorted(x, Cow::Borrowed(sorted.values()))?,
        options,
    )
}

/// [`select`] on the prepared data.
fn select_from(data: Data<'_>, options: &FitOptions) -> StatsResult<Selection> {
    let max_k = options.max_components.min(data.distinct).max(1);
    let mut bic = Vec::with_capacity(max_k);
    let mut best = data.single();
    bic.push([Some(best.bic), Some(best.bic)]);
    for k in 2..=max_k {
        let mut row = [None, None];
        for (slot, model) in [VarianceModel::Equal, VarianceModel::Variable]
            .into_iter()
            .enumerate()
        {
            if let Some(fit) = data.fit_k(k, model, options) {
                row[slot] = Some(fit.bic);
                if fit.bic > best.bic {
                    best = fit;
                }
            }
        }
        bic.push(row);
    }
    Ok(Selection { best, bic })
}

/// Fits one (K, model): the quantile start plus `options.restarts` seeded starts; `None` when every start
/// is singular or K exceeds the number of distinct values.
pub fn fit(
    x: &[f64],
    k: usize,
    model: VarianceModel,
    options: &FitOptions,
) -> StatsResult<Option<Fit>> {
    let data = Data::new(x)?;
    if k == 0 || k > data.distinct {
        return Ok(None);
    }
    if k == 1 {
        return Ok(Some(data.single()));
    }
    Ok(data.fit_k(k, model, options))
}

/// mclust's one-dimensional starting partition: class (0-based) of each value for K classes, from the
/// type-7 quantiles of orders k/K; `None` when a class is empty.
pub fn quantile_partition(x: &[f64], k: usize) -> Option<Vec<usize>> {
    let mut sorted = x.to_vec();
    sorted.sort_by(f64::total_cmp);
    partition_at_quantiles(x, &sorted, k)
}

/// [`quantile_partition`] given `x` sorted.
fn partition_at_quantiles(x: &[f64], sorted: &[f64], k: usize) -> Option<Vec<usize>> {
    let breaks: Vec<f64> = (1..k).map(|j| type7(sorted, j as f64 / k as f64)).collect();
    let classes: Vec<usize> = x
        .iter()
        .map(|&v| breaks.partition_point(|&b| b <= v))
        .collect();
    let mut counts = vec![0usize; k];
    for &c in &classes {
        counts[c] += 1;
    }
    counts.iter().all(|&c| c > 0).then_some(classes)
}

fn type7(sorted: &[f64], p: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * p;
    let lo = h.floor() as usize;
    let f = h - lo as f64;
    match sorted.get(lo + 1) {
        Some(&next) => sorted[lo] + f * (next - sorted[lo]),
        None => sorted[lo],
    }
}

/// The data with what every fit needs.
struct Data<'a> {
    x: &'a [f64],
    /// x − x̄.
    centred: Vec<f64>,
    /// x in increasing order (the quantile starts).
    sorted: Cow<'a, [f64]>,
    mean: f64,
    /// The 1/n variance.
    variance: f64,
    distinct: usize,
    /// σ_min², the variance floor.
    floor: f64,
}

impl<'a> Data<'a> {
    fn new(x: &'a [f64]) -> StatsResult<Data<'a>> {
        Data::with_sorted(x, Cow::Owned(SortedVec::of(x).into_vec()))
    }

    /// The data of `x`, given the same values `sorted` by the total order.
    fn with_sorted(x: &'a [f64], sorted: Cow<'a, [f64]>) -> StatsResult<Data<'a>> {
        debug_assert_eq!(x.len(), sorted.len());
        check_finite(x)?;
        check_len(x, 3)?;
        let n = x.len() as f64;
        let mean0 = x.iter().sum::<f64>() / n;
        let mean = mean0 + x.iter().map(|v| v - mean0).sum::<f64>() / n;
        let variance = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        let distinct = 1 + sorted.windows(2).filter(|w| w[0] != w[1]).count();
        if distinct < 2 || variance <= 0.0 {
            return Err(StatsError::Constant);
        }
        Ok(Data {
            x,
            centred: x.iter().map(|v| v - mean).collect(),
            sorted,
            mean,
            variance,
            distinct,
            floor: 1e-6 * variance,
        })
    }

    fn n(&self) -> f64 {
        self.x.len() as f64
    }

    /// K = 1: the normal MLE (E and V coincide).
    fn single(&self) -> Fit {
        let sd = self.variance.sqrt();
        let mixture = Mixture::new(vec![Component {
            weight: 1.0,
            mean: self.mean,
            sd,
        }]);
        let log_likelihood = -0.5 * self.n() * (LN_2PI + self.variance.ln() + 1.0);
        Fit {
            model: VarianceModel::Equal,
            mixture,
            log_likelihood,
            bic: 2.0 * log_likelihood - 2.0 * self.n().ln(),
            iterations: 0,
        }
    }

    fn fit_k(&self, k: usize, model: VarianceModel, options: &FitOptions) -> Option<Fit> {
        let mut best: Option<Fit> = None;
        let mut consider = |fit: Option<Fit>| {
            if let Some(fit) = fit
                && best
                    .as_ref()
                    .is_none_or(|b| fit.log_likelihood > b.log_likelihood)
            {
                best = Some(fit);
            }
        };
        if let Some(classes) = partition_at_quantiles(self.x, &self.sorted, k) {
            consider(self.em(&classes, k, model, options).map(|(fit, _)| fit));
        }
        let mut rng = SplitMix64::new(options.seed ^ ((k as u64) << 32) ^ model as u64);
        for _ in 0..options.restarts {
            if let Some(classes) = self.random_partition(k, &mut rng) {
                consider(self.em(&classes, k, model, options).map(|(fit, _)| fit));
            }
        }
        best
    }

    /// K distinct data values drawn as centres, each value in the class of its nearest centre.
    fn random_partition(&self, k: usize, rng: &mut SplitMix64) -> Option<Vec<usize>> {
        let mut centres: Vec<f64> = Vec::with_capacity(k);
        let mut attempts = 0;
        while centres.len() < k && attempts < 100 * k {
            attempts += 1;
            let v = self.x[rng.below(self.x.len())];
            if !centres.contains(&v) {
                centres.push(v);
            }
        }
        if centres.len() < k {
            return None;
        }
        centres.sort_by(f64::total_cmp);
        Some(
            self.x
                .iter()
                .map(|&v| {
                    (0..k)
                        .min_by(|&a, &b| (v - centres[a]).abs().total_cmp(&(v - centres[b]).abs()))
                        .unwrap_or(0)
                })
                .collect(),
        )
    }

    /// EM from a hard partition into K classes, starting with an M-step (`mixture_em.rs`). Returns the fit
    /// and the log-likelihood after each E-step; `None` when the fit is singular.
    fn em(
        &self,
        classes: &[usize],
        k: usize,
        model: VarianceModel,
        options: &FitOptions,
    ) -> Option<(Fit, Vec<f64>)> {
        let problem = Problem {
            centred: &self.centred,
            floor: self.floor,
            tolerance: options.tolerance,
            max_iterations: options.max_iterations,
        };
        let run = em(&problem, classes, k, model)?;
        let components = run
            .params
            .iter()
            .map(|p| Component {
                weight: p.weight,
                mean: self.mean + p.centre,
                sd: p.variance.sqrt(),
            })
            .collect();
        let fit = Fit {
            model,
            mixture: Mixture::new(components),
            log_likelihood: run.log_likelihood,
            bic: 2.0 * run.log_likelihood - model.parameters(k) as f64 * self.n().ln(),
            iterations: run.iterations,
        };
        Some((fit, run.trace))
    }
}

pub mod unimodal;

#[cfg(test)]
mod tests;
