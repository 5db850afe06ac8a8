//! HPT's confidence curve: for a grid of gamma, the confidence that HEAD is more than gamma times faster
//! than BASE, and the confidence that it is less than gamma times faster (BASE more than 1/gamma times
//! faster). It is what the HTML report draws: "how much faster, with what confidence" in one picture, the
//! r-speedup being where a curve crosses r.
//!
//! Each point is the sign-flip test of paper 003 §4.1 (the one behind [`super::hpt`]'s confidence), with
//! HEAD's times multiplied by gamma: the first curve is 1 − p of its upper tail, the second 1 − p of its
//! lower tail. Scaling BASE by 1/gamma instead gives the same ranks, so the second curve at gamma is the
//! "slower by more than 1/gamma" confidence of Algorithm 1's other direction. Neither curve need be
//! monotone (ranks move as gamma grows), so the curve is sampled, never interpolated into a decision: the
//! r-speedup stays Algorithm 1's.

use super::speedup::{MAX_SPEEDUP, PreparedSuite};
use crate::protocol::ConfidencePoint;
use crate::stats::sign_flip::sign_flip;

/// How many log-spaced gammas the curve samples between its ends (gamma = 1 is added when inside).
pub const CURVE_POINTS: usize = 61;

impl PreparedSuite<'_> {
    /// Both confidences at each of `gammas`, in order. Empty for an empty suite.
    pub(super) fn curve(&self, gammas: &[f64]) -> Vec<ConfidencePoint> {
        if self.benchmarks.is_empty() {
            return Vec::new();
        }
        gammas
            .iter()
            .filter(|g| g.is_finite() && **g > 0.0)
            .map(|&gamma| {
                let d: Vec<f64> = self
                    .benchmarks
                    .iter()
                    .map(|b| b.difference(1.0, gamma, &self.tables).0)
                    .collect();
                let (p_greater, p_less) =
                    sign_flip(&d).map_or((1.0, 1.0), |t| (t.p_greater, t.p_less));
                ConfidencePoint {
                    gamma,
                    faster: 1.0 - p_greater,
                    slower: 1.0 - p_less,
                }
            })
            .collect()
    }
}

/// The gammas the curve samples: [`CURVE_POINTS`] log-spaced values spanning every speedup in `speedups`
/// (the benchmarks' median speedups, the r-speedup) and 1, widened by 5 % on each side and kept within
/// [1/1000, 1000]; gamma = 1 is inserted exactly. Empty when `speedups` has no finite positive value.
pub fn curve_gammas(speedups: impl IntoIterator<Item = f64>) -> Vec<f64> {
    let (lo, hi) = speedups
        .into_iter()
        .filter(|s| s.is_finite() && *s > 0.0)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), s| {
            (lo.min(s), hi.max(s))
        });
    if !(lo.is_finite() && hi.is_finite()) {
        return Vec::new();
    }
    let lo = (lo.min(1.0) / 1.05).max(1.0 / MAX_SPEEDUP).ln();
    let hi = (hi.max(1.0) * 1.05).min(MAX_SPEEDUP).ln();
    let step = (hi - lo) / (CURVE_POINTS - 1) as f64;
    let mut gammas: Vec<f64> = (0..CURVE_POINTS)
        .map(|i| (lo + step * i as f64).exp())
        .collect();
    if let Some(at) = gammas.iter().position(|g| *g >= 1.0) {
        if gammas[at] != 1.0 {
            gammas.insert(at, 1.0);
        }
    }
    gammas
}
