//! Paper 001's comparison metrics of two or more versions (§6, `docs/mixtures.md` §2): I1 = E|X − Y|,
//! I2 = P\[X < Y\] and I3 = P\[X₁ < min(X₂, …, X_r)\], each non-parametric (from the samples) and parametric
//! (from fitted Gaussian mixtures).
//!
//! Notation: X, Y, X_j are versions (here BASE, HEAD and, for I3, any further revisions); one draw of each
//! is one run. The paper's evidence (§6.5) is that the non-parametric estimates are as good as the
//! parametric ones (better for I2), so reports show the former and the latter only as a cross-check.
//!
//! - Ĩ1 = (1/nm) Σ_i Σ_j |x_i − y_j| (eq. 5), in O((n + m) log m) with sorting and prefix sums.
//! - Ĩ3 = (1/∏n_j) #{tuples with x_{i,1} < min_{j≥2} x_{i_j,j}} (eq. 12, strict "<"; the prose's "≤" is an
//!   erratum), which factorises as (1/n₁) Σ_i ∏_{j≥2} #{l : x_{l,j} > x_{i,1}}/n_j: O(Σ n_j log n_j).
//!   With two versions it is the strict P\[X₁ < X₂\] (Ĩ2 with ties counted 0, where `p_head_faster` counts
//!   them ½).
//! - Î1 = Σ_ij π_i π'_j [d_ij (2Φ(d_ij/s_ij) − 1) + 2 s_ij φ(d_ij/s_ij)], d = μ_i − μ'_j,
//!   s = √(σ_i² + σ'_j²) (eq. 7, from E|Z| for Z normal, eq. 6).
//! - Î2(Δ) = P\[X < Y + Δ\] = Σ_ij π_i π'_j Φ((Δ + μ'_j − μ_i)/s_ij) (eq. 10).
//! - Î3 = ∫ f̂₁(x) ∏_{j≥2} (1 − F̂_j(x)) dx (eq. 13 with its erratum corrected: the product is already the
//!   survival), by composite Simpson per component of f̂₁ over μ ± 12σ, the step at most a twentieth of the
//!   smallest σ of all the mixtures.
//!
//! Oracles: the closed forms of the Fig. 6 mixtures (`docs/mixtures.md` §7.2) and full enumeration.

use super::mixture::Mixture;
use super::normal;
use super::sorted::{Sorted, SortedVec};

/// Ĩ1 = E|X − Y| estimated from the samples; `None` when either is empty.
pub fn mean_abs_difference(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.is_empty() || y.is_empty() {
        return None;
    }
    // Centred on one value so that large times with small differences keep their digits.
    let origin = y[0];
    let mut sorted: Vec<f64> = y.iter().map(|v| v - origin).collect();
    sorted.sort_by(f64::total_cmp);
    sum_abs_differences(x, &sorted, origin)
}

/// [`mean_abs_difference`] given `y_sorted`, `y`'s values sorted (`y` itself gives the origin, its first
/// value): y − origin is sorted from it in one pass ([`Sorted::map_increasing`]), the same values in the
/// same order as sorting y − origin.
pub(crate) fn mean_abs_difference_sorted(
    x: &[f64],
    y: &[f64],
    y_sorted: Sorted<'_>,
) -> Option<f64> {
    if x.is_empty() || y.is_empty() {
        return None;
    }
    let origin = y[0];
    let sorted = y_sorted.map_increasing(|v| v - origin);
    sum_abs_differences(x, sorted.values(), origin)
}

/// Ĩ1 from non-empty `x` and the values of y minus `origin`, sorted.
fn sum_abs_differences(x: &[f64], sorted: &[f64], origin: f64) -> Option<f64> {
    let mut prefix = Vec::with_capacity(sorted.len() + 1);
    prefix.push(0.0);
    for v in sorted {
        prefix.push(prefix.last().copied().unwrap_or(0.0) + v);
    }
    let total = prefix[sorted.len()];
    let m = sorted.len() as f64;
    let sum: f64 = x
        .iter()
        .map(|&xi| {
            let xi = xi - origin;
            let below = sorted.partition_point(|&v| v < xi);
            let (c, s_below) = (below as f64, prefix[below]);
            (xi * c - s_below) + (total - s_below - xi * (m - c))
        })
        .sum();
    Some(sum / (x.len() as f64 * m))
}

/// Ĩ3 = P[a run of `first` is strictly faster than one run of each of `others`]; `None` when any sample is
/// empty. With one other version it is the strict P\[X₁ < X₂\].
pub fn p_first_fastest(first: &[f64], others: &[&[f64]]) -> Option<f64> {
    if first.is_empty() || others.iter().any(|o| o.is_empty()) {
        return None;
    }
    let sorted: Vec<SortedVec> = others.iter().map(|o| SortedVec::of(o)).collect();
    let views: Vec<Sorted<'_>> = sorted.iter().map(SortedVec::as_sorted).collect();
    p_first_fastest_sorted(first, &views)
}

/// [`p_first_fastest`] given the other versions sorted, without sorting them again.
pub(crate) fn p_first_fastest_sorted(first: &[f64], others: &[Sorted<'_>]) -> Option<f64> {
    if first.is_empty() || others.iter().any(|o| o.len() == 0) {
        return None;
    }
    let sorted: Vec<&[f64]> = others.iter().map(|o| o.values()).collect();
    let sum: f64 = first
        .iter()
        .map(|&x| {
            sorted
                .iter()
                .map(|s| (s.len() - s.partition_point(|&v| v <= x)) as f64 / s.len() as f64)
                .product::<f64>()
        })
        .sum();
    Some(sum / first.len() as f64)
}

/// Î1 = E|X − Y| for X and Y drawn from two mixtures (eq. 7).
pub fn mixture_mean_abs_difference(x: &Mixture, y: &Mixture) -> f64 {
    pairs(x, y, |d, s| {
        d * (2.0 * normal::cdf(d / s) - 1.0) + 2.0 * s * normal_pdf(d / s)
    })
}

/// Î2(Δ) = P\[X < Y + Δ\] for X and Y drawn from two mixtures (eq. 10; Δ = 0 is I2).
pub fn mixture_p_less(x: &Mixture, y: &Mixture, delta: f64) -> f64 {
    // d = μ_x − μ_y, so P[X − Y < Δ] = Φ((Δ − d)/s).
    pairs(x, y, |d, s| normal::cdf((delta - d) / s))
}

/// Î3 = P\[X₁ < min(X₂, …)\] for draws from mixtures (eq. 13), by numerical integration.
pub fn mixture_p_first_fastest(first: &Mixture, others: &[&Mixture]) -> f64 {
    let smallest = first
        .components
        .iter()
        .chain(others.iter().flat_map(|o| o.components.iter()))
        .map(|c| c.sd)
        .fold(f64::INFINITY, f64::min);
    let survival = |t: f64| -> f64 { others.iter().map(|o| 1.0 - o.cdf(t)).product() };
    first
        .components
        .iter()
        .map(|c| {
            let (lo, hi) = (c.mean - 12.0 * c.sd, c.mean + 12.0 * c.sd);
            let step = (smallest / 20.0).min(c.sd / 20.0);
            let intervals = (((hi - lo) / step).ceil() as usize).clamp(2, 2_000_000) & !1;
            let h = (hi - lo) / intervals as f64;
            let f = |t: f64| normal_pdf((t - c.mean) / c.sd) / c.sd * survival(t);
            let mut sum = f(lo) + f(hi);
            for i in 1..intervals {
                sum += f(lo + i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
            }
            c.weight * sum * h / 3.0
        })
        .sum()
}

/// Σ_ij π_i π'_j g(μ_i − μ'_j, √(σ_i² + σ'_j²)).
fn pairs(x: &Mixture, y: &Mixture, g: impl Fn(f64, f64) -> f64) -> f64 {
    x.components
        .iter()
        .flat_map(|a| {
            y.components
                .iter()
                .map(move |b| (a.weight * b.weight, a.mean - b.mean, a.sd.hypot(b.sd)))
        })
        .map(|(w, d, s)| w * g(d, s))
        .sum()
}

fn normal_pdf(z: f64) -> f64 {
    (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn mixture(w: &[f64], m: &[f64], s: &[f64]) -> Mixture {
        Mixture::from_columns(w, m, s)
    }

    /// The Fig. 6 mixtures of paper 001 (`docs/mixtures.md` §7.2).
    fn fig6() -> [Mixture; 3] {
        [
            mixture(&[0.5, 0.35, 0.15], &[2.0, 8.0, 25.0], &[0.5, 0.5, 0.5]),
            mixture(&[0.25, 0.5, 0.25], &[4.0, 16.0, 23.0], &[1.5, 2.0, 2.0]),
            mixture(&[0.35, 0.65], &[10.0, 14.0], &[2.0, 4.0]),
        ]
    }

    #[test]
    fn fig6_closed_forms() {
        // docs/mixtures.md §7.2 (closed forms; Monte Carlo agrees to about 1e-3).
        let [a, b, c] = fig6();
        let close = |got: f64, want: f64, what: &str| {
            assert!((got - want).abs() < 1e-6, "{what}: {got} v {want}");
        };
        close(mixture_mean_abs_difference(&a, &b), 11.008527, "I1(A,B)");
        close(mixture_mean_abs_difference(&a, &c), 8.871571, "I1(A,C)");
        close(mixture_mean_abs_difference(&b, &c), 7.097423, "I1(B,C)");
        close(mixture_p_less(&a, &b, 0.0), 0.756346, "P[A<B]");
        close(mixture_p_less(&a, &c, 0.0), 0.813951, "P[A<C]");
        close(mixture_p_less(&b, &c, 0.0), 0.360666, "P[B<C]");
        close(mixture_p_less(&a, &b, 1.0), 0.773187, "P[A<B+1]");
        let i3 = [
            mixture_p_first_fastest(&a, &[&b, &c]),
            mixture_p_first_fastest(&b, &[&a, &c]),
            mixture_p_first_fastest(&c, &[&a, &b]),
        ];
        close(i3[0], 0.722725, "P[A<min(B,C)]");
        close(i3[1], 0.153217, "P[B<min(A,C)]");
        close(i3[2], 0.124058, "P[C<min(A,B)]");
        close(i3.iter().sum(), 1.0, "sum of I3");
        // With one other version, I3 is I2.
        close(mixture_p_first_fastest(&a, &[&b]), 0.756346, "I3(A; B)");
    }

    #[test]
    fn separated_samples_give_the_difference_of_means() {
        // docs/mixtures.md §5: if every x < every y, Ĩ1 = ȳ − x̄ and Ĩ3 = 1.
        let (x, y) = ([1.0, 2.0, 3.5], [10.0, 12.0]);
        assert!((mean_abs_difference(&x, &y).unwrap() - (11.0 - 6.5 / 3.0)).abs() < 1e-12);
        assert_eq!(p_first_fastest(&x, &[&y]), Some(1.0));
        assert_eq!(p_first_fastest(&y, &[&x]), Some(0.0));
        assert_eq!(mean_abs_difference(&[], &y), None);
    }

    #[test]
    fn the_metrics_from_sorted_copies_are_the_metrics() {
        use crate::stats::sorted::{SortedVec, tests::awkward_samples, tests::pairs};
        let bits = |v: Option<f64>| v.map(f64::to_bits);
        let samples = awkward_samples();
        let mut pairs = pairs(&samples);
        pairs.extend([(&[][..], &[1.0][..]), (&[1.0][..], &[][..])]);
        for (x, y) in pairs {
            let (sx, sy) = (SortedVec::of(x), SortedVec::of(y));
            let got = mean_abs_difference_sorted(x, y, sy.as_sorted());
            assert_eq!(bits(got), bits(mean_abs_difference(x, y)), "{x:?} {y:?}");
            // The plain computation of Ĩ3: each other version sorted here.
            let plain = |first: &[f64], other: &[f64]| {
                let mut s = other.to_vec();
                s.sort_by(f64::total_cmp);
                (!first.is_empty() && !s.is_empty()).then(|| {
                    let above = |v: f64| (s.len() - s.partition_point(|&o| o <= v)) as f64;
                    first
                        .iter()
                        .map(|&v| above(v) / s.len() as f64)
                        .sum::<f64>()
                        / first.len() as f64
                })
            };
            let got = p_first_fastest_sorted(y, &[sx.as_sorted()]);
            assert_eq!(bits(got), bits(plain(y, x)), "{x:?} {y:?}");
            assert_eq!(bits(p_first_fastest(y, &[x])), bits(plain(y, x)));
        }
    }

    fn enumerate_i1(x: &[f64], y: &[f64]) -> f64 {
        let s: f64 = x
            .iter()
            .flat_map(|a| y.iter().map(move |b| (a - b).abs()))
            .sum();
        s / (x.len() * y.len()) as f64
    }

    fn enumerate_i3(first: &[f64], others: &[Vec<f64>]) -> f64 {
        // Every tuple (i1, ..., ir), counted one by one.
        let mut tuples: Vec<Vec<f64>> = vec![vec![]];
        for o in others {
            tuples = tuples
                .iter()
                .flat_map(|t| {
                    o.iter().map(move |v| {
                        let mut t = t.clone();
                        t.push(*v);
                        t
                    })
                })
                .collect();
        }
        let wins = first
            .iter()
            .flat_map(|x| tuples.iter().map(move |t| t.iter().all(|v| x < v)))
            .filter(|&w| w)
            .count();
        wins as f64 / (first.len() * tuples.len()) as f64
    }

    fn tied_sample() -> impl Strategy<Value = Vec<f64>> {
        prop::collection::vec((0u8..12).prop_map(|v| 100.0 + f64::from(v) * 0.5), 1..8)
    }

    proptest! {
        #[test]
        fn i1_and_i3_match_full_enumeration(
            x in tied_sample(),
            others in prop::collection::vec(tied_sample(), 1..4),
        ) {
            let i1 = mean_abs_difference(&x, &others[0]).unwrap();
            prop_assert!((i1 - enumerate_i1(&x, &others[0])).abs() < 1e-9);
            let refs: Vec<&[f64]> = others.iter().map(|o| o.as_slice()).collect();
            let i3 = p_first_fastest(&x, &refs).unwrap();
            prop_assert!((i3 - enumerate_i3(&x, &others)).abs() < 1e-12);
        }
    }
}
