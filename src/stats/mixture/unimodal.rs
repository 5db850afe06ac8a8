//! The unimodal reference of the shape warnings (`docs/mixtures.md` §4): the two-piece exponential power
//! distribution, fitted by maximum likelihood, whose BIC a mixture must beat before its modes are taken as
//! there.
//!
//! - Density, for location μ, left and right scales α_L, α_R > 0 and shape p ≥ 1:
//!   f(x) = exp(−|x − μ|^p / (p α^p)) / ((α_L + α_R) p^{1/p} Γ(1 + 1/p)), with α = α_L left of μ and α_R
//!   right of it. It is the exponential power family (Box & Tiao 1973, *Bayesian Inference in Statistical
//!   Analysis* §3.2.1: p = 2 the normal, p = 1 the Laplace, p → ∞ the uniform) made skew by giving each
//!   side its own scale (the two-piece construction; Fernández, Osiewalski & Steel 1995, *J. Am. Stat.
//!   Assoc.* 90:1331–1340). Every member has one mode, at μ: it covers the flat tops (large p) and the
//!   skewed one-state noise that a Gaussian mixture describes with several modes.
//! - Fit: for fixed μ and p the scales have a closed form. With S_L = Σ_{x_i<μ} (μ − x_i)^p,
//!   S_R = Σ_{x_i≥μ} (x_i − μ)^p and D = S_L^{1/(p+1)} + S_R^{1/(p+1)}, the likelihood equations give
//!   α_L + α_R = s = (D^{p+1}/n)^{1/p}, α_L = s S_L^{1/(p+1)}/D, α_R = s S_R^{1/(p+1)}/D, and the exponents
//!   sum to n/p, so L(μ, p) = −n [((p + 1)/p) ln D − (ln n)/p + (ln p)/p + ln Γ(1 + 1/p) + 1/p].
//!   p runs over [`SHAPES`] (powers made by multiplication only, no exponential per value), μ over a grid
//!   of 33 points from the smallest value to the largest, then golden-section search between the best
//!   grid point's neighbours. The fit is a lower bound of the family's supremum (a grid of p); a reference
//!   found too low only makes a mixture look better against it, never worse.
//! - BIC = 2L − 4 ln n (μ, α_L, α_R, p), the convention of mclust's BIC (`mixture.rs`).
//! - The likelihood is bounded (one pair of scales for every value), so there is no singular fit to guard.
//!
//! Checked against R's `optim` on the same likelihood (`fixtures/r/unimodal.R`). Pure; no allocation
//! beyond one copy of the values.

use crate::stats::sorted::{Sorted, SortedVec};
use crate::stats::{StatsError, StatsResult, check_finite, check_len};

/// The shapes p the fit tries: the normal (2), the Laplace (1), and flatter tops up to 32 (a uniform of
/// 200 values is fitted within about 0.6 of its likelihood by p = 32).
pub const SHAPES: [f64; 13] = [
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 16.0, 20.0, 24.0, 32.0,
];

/// The free parameters of the family: μ, α_L, α_R, p.
pub const PARAMETERS: usize = 4;

/// The points of the first grid of μ.
const GRID: usize = 33;

/// Golden-section steps after the grid: the bracket shrinks to 0.618^40 of two grid steps.
const GOLDEN_STEPS: usize = 40;

/// A fitted two-piece exponential power distribution.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Unimodal {
    /// μ, the mode, in the sample's units.
    pub location: f64,
    /// α_L, the scale left of μ, in the sample's units.
    pub left_scale: f64,
    /// α_R, the scale right of μ, in the sample's units.
    pub right_scale: f64,
    /// p, one of [`SHAPES`].
    pub shape: f64,
    /// L at these parameters.
    pub log_likelihood: f64,
    /// The number of values fitted.
    pub n: usize,
}

impl Unimodal {
    /// 2L − 4 ln n.
    pub fn bic(&self) -> f64 {
        2.0 * self.log_likelihood - PARAMETERS as f64 * (self.n as f64).ln()
    }

    /// The density at `x`.
    pub fn pdf(&self, x: f64) -> f64 {
        let p = self.shape;
        let (d, a) = if x < self.location {
            (self.location - x, self.left_scale)
        } else {
            (x - self.location, self.right_scale)
        };
        let norm =
            (self.left_scale + self.right_scale) * (p.ln() / p + ln_gamma(1.0 + 1.0 / p)).exp();
        if a == 0.0 {
            return if d == 0.0 { 1.0 / norm } else { 0.0 };
        }
        (-(d / a).powf(p) / p).exp() / norm
    }
}

/// The maximum-likelihood two-piece exponential power fit of `x` (over [`SHAPES`]).
///
/// Errors: fewer than 3 values, a non-finite value, or all values equal.
pub fn fit_unimodal(x: &[f64]) -> StatsResult<Unimodal> {
    check_finite(x)?;
    check_len(x, 3)?;
    fit_unimodal_sorted(SortedVec::of(x).as_sorted())
}

/// [`fit_unimodal`] of values already sorted (finite, at least 3).
pub(crate) fn fit_unimodal_sorted(sorted: Sorted<'_>) -> StatsResult<Unimodal> {
    let x = sorted.values();
    check_len(x, 3)?;
    let (lo, hi) = (x[0], x[x.len() - 1]);
    if !(lo.is_finite() && hi.is_finite()) {
        return Err(StatsError::NonFinite);
    }
    if hi <= lo {
        return Err(StatsError::Constant);
    }
    // On u = (x − centre)/r, in [−1, 1]: the powers up to 32 stay in range whatever the units.
    let (centre, r) = (0.5 * (lo + hi), hi - lo);
    let u: Vec<f64> = x.iter().map(|v| (v - centre) / r).collect();
    let n = u.len() as f64;
    let (u_lo, u_hi) = (u[0], u[u.len() - 1]);
    let profile = |mu: f64| best_shape(&u, mu, n);
    let step = (u_hi - u_lo) / (GRID - 1) as f64;
    let mut best = (f64::NEG_INFINITY, u_lo, 0);
    for i in 0..GRID {
        let mu = u_lo + step * i as f64;
        let (l, p) = profile(mu);
        if l > best.0 {
            best = (l, mu, p);
        }
    }
    // Golden section for the largest profile likelihood between the grid neighbours of the best point.
    let ratio = 0.5 * (5f64.sqrt() - 1.0);
    let (mut a, mut b) = ((best.1 - step).max(u_lo), (best.1 + step).min(u_hi));
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (profile(c), profile(d));
    for _ in 0..GOLDEN_STEPS {
        for (l, mu, p) in [(fc.0, c, fc.1), (fd.0, d, fd.1)] {
            if l > best.0 {
                best = (l, mu, p);
            }
        }
        if fc.0 >= fd.0 {
            (b, d, fd) = (d, c, fc);
            c = b - ratio * (b - a);
            fc = profile(c);
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + ratio * (b - a);
            fd = profile(d);
        }
    }
    let (l_u, mu, shape_index) = best;
    let p = SHAPES[shape_index];
    let [s_l, s_r] = sums(&u, mu)[shape_index];
    let e = 1.0 / (p + 1.0);
    let (pl, pr) = (s_l.powf(e), s_r.powf(e));
    let dsum = pl + pr;
    let s = (dsum.powf(p + 1.0) / n).powf(1.0 / p);
    Ok(Unimodal {
        location: centre + r * mu,
        left_scale: r * s * pl / dsum,
        right_scale: r * s * pr / dsum,
        shape: p,
        log_likelihood: l_u - n * r.ln(),
        n: u.len(),
    })
}

/// max over p of L(μ, p) on the standardised values, and the index of that p in [`SHAPES`].
fn best_shape(u: &[f64], mu: f64, n: f64) -> (f64, usize) {
    let mut best = (f64::NEG_INFINITY, 0);
    for (i, [s_l, s_r]) in sums(u, mu).into_iter().enumerate() {
        let l = profile_log_likelihood(s_l, s_r, SHAPES[i], n);
        if l > best.0 {
            best = (l, i);
        }
    }
    best
}

/// L(μ, p) with the scales at their maximum, from S_L and S_R (module doc).
fn profile_log_likelihood(s_l: f64, s_r: f64, p: f64, n: f64) -> f64 {
    let e = 1.0 / (p + 1.0);
    let d = s_l.powf(e) + s_r.powf(e);
    if d <= 0.0 || !d.is_finite() {
        return f64::NEG_INFINITY;
    }
    -n * ((p + 1.0) / p * d.ln() - n.ln() / p + p.ln() / p + ln_gamma(1.0 + 1.0 / p) + 1.0 / p)
}

/// [S_L, S_R] at μ for every p of [`SHAPES`].
fn sums(u: &[f64], mu: f64) -> [[f64; 2]; SHAPES.len()] {
    let mut s = [[0.0; 2]; SHAPES.len()];
    for &v in u {
        let side = usize::from(v >= mu);
        let a = (v - mu).abs();
        let a2 = a * a;
        let a3 = a2 * a;
        let a4 = a2 * a2;
        let a5 = a4 * a;
        let a6 = a3 * a3;
        let a8 = a4 * a4;
        let a10 = a5 * a5;
        let a12 = a6 * a6;
        let a16 = a8 * a8;
        let a20 = a10 * a10;
        let a24 = a12 * a12;
        let a32 = a16 * a16;
        let powers = [a, a2, a3, a4, a5, a6, a8, a10, a12, a16, a20, a24, a32];
        for (si, pw) in s.iter_mut().zip(powers) {
            si[side] += pw;
        }
    }
    s
}

/// ln Γ(z) for z > 0: the recurrence Γ(z) = Γ(z + 8)/(z (z + 1) ⋯ (z + 7)), then Stirling's series for
/// w = z + 8 ≥ 8 to the term in w⁻⁹ (Abramowitz & Stegun 6.1.40); within 10⁻¹² of ln Γ for z ≥ ½ (tested).
pub(crate) fn ln_gamma(z: f64) -> f64 {
    let mut product = 1.0;
    let mut w = z;
    for _ in 0..8 {
        product *= w;
        w += 1.0;
    }
    let (w2, half_ln_2pi) = (w * w, 0.918_938_533_204_672_8);
    let series = (1.0 / 12.0
        + (-1.0 / 360.0 + (1.0 / 1260.0 + (-1.0 / 1680.0 + (1.0 / 1188.0) / w2) / w2) / w2) / w2)
        / w;
    (w - 0.5) * w.ln() - w + half_ln_2pi + series - product.ln()
}

#[cfg(test)]
mod tests;
