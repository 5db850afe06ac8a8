//! The signed-rank test of Hierarchical Performance Testing (paper 003 §4.1): zeros kept, their ranks split.
//!
//! HPT sets every benchmark whose own rank-sum test is not significant to d = 0, so zeros are the rule, not
//! the exception, and R's `wilcox.test(d)` (which drops zeros) answers a different question. This module
//! implements the paper's variant with an exact null distribution; it returns statistics and p-values and
//! takes no decision (`protocol::hpt` does).
//!
//! - **Statistics** (paper 003 §4.1). Rank |d| over all n differences, zeros included, with midranks.
//!   R+ = Σ_{d>0} rank + ½ Σ_{d=0} rank (the paper's R_A), R− likewise for d < 0; R+ + R− = n(n+1)/2.
//! - **H0**: each nonzero d is positive or negative with probability ½, independently, its rank fixed (the
//!   conditional sign-flip, or permutation, null of Pratt 1959); the zeros contribute their fixed half ranks
//!   to both sums. **H1** `Greater`: the d tend to be positive (R+ large); `Less`: negative.
//! - **p-values**: `p_greater` = P(R+ ≥ observed R+) = P(R− ≤ observed R−), `p_less` = P(R+ ≤ observed R+).
//!   The paper's confidence is 1 − p. With no nonzero difference R+ is constant and both p-values are 1.
//! - **Exact method**: doubled midranks are integers, so the null law of 2R+ is a subset-sum count over the
//!   doubled ranks of the nonzero differences, computed as probabilities (each step halves; all terms are
//!   positive, so the relative error stays near k·ε). Used while the table costs at most
//!   [`EXACT_BUDGET`] cell updates, k · Σ 2·rank over the k nonzero differences: with no zeros that is up to
//!   about 170 differences, fewer when many zeros push the nonzero ranks up.
//! - **Normal approximation** beyond: the conditional mean and variance are exact, E(R+) = n(n+1)/4 and
//!   Var(R+) = Σ_{d≠0} rank²/4, which is the variance corrected for ties (Σ midrank² = Σ i² − Σ(t³−t)/12)
//!   and for zeros; the continuity correction is half the lattice step of R+, gcd(2·rank)/4. Without zeros
//!   and ties this is R's `wilcox.test(d, exact = FALSE, correct = TRUE)`; with tied midranks such as 1.5
//!   the step is ½ and the correction ¼, where R keeps ½.
//! - **R oracle**: without zeros or ties the distribution is Wilcoxon's (1945), R's `psignrank` and
//!   `wilcox.test(d, exact = TRUE)` for n < 50 (`fixtures/r/sign_flip.R`). With zeros the tests enumerate the
//!   2^k sign patterns.
//! - **Limits**: at least one difference; NaN and infinities are rejected.

use super::{Alternative, Method, StatsResult, check_finite, check_len, normal};

/// The largest number of subset-sum cell updates the exact distribution may take (a few milliseconds).
pub const EXACT_BUDGET: u64 = 5_000_000;

/// The outcome of the sign-flip signed-rank test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SignFlip {
    /// R+ = Σ_{d>0} rank(|d|) + ½ Σ_{d=0} rank(|d|) (the paper's R_A).
    pub r_positive: f64,
    /// R− = Σ_{d<0} rank(|d|) + ½ Σ_{d=0} rank(|d|) (the paper's R_B).
    pub r_negative: f64,
    /// P(R+ ≥ observed R+) under the sign-flip null.
    pub p_greater: f64,
    /// P(R+ ≤ observed R+) under the sign-flip null.
    pub p_less: f64,
    /// Exact subset-sum distribution, or the normal approximation beyond [`EXACT_BUDGET`].
    pub method: Method,
    /// How many differences are not zero (those whose sign is random under H0).
    pub nonzero: usize,
}

impl SignFlip {
    /// The p-value for an alternative; two-sided doubles the smaller tail, capped at 1.
    pub fn p_value(&self, alternative: Alternative) -> f64 {
        let in_upper = self.p_greater < self.p_less;
        alternative.p_from_tails(in_upper, || self.p_greater, || self.p_less)
    }
}

/// Runs the test on the differences `d` (positive means the first sample is larger).
pub fn sign_flip(d: &[f64]) -> StatsResult<SignFlip> {
    check_len(d, 1)?;
    check_finite(d)?;
    let Split {
        nonzero: nonzero_ranks,
        positive2,
        zero2,
    } = split(d);
    let n = d.len() as f64;
    let r_positive = (positive2 as f64 + zero2 as f64 / 2.0) / 2.0;
    let r_negative = n * (n + 1.0) / 2.0 - r_positive;
    let (p_greater, p_less, method) = if exact_is_cheap(&nonzero_ranks) {
        let (greater, less) = SignFlipNull::new(&nonzero_ranks).tails(positive2);
        (greater, less, Method::Exact)
    } else {
        let (greater, less) = normal_tails(&nonzero_ranks, positive2);
        (greater, less, Method::Approximate)
    };
    Ok(SignFlip {
        r_positive,
        r_negative,
        p_greater,
        p_less,
        method,
        nonzero: nonzero_ranks.len(),
    })
}

/// The doubled ranks of `d` sorted by sign: those of the nonzero values (whose signs the null flips), and the
/// sums over the positive and over the zero values.
struct Split {
    nonzero: Vec<u64>,
    positive2: u64,
    zero2: u64,
}

fn split(d: &[f64]) -> Split {
    let doubled = doubled_ranks(d);
    let mut split = Split {
        nonzero: Vec::with_capacity(d.len()),
        positive2: 0,
        zero2: 0,
    };
    for (&value, &rank2) in d.iter().zip(&doubled) {
        if value > 0.0 {
            split.positive2 += rank2;
        } else if value == 0.0 {
            split.zero2 += rank2;
        }
        if value != 0.0 {
            split.nonzero.push(rank2);
        }
    }
    split
}

/// Twice the midrank of each |d| in input order (an integer: a tie group over positions i..=j gets i + j).
pub fn doubled_ranks(d: &[f64]) -> Vec<u64> {
    let mut order: Vec<usize> = (0..d.len()).collect();
    order.sort_unstable_by(|&a, &b| d[a].abs().total_cmp(&d[b].abs()));
    let mut ranks = vec![0u64; d.len()];
    let mut start = 0;
    while start < order.len() {
        let value = d[order[start]].abs();
        let mut end = start + 1;
        while end < order.len() && d[order[end]].abs() == value {
            end += 1;
        }
        // Positions start+1 ..= end (1-based): doubled midrank = (start + 1) + end.
        let rank2 = (start + 1 + end) as u64;
        for &index in &order[start..end] {
            ranks[index] = rank2;
        }
        start = end;
    }
    ranks
}

fn exact_is_cheap(doubled: &[u64]) -> bool {
    let total: u64 = doubled.iter().sum();
    (doubled.len() as u64).saturating_mul(total) <= EXACT_BUDGET
}

/// The exact null law of S = Σ a_i·B_i, B_i independent fair coins, over integer weights a_i (doubled ranks).
///
/// S is symmetric about T/2 (T = Σ a_i), so only P(S = s) for s ≤ T/2 is kept: half the table and half the
/// work, and every tail that can be small is read directly from it.
#[derive(Debug, Clone)]
pub struct SignFlipNull {
    total: u64,
    /// probabilities[s] = P(S = s) for s = 0..=T/2.
    probabilities: Vec<f64>,
}

impl SignFlipNull {
    /// Builds the distribution by the subset-sum recursion, one weight at a time.
    pub fn new(weights: &[u64]) -> SignFlipNull {
        let total: u64 = weights.iter().sum();
        let half = (total / 2) as usize;
        let mut probabilities = vec![0.0; half + 1];
        probabilities[0] = 1.0;
        let mut reach = 0usize;
        for &weight in weights {
            let a = weight as usize;
            reach = (reach + a).min(half);
            for s in (0..=reach).rev() {
                let carried = if s >= a { probabilities[s - a] } else { 0.0 };
                probabilities[s] = 0.5 * (probabilities[s] + carried);
            }
        }
        SignFlipNull {
            total,
            probabilities,
        }
    }

    /// P(S ≥ s) and P(S ≤ s).
    pub fn tails(&self, s: u64) -> (f64, f64) {
        let upper = if s > self.total {
            0.0
        } else {
            self.lower(self.total - s)
        };
        (upper, self.lower(s))
    }

    /// P(S ≤ s): summed directly up to T/2, beyond it as 1 − P(S ≤ T − s − 1) (then at least ½).
    fn lower(&self, s: u64) -> f64 {
        let half = self.probabilities.len() as u64 - 1;
        if s <= half {
            let sum: f64 = self.probabilities[..=s as usize].iter().sum();
            sum.min(1.0)
        } else if s >= self.total {
            1.0
        } else {
            1.0 - self.lower(self.total - s - 1)
        }
    }
}

/// Normal approximation of (P(S ≥ s), P(S ≤ s)) with exact conditional moments and half-step correction.
fn normal_tails(doubled: &[u64], s: u64) -> (f64, f64) {
    if doubled.is_empty() {
        return (1.0, 1.0);
    }
    let total: f64 = doubled.iter().map(|&a| a as f64).sum();
    let variance: f64 = doubled
        .iter()
        .map(|&a| (a as f64) * (a as f64))
        .sum::<f64>()
        / 4.0;
    let step = doubled.iter().fold(0u64, |g, &a| gcd(g, a)) as f64;
    let centred = s as f64 - total / 2.0;
    let sd = variance.sqrt();
    let greater = normal::sf((centred - step / 2.0) / sd);
    let less = normal::cdf((centred + step / 2.0) / sd);
    (greater, less)
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The normal approximation on its own, for tests that compare it with R beyond the exact budget.
#[cfg(test)]
fn approximate(d: &[f64]) -> (f64, f64) {
    let split = split(d);
    normal_tails(&split.nonzero, split.positive2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::StatsError;
    use crate::testutil::oracle::{assert_rel, load, number, numbers};

    /// P(R+ >= v) and P(R+ <= v) by listing all 2^k sign patterns of the nonzero differences: an
    /// independent reference that shares nothing with the subset-sum recursion.
    fn enumerate(d: &[f64]) -> (f64, f64) {
        let ranks: Vec<f64> = doubled_ranks(d).iter().map(|&r| r as f64 / 2.0).collect();
        let observed = sign_flip(d).expect("valid input").r_positive;
        let nonzero: Vec<usize> = (0..d.len()).filter(|&i| d[i] != 0.0).collect();
        let zero_half: f64 = (0..d.len())
            .filter(|&i| d[i] == 0.0)
            .map(|i| ranks[i] / 2.0)
            .sum();
        let patterns = 1u64 << nonzero.len();
        let (mut upper, mut lower) = (0u64, 0u64);
        for pattern in 0..patterns {
            let r: f64 = zero_half
                + nonzero
                    .iter()
                    .enumerate()
                    .filter(|(bit, _)| pattern >> bit & 1 == 1)
                    .map(|(_, &i)| ranks[i])
                    .sum::<f64>();
            upper += u64::from(r >= observed - 1e-9);
            lower += u64::from(r <= observed + 1e-9);
        }
        (
            upper as f64 / patterns as f64,
            lower as f64 / patterns as f64,
        )
    }

    #[test]
    fn matches_r_exact_wilcoxon_without_zeros_or_ties() {
        let oracle = load("sign_flip");
        for case in oracle["cases"].as_array().expect("cases") {
            let name = case["name"].as_str().expect("name");
            let d = numbers(&case["d"]);
            let test = sign_flip(&d).expect("valid input");
            assert_rel(name, "R+", test.r_positive, number(&case["statistic"]), 0.0);
            // The exact law whatever the budget: weights 2, 4, ..., 2n, statistic 2R+.
            let weights: Vec<u64> = (1..=d.len() as u64).map(|i| 2 * i).collect();
            let (greater, less) = SignFlipNull::new(&weights).tails(2 * test.r_positive as u64);
            let name = &format!("{name} (psignrank)");
            assert_rel(
                name,
                "p_greater",
                greater,
                number(&case["p_greater_psignrank"]),
                1e-12,
            );
            assert_rel(
                name,
                "p_less",
                less,
                number(&case["p_less_psignrank"]),
                1e-12,
            );
            if d.len() < 50 {
                assert_eq!(test.method, Method::Exact, "{name}");
                assert_rel(
                    name,
                    "p_greater (wilcox.test)",
                    test.p_greater,
                    number(&case["p_greater"]),
                    1e-12,
                );
                assert_rel(
                    name,
                    "p_less (wilcox.test)",
                    test.p_less,
                    number(&case["p_less"]),
                    1e-12,
                );
            }
        }
    }

    #[test]
    fn normal_approximation_matches_r_without_zeros_or_ties() {
        let oracle = load("sign_flip");
        for case in oracle["cases"].as_array().expect("cases") {
            let name = case["name"].as_str().expect("name");
            let (greater, less) = approximate(&numbers(&case["d"]));
            assert_rel(
                name,
                "normal p_greater",
                greater,
                number(&case["p_greater_normal"]),
                1e-12,
            );
            assert_rel(
                name,
                "normal p_less",
                less,
                number(&case["p_less_normal"]),
                1e-12,
            );
        }
    }

    #[test]
    fn zeros_keep_their_ranks_and_split_them() {
        // |d| sorted: 0, 0, 1, 2, 3 -> ranks 1.5, 1.5, 3, 4, 5.
        let test = sign_flip(&[3.0, 0.0, -1.0, 0.0, 2.0]).expect("valid input");
        assert_eq!(test.r_positive, 5.0 + 4.0 + 1.5);
        assert_eq!(test.r_negative, 3.0 + 1.5);
        assert_eq!(test.nonzero, 3);
    }

    #[test]
    fn exact_law_with_zeros_and_ties_matches_enumeration() {
        let cases: [&[f64]; 6] = [
            &[3.0, 0.0, -1.0, 0.0, 2.0],
            &[0.0, 0.0, 0.0, 5.0, 6.0, 7.0, -0.5],
            &[1.0, -1.0, 1.0, 2.0, -2.0, 0.0, 3.0, 3.0],
            &[0.0, 2.0, 2.0, 2.0, -4.0, 0.0, 0.0, 9.0, 1.0, -1.0, 1.0],
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
            &[
                -0.1, -0.2, 0.0, -0.3, 0.4, 0.0, 0.0, 0.0, -0.5, 0.6, 0.7, 0.7, 0.0, 0.9,
            ],
        ];
        for d in cases {
            let test = sign_flip(d).expect("valid input");
            let (upper, lower) = enumerate(d);
            assert_eq!(test.method, Method::Exact);
            assert_rel(&format!("{d:?}"), "p_greater", test.p_greater, upper, 1e-14);
            assert_rel(&format!("{d:?}"), "p_less", test.p_less, lower, 1e-14);
        }
    }

    #[test]
    fn all_positive_gives_one_over_two_to_the_n() {
        let test = sign_flip(&[0.4, 1.0, 2.0, 0.1, 0.2, 0.3, 0.5, 0.6]).expect("valid input");
        assert_eq!(test.p_greater, 1.0 / 256.0);
        assert_eq!(test.p_less, 1.0);
    }

    #[test]
    fn zeros_weaken_the_evidence_compared_with_the_textbook_table() {
        // Two positive differences among eight: the sign-flip law conditions on the six zeros, so the best
        // attainable p is 1/4, where the unconditional table over all 8 signs would claim far less.
        let d = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0];
        let test = sign_flip(&d).expect("valid input");
        assert_eq!(test.p_greater, 0.25);
    }

    #[test]
    fn all_zero_gives_no_evidence_either_way() {
        let test = sign_flip(&[0.0, 0.0, 0.0]).expect("valid input");
        assert_eq!((test.p_greater, test.p_less, test.nonzero), (1.0, 1.0, 0));
        assert_eq!(test.r_positive, test.r_negative);
    }

    #[test]
    fn two_sided_doubles_the_smaller_tail() {
        let test = sign_flip(&[0.4, 1.0, 2.0, -0.1, 0.2]).expect("valid input");
        let expected = (2.0 * test.p_greater.min(test.p_less)).min(1.0);
        assert_eq!(test.p_value(Alternative::TwoSided), expected);
        assert!(expected < 1.0);
    }

    #[test]
    fn large_suites_switch_to_the_normal_approximation() {
        let d: Vec<f64> = (1..=400)
            .map(|i| if i % 3 == 0 { -(i as f64) } else { i as f64 })
            .collect();
        let test = sign_flip(&d).expect("valid input");
        assert_eq!(test.method, Method::Approximate);
        assert!(test.p_greater < 1e-6 && test.p_less > 0.999);
    }

    #[test]
    fn normal_approximation_is_close_to_the_exact_law_where_it_takes_over() {
        // 170 differences with ties and 30 zeros: where the exact budget ends, the corrected normal
        // approximation is within 1e-3 of the exact tails.
        let d: Vec<f64> = (0..200)
            .map(|i| match i % 7 {
                0 => 0.0,
                1 | 4 => -f64::from(i / 3),
                _ => f64::from(i / 3),
            })
            .collect();
        let Split {
            nonzero,
            positive2: positive,
            ..
        } = split(&d);
        let exact = SignFlipNull::new(&nonzero);
        for shift in [0i64, -1500, -3000, 1500, 3000, 4500] {
            let s = (positive as i64 + shift) as u64;
            let (greater, less) = exact.tails(s);
            let (approx_greater, approx_less) = normal_tails(&nonzero, s);
            assert!(
                (greater - approx_greater).abs() < 1e-3,
                "shift {shift}: {greater} vs {approx_greater}"
            );
            assert!(
                (less - approx_less).abs() < 1e-3,
                "shift {shift}: {less} vs {approx_less}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn p_values_are_probabilities_whose_tails_overlap(d in proptest::collection::vec(-6i32..=6, 1..40)) {
            let d: Vec<f64> = d.into_iter().map(f64::from).collect();
            let test = sign_flip(&d).expect("valid input");
            proptest::prop_assert!(test.p_greater > 0.0 && test.p_greater <= 1.0);
            proptest::prop_assert!(test.p_less > 0.0 && test.p_less <= 1.0);
            proptest::prop_assert!(test.p_greater + test.p_less >= 1.0 - 1e-12);
            let n = d.len() as f64;
            proptest::prop_assert_eq!(test.r_positive + test.r_negative, n * (n + 1.0) / 2.0);
        }
    }

    #[test]
    fn rejects_empty_and_non_finite_input() {
        assert!(matches!(sign_flip(&[]), Err(StatsError::TooFew { .. })));
        assert_eq!(sign_flip(&[1.0, f64::NAN]), Err(StatsError::NonFinite));
    }
}
