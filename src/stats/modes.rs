//! The modes of a fitted Gaussian mixture: paper 001's I4 (§6.4, eq. 14), the number of strict local maxima
//! of the density, with where each lies and how much probability it carries.
//!
//! - Every mode of a univariate Gaussian mixture lies in [min μ_k, max μ_k] (outside it every component
//!   decreases away from the interval). The density is scanned there with a step of at most min σ_k / 10
//!   (a fixed grid fails: the App. A fit has σ = 0.004 in a range of 2.8), every strict local maximum of
//!   the scan is refined by bisection on the sign of g'(x) = Σ π_k φ_k(x)(μ_k − x)/σ_k² to the last bit,
//!   and the local minimum between two consecutive modes (an antimode) is the sign change of g' between them.
//! - The weight of a mode is the probability mass of its basin, F(right antimode) − F(left antimode) with
//!   F(−∞) = 0 and F(+∞) = 1. Two components that merge into one mode (App. A: components 2 and 3) give
//!   their mass to it; one component never splits.
//! - The number of modes can be smaller than K (Fig. 6 C: K = 2, one mode).
//! - Cost: K + K·(range / (min σ / 10)) density evaluations; the scan is capped at [`MAX_SCAN`] points,
//!   beyond which the step grows (only a mixture with a spike far narrower than its range reaches it).
//!
//! Oracles: the Fig. 6 mixtures and the App. A fit of paper 001, located in R by `optimize` on the density
//! (`fixtures/r/mixture.R`).

use super::mixture::Mixture;

/// The largest number of points of the scan.
pub const MAX_SCAN: usize = 200_000;

/// One mode of a mixture density.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mode {
    /// Where the density peaks.
    pub location: f64,
    /// The probability mass between the antimodes on either side of it.
    pub weight: f64,
}

/// The modes of `mixture`, in increasing location, with the antimodes between them.
#[derive(Debug, Clone, PartialEq)]
pub struct Modes {
    /// The modes, in increasing location.
    pub modes: Vec<Mode>,
    /// The local minima between consecutive modes (one fewer than the modes).
    pub antimodes: Vec<f64>,
}

/// The strict local maxima of the mixture's density, and the minima between them.
pub fn modes(mixture: &Mixture) -> Modes {
    let c = &mixture.components;
    if c.len() <= 1 {
        return Modes {
            modes: c
                .iter()
                .map(|c| Mode {
                    location: c.mean,
                    weight: 1.0,
                })
                .collect(),
            antimodes: Vec::new(),
        };
    }
    let lo = c.iter().map(|c| c.mean).fold(f64::INFINITY, f64::min);
    let hi = c.iter().map(|c| c.mean).fold(f64::NEG_INFINITY, f64::max);
    let min_sd = c.iter().map(|c| c.sd).fold(f64::INFINITY, f64::min);
    let steps = (((hi - lo) / (min_sd / 10.0)).ceil() as usize).clamp(2, MAX_SCAN);
    let step = (hi - lo) / steps as f64;
    // The scan includes one point beyond each end, so that a maximum at a bound is strict inside the scan.
    let at = |i: usize| lo + (i as f64 - 1.0) * step;
    // The density up to its constant factor 1/√(2π), which no comparison needs.
    let terms: Vec<(f64, f64, f64)> = c
        .iter()
        .map(|c| (c.weight / c.sd, c.mean, 0.5 / (c.sd * c.sd)))
        .collect();
    let density = |x: f64| -> f64 {
        terms
            .iter()
            .map(|&(scale, mean, half_precision)| {
                let d = x - mean;
                scale * (-d * d * half_precision).exp()
            })
            .sum()
    };
    let mut maxima = Vec::new();
    let (mut before, mut here) = (density(at(0)), density(at(1)));
    for i in 1..=steps + 1 {
        let after = density(at(i + 1));
        if here > before && here > after {
            maxima.push(refine(mixture, at(i - 1), at(i + 1), true));
        }
        (before, here) = (here, after);
    }
    // Between two strict maxima g' goes from negative to positive: the antimode is where it changes sign
    // (the scan may straddle it with two equal values, so it is not taken from the scan).
    let minima: Vec<f64> = maxima
        .windows(2)
        .map(|w| refine(mixture, w[0], w[1], false))
        .collect();
    let mut cuts = vec![0.0];
    cuts.extend(minima.iter().map(|&m| mixture.cdf(m)));
    cuts.push(1.0);
    let modes = maxima
        .iter()
        .zip(cuts.windows(2))
        .map(|(&location, w)| Mode {
            location,
            weight: w[1] - w[0],
        })
        .collect();
    Modes {
        modes,
        antimodes: minima,
    }
}

/// The zero of g' in [a, b] by bisection: g' > 0 left of a maximum (`peak`), < 0 left of a minimum.
fn refine(mixture: &Mixture, mut a: f64, mut b: f64, peak: bool) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (a + b);
        if mid <= a || mid >= b {
            break;
        }
        let rising = mixture.pdf_derivative(mid) > 0.0;
        if rising == peak {
            a = mid;
        } else {
            b = mid;
        }
    }
    0.5 * (a + b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::oracle::{load, numbers};

    fn mixture(w: &[f64], m: &[f64], s: &[f64]) -> Mixture {
        Mixture::from_columns(w, m, s)
    }

    /// docs/mixtures.md §7.2 and §7.1: Fig. 6 A has 3 modes (2, 8, 25), B 3 (4.000, 16.008, 22.967), C one
    /// (10.574) although K = 2; the App. A fit 4 (92.21333, 93.41594, 94.21802, 94.99607) for K = 5. R's
    /// `optimize` on the density gives them to about 1e-8, and the antimodes and basin masses likewise.
    #[test]
    fn fig6_and_app_a_modes_match_the_closed_forms() {
        for case in load("mixture")["modes"].as_array().expect("modes") {
            let name = case["name"].as_str().expect("name");
            let m = mixture(
                &numbers(&case["weight"]),
                &numbers(&case["mean"]),
                &numbers(&case["sd"]),
            );
            let got = modes(&m);
            let want = numbers(&case["modes"]);
            assert_eq!(got.modes.len(), want.len(), "{name}: number of modes");
            for (g, w) in got.modes.iter().zip(&want) {
                assert!(
                    (g.location - w).abs() < 1e-6,
                    "{name}: mode {} v {w}",
                    g.location
                );
            }
            for (g, w) in got.antimodes.iter().zip(numbers(&case["antimodes"])) {
                assert!((g - w).abs() < 1e-6, "{name}: antimode {g} v {w}");
            }
            for (g, w) in got.modes.iter().zip(numbers(&case["mode_weights"])) {
                assert!(
                    (g.weight - w).abs() < 1e-6,
                    "{name}: weight {} v {w}",
                    g.weight
                );
            }
        }
    }

    #[test]
    fn printed_values_of_the_paper() {
        // docs/mixtures.md §7.2 (3 decimals printed) and §7.1 (5 decimals printed).
        let b = modes(&mixture(
            &[0.25, 0.5, 0.25],
            &[4.0, 16.0, 23.0],
            &[1.5, 2.0, 2.0],
        ));
        let at: Vec<f64> = b.modes.iter().map(|m| m.location).collect();
        assert!((at[0] - 4.000).abs() < 5e-4 && (at[1] - 16.008).abs() < 5e-4);
        assert!((at[2] - 22.967).abs() < 1e-3);
        let c = modes(&mixture(&[0.35, 0.65], &[10.0, 14.0], &[2.0, 4.0]));
        assert_eq!(c.modes.len(), 1);
        assert!((c.modes[0].location - 10.574).abs() < 5e-4);
        assert_eq!(c.modes[0].weight, 1.0);
    }

    #[test]
    fn one_component_is_one_mode_at_its_mean() {
        let m = modes(&mixture(&[1.0], &[3.0], &[0.5]));
        assert_eq!(
            m.modes,
            vec![Mode {
                location: 3.0,
                weight: 1.0
            }]
        );
    }

    #[test]
    fn equal_halves_two_sigma_apart_are_one_mode() {
        // A 50/50 mixture of equal-variance normals is bimodal iff |μ1 − μ2| > 2σ (closed form).
        let one = modes(&mixture(&[0.5, 0.5], &[0.0, 1.99], &[1.0, 1.0]));
        let two = modes(&mixture(&[0.5, 0.5], &[0.0, 2.01], &[1.0, 1.0]));
        assert_eq!((one.modes.len(), two.modes.len()), (1, 2));
        // Symmetric: the antimode is the midpoint and each mode carries half.
        assert!((two.antimodes[0] - 1.005).abs() < 1e-9, "{two:?}");
        assert!((two.modes[0].weight - 0.5).abs() < 1e-12);
    }
}
